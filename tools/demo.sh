#!/bin/sh
# make demo: show cuenv working in a throw-away root. Uses this machine's
# CUDA toolkit when it has one (CUDA_HOME, /usr/local/cuda, nvcc on PATH);
# otherwise builds a small stand-in toolkit from real ELF stubs.
set -eu
BIN=${CUENV_BIN:?}
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
export CUENV_ROOT="$demo/root"

cuda=
for c in "${CUDA_HOME-}" /usr/local/cuda; do
	if [ -n "$c" ] && [ -d "$c" ]; then cuda=$c; break; fi
done
if [ -z "$cuda" ] && command -v nvcc >/dev/null 2>&1; then
	cuda=$(dirname "$(dirname "$(command -v nvcc)")")
fi
if [ -z "$cuda" ]; then
	echo "(no CUDA toolkit here: building a stand-in 12.4.1)"
	cuda="$demo/cuda-12.4.1"
	mkdir -p "$cuda/bin" "$cuda/lib64" "$cuda/include"
	printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' \
		>"$cuda/bin/nvcc"
	chmod +x "$cuda/bin/nvcc"
	echo 'int cudaRuntimeGetVersion(int *v) { *v = 12040; return 0; }' |
		cc -shared -fPIC -x c -o "$cuda/lib64/libcudart.so.12.4.127" \
			-Wl,-soname,libcudart.so.12 -
	ln -s libcudart.so.12.4.127 "$cuda/lib64/libcudart.so.12"
	echo '#define CUDART_VERSION 12040' >"$cuda/include/cuda_runtime_api.h"
	echo '{"cuda":{"name":"CUDA SDK","version":"12.4.1"}}' >"$cuda/version.json"
fi

run() {
	printf '\n$ %s\n' "$*"
	"$@"
}
cd "$demo"
mkdir project
run "$BIN" add cuda "$cuda"
run "$BIN" versions
cd project
run "$BIN" local "$("$BIN" versions --json | sed -n 's/.*"version": "\([0-9.]*\)".*/\1/p' | head -1)"
run cat .cuenv
run "$BIN" version
run "$BIN" which nvcc
run "$BIN" exec -- nvcc --version
run "$BIN" env
printf '\nShell setup: eval "$(cuenv init bash)" in ~/.bashrc (see README.md)\n'
