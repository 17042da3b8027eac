#!/bin/sh
# A toolkit in NVIDIA's merged wheel layout (lib/ include/ dist-info/) with
# cuDNN inside: add registers both, remove unregisters both.
. "$(dirname "$0")/lib.sh"

w=$HOME/wheel
mkdir -p "$w/bin" "$w/lib" "$w/include" \
	"$w/dist-info/nvidia_cuda_runtime-13.0.96.dist-info" \
	"$w/dist-info/nvidia_cuda_cupti-13.0.85.dist-info" \
	"$w/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info" &&
	printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\n' >"$w/bin/nvcc" &&
	chmod 755 "$w/bin/nvcc" &&
	fake_elf libcudart.so.13 "$w/lib/libcudart.so.13" &&
	fake_elf libcupti.so.13 "$w/lib/libcupti.so.13" &&
	fake_elf libcudnn.so.9 "$w/lib/libcudnn.so.9" libcublasLt.so.13 &&
	printf '#define CUDART_VERSION 13000\n' >"$w/include/cuda_runtime_api.h" &&
	printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n' \
		>"$w/include/cudnn_version.h" &&
	expect_stdout "registered cuda 13.0 from $w (CUPTI 13.0.85)
registered cudnn 9.19.0.56 for CUDA 13 from $w" cuenv add cuda "$w" &&
	expect_stdout "  cuda   13.0                  $w  (registered)
  cudnn  9.19.0.56 (cuda13)    $w  (registered)" cuenv versions &&
	expect_stdout "removed cuda 13.0 ($w, left in place)
removed cudnn 9.19.0.56-cuda13 (inside it)" cuenv remove cuda 13 &&
	expect_code 0 cuenv versions &&
	stdout_empty &&
	check "remove touched libcudnn" [ -f "$w/lib/libcudnn.so.9" ] &&
	check "remove touched nvcc" [ -x "$w/bin/nvcc" ]
