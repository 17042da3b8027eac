#!/bin/sh
# NVIDIA's wheels registered from a site-packages/nvidia (issue 21 item
# 7): `.../nvidia` has no bin/ or include/, so CUDA_HOME and CUDA_PATH
# name the runtime wheel's folder (nvidia/cuda_runtime, with
# cuda_runtime_api.h; not cuBLAS's, listed first), and add says there is
# no nvcc; with the nvcc wheel, its folder (CUDA_HOME/bin/nvcc runs).
. "$(dirname "$0")/lib.sh"

# wheels DIR VERSION: a site-packages/nvidia at DIR with the runtime
# (CUDA VERSION), cuBLAS's headers and cuDNN 9.1
wheels() {
	mkdir -p "$1/cuda_runtime/lib" "$1/cuda_runtime/include" \
		"$1/cublas/lib" "$1/cublas/include" "$1/cudnn/lib" \
		"$1/cudnn/include" &&
		fake_elf libcudart.so.12 "$1/cuda_runtime/lib/libcudart.so.12" &&
		fake_elf libcublas.so.12 "$1/cublas/lib/libcublas.so.12" &&
		fake_elf libcudnn.so.9 "$1/cudnn/lib/libcudnn.so.9" &&
		printf '#define CUDART_VERSION %s\n' "$2" \
			>"$1/cuda_runtime/include/cuda_runtime_api.h" &&
		printf '#define CUBLAS_VER_MAJOR 12\n' >"$1/cublas/include/cublas_api.h" &&
		printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n' \
			>"$1/cudnn/include/cudnn_version.h"
}

a=$HOME/a/lib/python3.11/site-packages/nvidia
b=$HOME/b/lib/python3.11/site-packages/nvidia
wheels "$a" 12010 &&
	expect_code 0 cuenv add cuda "$a" &&
	stdout_has "registered cuda 12.1 from $a" &&
	stderr_has "cuenv: warning: cuda 12.1 from $a has no bin/nvcc: CUDA_HOME and CUDA_PATH name $a/cuda_runtime (its headers and libraries)" &&
	mkdir proj && cd proj && printf 'cuda = 12.1\n' >.cuenv &&
	expect_stdout "$a/cuda_runtime $a/cuda_runtime" \
		cuenv exec sh -c 'echo "$CUDA_HOME" "$CUDA_PATH"' &&
	expect_code 0 cuenv exec sh -c 'test -f "$CUDA_HOME/include/cuda_runtime_api.h"' &&
	expect_code 0 cuenv env &&
	stdout_has "export CUDA_HOME='$a/cuda_runtime';" &&
	wheels "$b" 12040 &&
	mkdir -p "$b/cuda_nvcc/bin" "$b/cuda_nvcc/include" &&
	printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' \
		>"$b/cuda_nvcc/bin/nvcc" &&
	chmod 755 "$b/cuda_nvcc/bin/nvcc" &&
	expect_code 0 cuenv add cuda "$b" &&
	stdout_has "registered cuda 12.4 from $b" &&
	stderr_lacks "no bin/nvcc" &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_stdout "$b/cuda_nvcc
Cuda compilation tools, release 12.4, V12.4.131" \
		cuenv exec sh -c 'echo "$CUDA_HOME"; "$CUDA_HOME/bin/nvcc"'
