#!/bin/sh
# cuenv check on a working fake GPU (lib-check.sh): CUDA 12.4.1 with
# cuDNN 9.1.0 for CUDA 12 and a driver new enough. Every layer passes and
# says its version, time and the file the loader picked, which is the
# selection's own; the exit status is 0.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

v=$CUENV_ROOT/versions
check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	check_cudnn 9.1.0 12 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv check &&
	cat "$E2E_OUT" &&
	stderr_empty &&
	stdout_has "cuda 12.4.1 + cudnn 9.1.0, device 0 (set by $HOME/proj/.cuenv)" &&
	check "driver line" grep -q "^driver   pass  550\.54\.15 .* ms  $HOME/driver/libcuda\.so\.1\$" "$E2E_OUT" &&
	stdout_has "driver 550.54.15 supports CUDA 12.4; CUDA 12.4.1 needs 550.54.15 or newer" &&
	check "runtime line" grep -q "^runtime  pass  12\.4 .* ms  $v/cuda/12\.4\.1/lib64/libcudart\.so\.12\$" "$E2E_OUT" &&
	stdout_has "device 0: cuenv fake GPU, compute capability 8.0 (1 device)" &&
	check "kernel line" grep -q "^kernel   pass  PTX 6\.0 " "$E2E_OUT" &&
	stdout_has "vector add of 4096 floats" &&
	stdout_has "result checked on the host" &&
	check "cudnn line" grep -q "^cudnn    pass  9\.1\.0 .* ms  $v/cudnn/9\.1\.0-cuda12/lib/libcudnn\.so\.9\$" "$E2E_OUT" &&
	stdout_has "cuDNN 9.1.0 (built for CUDA 12.2): a 1x1x5x5 by 1x1x3x3 convolution matches the CPU reference" &&
	check "cupti line" grep -q "^cupti    pass  22 .* ms  $v/cuda/12\.4\.1/lib64/libcupti\.so\.12\$" "$E2E_OUT" &&
	stdout_has "CUPTI API 22 traced cuenv_vadd" &&
	stdout_has "ok: 5 of 5 layers passed" &&
	stdout_lacks "FAIL" &&
	stdout_lacks "not the selection's" &&
	# without cuDNN: the cudnn layer is not asked for, and that is fine
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv check &&
	check "cudnn skipped" grep -q "^cudnn    skip  - " "$E2E_OUT" &&
	stdout_has "no cuDNN selected" &&
	stdout_has "ok: 4 of 5 layers passed, the others were not asked for"
