#!/bin/sh
# make demo: show cuenv working in a throw-away root, as a new user would
# use it. Every line printed after "$ " can be pasted into a shell.
#
# 1. Installs CUDA 12.4 with cuDNN 9.1 (runtime libraries only) from
#    NVIDIA when developer.download.nvidia.com answers; otherwise from a
#    local mirror of test archives (tests/fixtures), and says so.
# 2. Registers this machine's own toolkit, if it has one.
# 3. Selects a version for a project, runs a command through cuenv exec,
#    then shows the shell hook in a real bash (entering and leaving the
#    project), cuenv doctor and cuenv check.
# 4. Says how to keep using it: where the binary is, PATH, the hook.
#
# CUENV_BIN is the binary (make demo passes ./cuenv); its folder goes first
# on PATH, so the commands shown are plain `cuenv ...`. CUENV_DEMO_OFFLINE=1
# skips asking NVIDIA's servers (the tests' t9310).
set -eu
BIN=${CUENV_BIN:?}
here=$(cd "$(dirname "$0")/.." && pwd)
bindir=$(cd "$(dirname "$BIN")" && pwd)
demo=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null || :
	rm -rf "$demo"
}
trap cleanup EXIT INT TERM
export CUENV_ROOT="$demo/root"
# The user's HOME is not the demo's: the bash below would add its lines to
# ~/.bash_history, and nothing else the demo runs has business there.
mkdir "$demo/home"
export HOME="$demo/home"
PATH=$bindir:$PATH
export PATH

# Print an argument quoted for sh when it needs it.
quote() {
	case $1 in
	'' | *[!A-Za-z0-9_./:=@%+,-]*)
		printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
		;;
	*) printf '%s' "$1" ;;
	esac
}

# run CMD ARGS...: show it as a shell line, then run it.
run() {
	printf '\n$'
	for a in "$@"; do
		printf ' '
		quote "$a"
	done
	printf '\n'
	"$@"
}

echo "cuenv demo: a throw-away CUENV_ROOT in $demo"
fixtures=
if [ "${CUENV_DEMO_OFFLINE-}" != 1 ] &&
	curl -fsI --max-time 5 https://developer.download.nvidia.com/compute/cuda/redist/ >/dev/null 2>&1; then
	run cuenv install 12.4 --cudnn 9.1 --runtime-only
else
	echo "(NVIDIA's servers are not reachable from here: installing from a"
	echo " local mirror of test archives that have NVIDIA's layout instead)"
	fixtures=1
	python3 "$here/tests/fixtures/mkrelease.py" "$demo/fixtures" --quiet
	python3 "$here/tests/fixtures/server.py" --root "$demo/fixtures/mirror" \
		--port-file "$demo/port" >/dev/null 2>&1 &
	server=$!
	while [ ! -s "$demo/port" ]; do sleep 0.1; done
	export CUENV_MANIFESTS="$demo/fixtures/manifests"
	run cuenv install 12.4 --cudnn 9.1 --mirror "http://127.0.0.1:$(cat "$demo/port")"
fi

cuda=
for c in "${CUDA_HOME-}" /usr/local/cuda; do
	if [ -n "$c" ] && [ -d "$c" ]; then cuda=$c; break; fi
done
if [ -n "$cuda" ]; then
	run cuenv add cuda "$cuda" || :
fi

cd "$demo"
mkdir project
cd project
run cuenv versions
run cuenv local 12.4 --cudnn 9.1
run cat .cuenv
run cuenv version
run cuenv which libcudnn.so.9
run cuenv exec -- sh -c 'echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'

# The hook, in a real interactive bash whose ~/.bashrc has the line the
# README gives: entering the project activates it, leaving undoes it.
cd "$demo"
cat >"$demo/bashrc" <<'EOF'
PS1='$ '
eval "$(cuenv init bash)"
EOF
printf '\n# A new bash with eval "$(cuenv init bash)" in its ~/.bashrc:\n'
HISTFILE=/dev/null bash --noprofile --rcfile "$demo/bashrc" -i 2>&1 <<'EOF' |
cd project
echo "CUDA_HOME=$CUDA_HOME"
cuenv version
cd ..
echo "CUDA_HOME=${CUDA_HOME-}"
EOF
	grep -v 'cannot set terminal process group\|no job control in this shell\|^\$ exit$'

cd "$demo/project"
# What would break, without a GPU; then the proof on one (no GPU: it says
# which layer it could not pass, and why).
run cuenv doctor || :
[ -z "$fixtures" ] ||
	printf '\n(the test archives hold stand-in libraries, which check finds lacking)\n'
run cuenv check || printf '(cuenv check exits %s without a working GPU and driver)\n' "$?"

cat <<EOF

That was $("$BIN" --version 2>/dev/null | head -n 1)
from $BIN, in a root now deleted. To keep using it:

  export PATH="$bindir:\$PATH"        # or: make install PREFIX=\$HOME/.local
  echo 'eval "\$(cuenv init bash)"' >>~/.bashrc   # zsh: init zsh; fish: see README.md
  cuenv install 12.4 --cudnn 9.1
EOF
