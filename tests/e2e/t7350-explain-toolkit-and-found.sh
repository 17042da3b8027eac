#!/bin/sh
# torch's extension builder with another toolkit than torch's CUDA (its
# CUDA_MISMATCH_MESSAGE, broken over two lines as torch prints it): the
# toolkit of torch's CUDA is installed and selected as printed, and the
# selection's nvcc folder and CUDA_HOME are the ones a build in that shell
# gets; the "minor version mismatch" warning is no finding. A library
# found whose initialisation failed (Windows' 1114) or that is no library
# for this machine (glibc's "file too short") asks for no install.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
need python3

CUENV_LD_SO_CACHE=$HOME/no-such-cache
export CUENV_LD_SO_CACHE
msg='RuntimeError:
The detected CUDA version (12.1) mismatches the version that was used to compile
PyTorch (11.8). Please make sure to use the same CUDA versions.'

mkdir -p "$HOME/p" && cd "$HOME/p" &&
	use_mirror &&
	expect_code 0 cuenv explain "$msg" &&
	stdout_has "the CUDA toolkit compiling torch's extension (its nvcc, found from CUDA_HOME or PATH) is CUDA 12.1; torch was built with CUDA 11.8" &&
	stdout_has "fix: cuenv install 11.8" &&
	stdout_has "fix: cuenv local 11.8" &&
	expect_code 0 cuenv explain --json "$msg" &&
	check "json: the finding, the context's CUDA, the fix" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
assert [(x["kind"], x["built"], x["loaded"]) for x in f] == \
    [("toolkit-mismatch", "11.8", "12.1")], f
assert j["context"]["cuda"] == "11.8", j["context"]
assert [" ".join(c) for c in j["fix"]] == \
    ["cuenv install 11.8", "cuenv local 11.8"], j["fix"]
' "$E2E_OUT" &&
	expect_code 0 cuenv install 11.8 &&
	expect_code 0 cuenv local 11.8 &&
	expect_code 0 cuenv exec -- sh -c 'echo "home=$CUDA_HOME"' &&
	stdout_has "home=$CUENV_ROOT/versions/cuda/11.8" &&
	expect_code 1 cuenv explain "UserWarning: The detected CUDA version (11.8) has a minor version mismatch with the version that was used to compile PyTorch (11.7). Most likely this shouldn't be a problem." || exit 1

expect_code 0 cuenv explain 'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "C:\v\torch\lib\cudnn_cnn_infer64_8.dll" or one of its dependencies.' &&
	stdout_has "Windows' error 1114: it was found and loaded, but its initialisation failed" &&
	stdout_has "see the copies PATH has: where.exe cudnn_cnn_infer64_8.dll" &&
	stdout_lacks "fix:" &&
	stdout_lacks "decide:" &&
	expect_code 0 cuenv explain "OSError: /opt/v/nvidia/cublas/lib/libcublas.so.12: file too short" &&
	stdout_has "that file is no library for this machine" &&
	stdout_has "see it: ls -lL '/opt/v/nvidia/cublas/lib/libcublas.so.12'" &&
	stdout_lacks "fix:" &&
	expect_code 0 cuenv explain --json "OSError: /opt/v/nvidia/cublas/lib/libcublas.so.12: file too short" &&
	check "json: found, not usable, nothing to install" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
assert [(x["kind"], x["missing"], x["found_unusable"]) for x in f] == \
    [("library", False, "not-a-library-for-this-machine")], f
assert j["fix"] == [], j["fix"]
' "$E2E_OUT"
