#!/bin/sh
# A kernel that runs but computes a wrong result (the fake driver adds 1
# to one element): the kernel layer fails with exit 12, naming the
# element, and CUPTI's trace of it is not counted as a pass. A launch
# that fails is exit 12 too.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 12 env FAKE_KERNEL_WRONG=1 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: kernel: the kernel ran but its result is wrong: c[7] = 2052.5, expected 2051.5 (1 of 4096 elements wrong)" &&
	stderr_has "hint: the GPU computes wrong results: look for Xid errors in dmesg and ECC errors in nvidia-smi -q" &&
	check "kernel fails" grep -q "^kernel   FAIL  PTX 6\.0 " "$E2E_OUT" &&
	check "cupti skipped" grep -q "^cupti    skip  22 " "$E2E_OUT" &&
	stdout_has "not counted as a pass: the kernel layer failed" &&
	expect_code 12 env FAKE_CUDA_LAUNCH_ERROR=719 cuenv check &&
	stderr_has "kernel: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (719)"
