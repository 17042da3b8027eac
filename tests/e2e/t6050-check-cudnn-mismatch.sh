#!/bin/sh
# cuDNN 8 built for CUDA 11 (cudnnGetCudartVersion 11080) in a CUDA 12
# selection: the cudnn layer fails with exit 13, saying which CUDA it was
# built for and naming the install that fixes it. A convolution that
# disagrees with the CPU reference is exit 13 too.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	check_cudnn 8.9.7 12 11080 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 8\n' >.cuenv &&
	expect_code 13 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: cudnn: cuDNN 8.9.7 was built for CUDA 11 (cudnnGetCudartVersion 11080), but the CUDA runtime is 12.4" &&
	stderr_has "hint: use a cuDNN 8 built for CUDA 12: cuenv install 12.4 --cudnn 8" &&
	check "cudnn line" grep -q "^cudnn    FAIL  8\.9\.7 .* ms  $CUENV_ROOT/versions/cudnn/8\.9\.7-cuda12/lib/libcudnn\.so\.8\$" "$E2E_OUT" &&
	check "kernel passes" grep -q "^kernel   pass " "$E2E_OUT" &&
	# the right build passes; a wrong convolution does not
	check_cudnn 8.9.7 12 12020 &&
	expect_code 0 cuenv check &&
	stdout_has "cuDNN 8.9.7 (built for CUDA 12.2): a 1x1x5x5 by 1x1x3x3 convolution matches the CPU reference" &&
	expect_code 13 env FAKE_CUDNN_WRONG=1 cuenv check &&
	stderr_has "cudnn: cuDNN 8.9.7's convolution is wrong: y[4] = -12, the CPU reference says -13"
