#!/bin/sh
# A driver too old for the toolkit: 470 under CUDA 12.4.1 fails the
# driver layer (exit 10), naming the minimum (550.54.15, from
# manifests/compat/cuda-driver.tsv), the minor-version-compatibility
# floor (525) and NVIDIA's forward-compatibility package cuda-compat-12-4.
# A 535 driver is older than 12.4.1 wants but above 525: it passes, with a
# warning, under minor version compatibility.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 470.82.01 11040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 10 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: driver: driver 470.82.01 is too old for CUDA 12.4.1: it needs 550.54.15 or newer (525 or newer under minor version compatibility); this one supports CUDA 11.4" &&
	stderr_has "hint: install an NVIDIA driver >= 550.54.15; or, on a data-center GPU, NVIDIA's forward-compatibility package cuda-compat-12-4" &&
	check "driver line" grep -q "^driver   FAIL  470\.82\.01 " "$E2E_OUT" &&
	stdout_has "fix: install an NVIDIA driver >= 550.54.15" &&
	check "runtime skipped" grep -q "^runtime  skip  12\.4 " "$E2E_OUT" &&
	stdout_lacks " pass " &&
	# the module version from /sys or /proc is what counts: libcuda
	# alone (12.4) over a 470 module is forward compatibility
	FAKE_CUDA_DRIVER_VERSION=12040 &&
	expect_code 0 cuenv check &&
	stdout_has "libcuda.so.1 supports CUDA 12.4 over kernel module 470.82.01" &&
	stdout_has "forward compatibility (cuda-compat)" &&
	# minor version compatibility: a pass with a warning
	CUENV_DRIVER_VERSION=535.104.05 FAKE_CUDA_DRIVER_VERSION=12020 &&
	expect_code 0 cuenv check &&
	cat "$E2E_OUT" &&
	check "driver passes" grep -q "^driver   pass  535\.104\.05 " "$E2E_OUT" &&
	stdout_has "it runs under minor version compatibility (>= 525)" &&
	stdout_has "warning: driver 535.104.05 is older than 550.54.15, the minimum for CUDA 12.4.1" &&
	stdout_has "fix: install an NVIDIA driver >= 550.54.15 for the whole feature set" &&
	stdout_has "ok: 4 of 5 layers passed" &&
	# below 525 the same major is not enough
	CUENV_DRIVER_VERSION=520.61.05 FAKE_CUDA_DRIVER_VERSION=12000 &&
	expect_code 10 cuenv check &&
	stderr_has "driver 520.61.05 is too old for CUDA 12.4.1"
