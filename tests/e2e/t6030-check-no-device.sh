#!/bin/sh
# A driver but no device (a container started without its GPUs): the
# runtime layer fails with exit 11, quoting cudaGetDeviceCount, and says
# how to pass GPUs in; a device number past the last one fails the same
# way, naming the ones there are.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 11 env FAKE_CUDA_DEVICES=0 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: runtime: no CUDA device: cudaGetDeviceCount says cudaErrorNoDevice (100)" &&
	stderr_has "hint: check that nvidia-smi lists a GPU; in a container, start it with the GPUs passed in (docker run --gpus all)" &&
	check "driver passes" grep -q "^driver   pass  550\.54\.15 " "$E2E_OUT" &&
	check "runtime fails" grep -q "^runtime  FAIL  12\.4 " "$E2E_OUT" &&
	check "kernel skipped" grep -q "^kernel   skip " "$E2E_OUT" &&
	check "cupti skipped" grep -q "^cupti    skip " "$E2E_OUT" &&
	expect_code 11 env FAKE_CUDA_DEVICES=0 CUDA_VISIBLE_DEVICES=7 cuenv check &&
	stderr_has "cudaErrorNoDevice (100) (CUDA_VISIBLE_DEVICES is '7')" &&
	stderr_has "and CUDA_VISIBLE_DEVICES" &&
	expect_code 11 env FAKE_CUDA_DEVICES=2 cuenv check --device 3 &&
	stderr_has "runtime: there is no device 3: 2 devices are visible" &&
	stderr_has "hint: cuenv check --device N, with N from 0 to 1" &&
	expect_code 0 env FAKE_CUDA_DEVICES=2 FAKE_CUDA_CC=9.0 cuenv check --device 1 &&
	stdout_has "cuda 12.4.1, device 1" &&
	stdout_has "device 1: cuenv fake GPU, compute capability 9.0 (2 devices)"
