#!/bin/sh
# make demo: show cuenv working in a throw-away root.
#
# 1. Installs CUDA 12.4 with cuDNN 9.1 (runtime libraries only) from
#    NVIDIA when developer.download.nvidia.com answers; otherwise from a
#    local mirror of test archives (tests/fixtures), and says so.
# 2. Registers this machine's own toolkit, if it has one.
# 3. Selects a version for a project and runs it through cuenv exec.
set -eu
BIN=${CUENV_BIN:?}
here=$(cd "$(dirname "$0")/.." && pwd)
demo=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null || :
	rm -rf "$demo"
}
trap cleanup EXIT INT TERM
export CUENV_ROOT="$demo/root"

run() {
	printf '\n$ %s\n' "$*"
	"$@"
}

if curl -fsI --max-time 5 https://developer.download.nvidia.com/compute/cuda/redist/ >/dev/null 2>&1; then
	run "$BIN" install 12.4 --cudnn 9.1 --runtime-only
else
	echo "(NVIDIA's servers are not reachable from here: installing from a"
	echo " local mirror of test archives that have NVIDIA's layout instead)"
	python3 "$here/tests/fixtures/mkrelease.py" "$demo/fixtures" --quiet
	python3 "$here/tests/fixtures/server.py" --root "$demo/fixtures/mirror" \
		--port-file "$demo/port" >/dev/null 2>&1 &
	server=$!
	while [ ! -s "$demo/port" ]; do sleep 0.1; done
	export CUENV_MANIFESTS="$demo/fixtures/manifests"
	run "$BIN" install 12.4 --cudnn 9.1 --mirror "http://127.0.0.1:$(cat "$demo/port")"
fi

cuda=
for c in "${CUDA_HOME-}" /usr/local/cuda; do
	if [ -n "$c" ] && [ -d "$c" ]; then cuda=$c; break; fi
done
if [ -n "$cuda" ]; then
	run "$BIN" add cuda "$cuda"
fi

cd "$demo"
mkdir project
cd project
run "$BIN" versions
run "$BIN" local 12.4 --cudnn 9.1
run cat .cuenv
run "$BIN" version
run "$BIN" which libcudnn.so.9
run "$BIN" exec -- sh -c 'echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'
printf '\nShell setup: eval "$(cuenv init bash)" in ~/.bashrc (see README.md)\n'
