#!/bin/sh
# cuenv needs: a load whose version no file fixes (ctypes from Python, an
# unversioned soname, as nvidia-cudnn-frontend 1.8.0's) leaves the GPU
# path unknown: exit 1, never "satisfied", and the command printed to
# decide it, run here as printed, shows what the import really mapped.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3"

stubs &&
	mkdir -p "$HOME/site/fe" &&
	printf '%s\n' 'import ctypes' "lib = ctypes.CDLL('libcudnn.so')" \
		>"$HOME/site/fe/__init__.py" &&
	mkso "$HOME/site/fe/_mod.so" _mod.so 'const char s[] = "libcudart.so";' &&
	mkso "$HOME/stub/libcudnn.so" libcudnn.so.9 'int dnn(void) { return 9; }' &&
	expect_code 1 cuenv needs "$HOME/site/fe" &&
	stdout_has "unknown for the GPU path: what these load is chosen at run time, not named in the files:" &&
	stdout_has "  $HOME/site/fe/__init__.py loads libcudnn.so with ctypes" &&
	stdout_has "  $HOME/site/fe/_mod.so loads libcudart.so, no version named" &&
	decide=$(sed -n '/^what an import maps decides it/{n;p;}' "$E2E_OUT") &&
	case $decide in "  LD_DEBUG=libs python3 -c 'import fe'"*) ;; *) false ;; esac &&
	(cd "$HOME" && PYTHONPATH=$HOME/site LD_LIBRARY_PATH=$HOME/stub sh -c "$decide") >"$HOME/decided" &&
	grep -q "calling init: $HOME/stub/libcudnn.so" "$HOME/decided" &&
	expect_code 1 cuenv needs --json "$HOME/site/fe" &&
	stdout_has '"satisfied": false' &&
	stdout_has "\"unknown\": [" &&
	# A report of both families answers them: nothing unknown.
	printf '%s\n' "cuda_version = '12.1'" "cudnn_version = '9.1.0'" \
		>"$HOME/site/fe/build.py" &&
	expect_code 1 cuenv needs "$HOME/site/fe" &&
	stdout_lacks "unknown for the GPU path"
