#!/bin/sh
# Two venvs' NVIDIA wheels of the same CUDA release registered side by
# side without --as (issue 21 item 7): the first is `12.1` (the
# runtime's headers), the second takes its runtime wheel's exact version,
# `12.1.105`, says so, and each selects its own folder; its cuDNN, the
# same release as the first's, is said and shared. A third with the same
# wheels has no distinct name left: the conflict and its --as hint stand,
# and --as registers it.
. "$(dirname "$0")/lib.sh"

# wheels SITE: NVIDIA's runtime 12.1.105 and cuDNN 9.1.0.70 wheels in
# SITE/nvidia, with their dist-info folders
wheels() {
	n=$1/nvidia
	mkdir -p "$n/cuda_runtime/lib" "$n/cuda_runtime/include" \
		"$n/cudnn/lib" "$n/cudnn/include" \
		"$1/nvidia_cuda_runtime_cu12-12.1.105.dist-info" \
		"$1/nvidia_cudnn_cu12-9.1.0.70.dist-info" &&
		fake_elf libcudart.so.12 "$n/cuda_runtime/lib/libcudart.so.12" &&
		fake_elf libcudnn.so.9 "$n/cudnn/lib/libcudnn.so.9" &&
		printf '#define CUDART_VERSION 12010\n' \
			>"$n/cuda_runtime/include/cuda_runtime_api.h" &&
		printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n' \
			>"$n/cudnn/include/cudnn_version.h"
}

a=$HOME/a/lib/python3.11/site-packages
b=$HOME/b/lib/python3.11/site-packages
c=$HOME/c/lib/python3.11/site-packages
wheels "$a" && wheels "$b" && wheels "$c" &&
	expect_code 0 cuenv add cuda "$a/nvidia" &&
	stdout_has "registered cuda 12.1 from $a/nvidia" &&
	expect_code 0 cuenv add cuda "$b/nvidia" &&
	stdout_has "cuda 12.1 is registered from another folder: this one is cuda 12.1.105, its runtime wheel's version (select it as 12.1.105)" &&
	stdout_has "registered cuda 12.1.105 from $b/nvidia" &&
	expect_stdout "12.1
12.1.105" cuenv versions --bare &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.1\n' >.cuenv &&
	expect_stdout "$a/nvidia/cuda_runtime/lib/libcudart.so.12" \
		cuenv which libcudart.so.12 &&
	printf 'cuda = 12.1.105\ncudnn = 9.1\n' >.cuenv &&
	expect_stdout "$b/nvidia/cuda_runtime/lib/libcudart.so.12" \
		cuenv which libcudart.so.12 &&
	expect_code 0 cuenv which libcudnn.so.9 &&
	expect_code 16 cuenv add cuda "$c/nvidia" &&
	stderr_has "cuenv: error: cuda 12.1 is already in the store ($a/nvidia)" &&
	stderr_has "with --as" &&
	expect_stdout "12.1
12.1.105" cuenv versions --bare &&
	expect_code 0 cuenv add cuda "$c/nvidia" --as 12.1.105.3 &&
	stdout_has "registered cuda 12.1.105.3 from $c/nvidia"
