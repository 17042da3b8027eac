#!/bin/sh
# bash completion of a path that holds a space, typed in a real interactive
# bash under tmux: `cuenv add cuda ~/my<TAB>` completes to one escaped
# word, `my\ toolkits/`, and so does a file after `cuenv exec cmd`. The
# script split compgen's output on spaces (COMPREPLY=($(compgen -f ...)),
# shellcheck SC2207) and offered "my" and "toolkits" instead.
. "$(dirname "$0")/lib.sh"

need bash
need tmux
mkdir -p "$HOME/my toolkits/cuda-12.4" "$HOME/w" &&
	: >"$HOME/w/data file.txt" &&
	cat >"$HOME/rc" <<'RC' || exit 1
PS1='$ '
eval "$(cuenv completion bash)"
RC
sock=$HOME/tmux.sock

# type LINE: type LINE then TAB into a fresh bash; print the screen
type_tab() {
	tmux -S "$sock" kill-server 2>/dev/null
	tmux -S "$sock" new-session -d -x 150 -y 20 \
		"env -i HOME='$HOME' CUENV_ROOT='$CUENV_ROOT' PATH='$PATH' TERM=xterm bash --noprofile --rcfile '$HOME/rc' -i" ||
		return 1
	sleep 1
	tmux -S "$sock" send-keys "$1" Tab
	sleep 1
	tmux -S "$sock" capture-pane -p | grep -v '^$'
	tmux -S "$sock" kill-server 2>/dev/null
	return 0
}
trap 'tmux -S "$sock" kill-server 2>/dev/null' EXIT

type_tab "cuenv add cuda $HOME/my" >"$HOME/screen" &&
	file_is "$HOME/screen" "\$ cuenv add cuda $HOME/my\\ toolkits/" &&
	cd "$HOME/w" &&
	type_tab "cuenv exec cat da" >"$HOME/screen" &&
	file_is "$HOME/screen" "\$ cuenv exec cat data\\ file.txt" &&
	check "shellcheck SC2207" sh -c '! command -v shellcheck >/dev/null ||
		cuenv completion bash | shellcheck -s bash -'
