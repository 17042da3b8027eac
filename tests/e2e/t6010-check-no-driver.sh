#!/bin/sh
# No NVIDIA driver (no libcuda.so.1 anywhere the loader looks): the driver
# layer fails with exit 10, says so and names the driver to install; the
# GPU layers are skipped, never passed, but libcudart, cuDNN and CUPTI are
# still loaded and their versions and files reported.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

if { /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } |
	grep -q 'libcuda\.so\.1 '; then
	skip "this machine has a real libcuda.so.1 in the loader cache"
fi
v=$CUENV_ROOT/versions
check_cuda 12.4.1 &&
	check_cudnn 9.1.0 12 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 10 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: driver: no NVIDIA driver: libcuda.so.1 cannot be loaded (libcuda.so.1: cannot open shared object file" &&
	stderr_has "hint: install an NVIDIA driver >= 550.54.15 (the minimum for CUDA 12.4.1)" &&
	check "driver line" grep -q "^driver   FAIL  - .* ms  libcuda\.so\.1\$" "$E2E_OUT" &&
	check "runtime line" grep -q "^runtime  skip  12\.4 .* ms  $v/cuda/12\.4\.1/lib64/libcudart\.so\.12\$" "$E2E_OUT" &&
	stdout_has "CUDA runtime 12.4 loaded; its device checks need the driver layer, which failed" &&
	check "kernel line" grep -q "^kernel   skip  " "$E2E_OUT" &&
	check "cudnn line" grep -q "^cudnn    skip  9\.1\.0 .* ms  $v/cudnn/9\.1\.0-cuda12/lib/libcudnn\.so\.9\$" "$E2E_OUT" &&
	check "cupti line" grep -q "^cupti    skip  22 .* ms  $v/cuda/12\.4\.1/lib64/libcupti\.so\.12\$" "$E2E_OUT" &&
	stdout_lacks " pass " &&
	stdout_has "failed: the driver layer (exit 10)" &&
	# the kernel module without its library
	CUENV_DRIVER_VERSION=550.54.15 &&
	export CUENV_DRIVER_VERSION &&
	expect_code 10 cuenv check &&
	stderr_has "the NVIDIA kernel module 550.54.15 is loaded, but its user-space library libcuda.so.1 cannot be" &&
	stderr_has "hint: install the user-space libraries of driver 550.54.15" &&
	# NVIDIA's stub, found first, is named as such
	mkdir -p "$HOME/stubs" &&
	fake_cuda_lib libcuda libcuda.so.1 "$HOME/stubs/libcuda.so.1" &&
	expect_code 10 env LD_LIBRARY_PATH="$HOME/stubs" FAKE_CUDA_INIT_ERROR=34 cuenv check &&
	stderr_has "the loader picked NVIDIA's stub libcuda.so.1 ($HOME/stubs/libcuda.so.1)" &&
	stderr_has "hint: take $HOME/stubs off LD_LIBRARY_PATH"
