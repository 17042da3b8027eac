#!/bin/sh
# Field failure (d): a driver older than the toolkit needs
# ("CUDA driver version is insufficient for CUDA runtime version"), with
# the driver set by CUENV_DRIVER_VERSION as on a machine without a GPU.
# Below CUDA 12.x's minimum: a problem naming the driver needed and NVIDIA's
# forward-compatibility package. Between that and 12.4.1's own minimum:
# a warning (minor-version compatibility). None at all: information.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 env CUENV_DRIVER_VERSION=470.57.02 cuenv doctor &&
	said "[driver-too-old] driver 470.57.02 is older than cuda 12.4.1 needs: 550.54.15" &&
	said "(or 525 for any CUDA 12.x under minor-version compatibility)" &&
	said "CUDA driver version is insufficient for CUDA runtime version" &&
	said "fix: upgrade the NVIDIA driver to 550.54.15 or newer" &&
	said "forward-compatibility package (cuda-compat-12-4)" &&
	said "/usr/local/cuda-12.4/compat" &&
	expect_code 0 env CUENV_DRIVER_VERSION=535.104.05 cuenv doctor &&
	said "[driver-minor-compat] driver 535.104.05 is older than the 550.54.15" &&
	said "0 problems, 1 warning" &&
	expect_code 0 env CUENV_DRIVER_VERSION=550.54.15 cuenv doctor &&
	stdout_lacks "driver" &&
	expect_code 0 env CUENV_DRIVER_VERSION= cuenv doctor &&
	said "[no-driver] no NVIDIA driver found (CUENV_DRIVER_VERSION)" &&
	said "cuda 12.4.1 needs driver 550.54.15 or newer" &&
	expect_code 2 env CUENV_DRIVER_VERSION=latest cuenv doctor &&
	stderr_has "cuenv: error: CUENV_DRIVER_VERSION: 'latest' is not a driver version" &&
	# A .cuenv naming a version not installed is still checked for it.
	printf 'cuda = 13.0\n' >.cuenv &&
	expect_code 15 env CUENV_DRIVER_VERSION=570.86.15 cuenv doctor &&
	said "[driver-too-old] driver 570.86.15 is older than cuda 13.0 needs: 580.95.05"
