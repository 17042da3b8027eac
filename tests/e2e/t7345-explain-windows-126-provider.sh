#!/bin/sh
# Windows' error 126 on a framework's own DLL built on CUDA (onnxruntime's
# "LoadLibrary failed with error 126 ... onnxruntime_providers_cuda.dll",
# microsoft/onnxruntime#14837): it or a DLL it imports is missing, which
# one the error does not say. A library finding of no NVIDIA library, the
# CUDA unknown, the commands that decide (the framework's version when the
# text gives it); with onnxruntime's "Require cuDNN 9.* and CUDA 12.*",
# the install of that CUDA and cuDNN, run as printed. 127 is no install.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
need python3

ort='onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "E:\x\build\examples\Release\onnxruntime_providers_cuda.dll"'
req='Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime. Please install all dependencies as mentioned in the GPU requirements page.'

expect_code 0 cuenv explain "$ort" &&
	stdout_has "onnxruntime_providers_cuda.dll: onnxruntime's own DLL, not one of NVIDIA's" &&
	stdout_has "Windows' error 126: it, or a DLL it imports, could not be found" &&
	stdout_has "CUDA: cannot be known from this text" &&
	stdout_has "nothing installed here decides it" &&
	stdout_lacks "fix:" &&
	expect_code 0 cuenv explain --json "onnxruntime-gpu==1.17.1 $ort" &&
	check "json: a library finding, the CUDA unknown, needs of the pin" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
assert [(x["kind"], x["library"], x["imports"], x["missing"]) for x in f] \
    == [("library", None, True, True)], f
assert j["cuda_known"] is False, j
# no framework in the sys.path: only the build of the text decides
assert j["decide"] == [["cuenv", "needs", "onnxruntime-gpu==1.17.1"]], \
    j["decide"]
' "$E2E_OUT" &&
	expect_code 0 cuenv explain "LoadLibrary failed with error 127 when trying to load onnxruntime_providers_cuda.dll" &&
	stdout_has "Windows' error 127" &&
	stdout_lacks "fix:" &&
	stdout_lacks "decide:" || exit 1

# the build's CUDA and cuDNN in the text: installed and selected as printed
mkdir -p "$HOME/p" && cd "$HOME/p" &&
	use_mirror &&
	expect_code 0 cuenv explain "$ort
$req" &&
	stdout_has "its build uses CUDA 12.x, cuDNN 9.x (from the text)" &&
	stdout_has "fix: cuenv install 12.4 --cudnn 9" &&
	stdout_has "fix: cuenv local 12.4 --cudnn 9" &&
	expect_code 0 cuenv install 12.4 --cudnn 9 &&
	expect_code 0 cuenv local 12.4 --cudnn 9
