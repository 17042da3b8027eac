#!/bin/sh
# The progress block of an install on a 45-column terminal (tmux): each
# line fits the width, so every redraw goes back over exactly its own rows
# and the screen ends with one line per archive and one total. Lines of
# 56+ columns wrapped, and each redraw left broken copies behind.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need tmux
sock=$HOME/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; _inst_cleanup' EXIT
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	serve_faults "{\"$p\": {\"trickle\": 500000}}" &&
	cat >"$HOME/go" <<EOF2 &&
cuenv install 12.4.1 --components cuda_cudart,libcublas
echo "exit \$?"
EOF2
	tmux -S "$sock" new-session -d -x 45 -y 30 \
		"env -i HOME='$HOME' CUENV_ROOT='$CUENV_ROOT' PATH='$PATH' TERM=xterm CUENV_MANIFESTS='$CUENV_MANIFESTS' CUENV_MIRROR='$CUENV_MIRROR' sh '$HOME/go'; sleep 60" || exit 1
i=0
while [ $i -lt 40 ]; do
	tmux -S "$sock" capture-pane -p >"$HOME/screen" 2>/dev/null
	grep -q '^exit ' "$HOME/screen" && break
	sleep 0.5
	i=$((i + 1))
done
cat "$HOME/screen"
check "install did not end" grep -qx 'exit 0' "$HOME/screen" &&
	check "not one total line" [ "$(grep -c '^  total' "$HOME/screen")" -eq 1 ] &&
	check "not one libcublas line" [ "$(grep -c '^  libcublas' "$HOME/screen")" -eq 1 ] &&
	check "not one cuda_cudart line" [ "$(grep -c '^  cuda_cudart' "$HOME/screen")" -eq 1 ] &&
	check "a progress line fills the width" [ "$(grep '^  ' "$HOME/screen" | awk 'length > 44' | wc -l)" -eq 0 ] &&
	check "the state was cut off" grep -q '^  cuda_cudart .* done$' "$HOME/screen"
