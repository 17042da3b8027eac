#!/bin/sh
# add --discover: the toolkits the environment names. NVIDIA's Windows
# installer sets CUDA_PATH_V<major>_<minor> for each toolkit and CUDA_PATH
# for the last; CUDA_HOME is the Linux convention. Each folder is
# registered once, one that is no toolkit is a warning naming the
# variable, a second run says they are registered, and an environment
# that names none is exit 1 with the command that registers one by hand.
. "$(dirname "$0")/lib.sh"

w="$HOME/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2"
l=$HOME/cuda-12.4
mkdir -p "$w/bin" "$w/include" "$l/lib64" "$l/include" &&
	: >"$w/bin/cudart64_110.dll" &&
	printf '#define CUDART_VERSION 11020\n' >"$w/include/cuda_runtime_api.h" &&
	fake_elf libcudart.so.12 "$l/lib64/libcudart.so.12" &&
	printf '{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}\n' >"$l/version.json" &&
	CUDA_PATH_V12_4=$l CUDA_PATH=$l CUDA_PATH_V11_2=$w CUDA_HOME=$HOME/nothing \
		expect_code 0 cuenv add --discover &&
	stdout_has "registered cuda 11.2 from $w (no CUPTI)" &&
	stdout_has "registered cuda 12.4.1 from $l (no CUPTI)" &&
	stderr_has "warning: CUDA_HOME=$HOME/nothing: cannot read '$HOME/nothing'" &&
	expect_stdout "  cuda   11.2                  $w  (registered)
  cuda   12.4.1                $l  (registered)" cuenv versions &&
	CUDA_PATH_V11_2=$w expect_code 0 cuenv add --discover &&
	stdout_has "cuda 11.2 is already registered from $w" &&
	expect_code 1 env -u CUDA_PATH -u CUDA_HOME cuenv add --discover &&
	stderr_has "cuenv: error: add: no toolkit found in CUDA_PATH_V*, CUDA_PATH or CUDA_HOME" &&
	stderr_has "hint: register one by its folder: cuenv add cuda PATH" &&
	expect_code 2 cuenv add --discover cuda "$l" &&
	stderr_has "add: --discover takes no PATH, --as or --cuda" &&
	expect_code 2 cuenv add cuda &&
	stderr_has "cuenv: error: add: missing argument"
