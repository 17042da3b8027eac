#!/bin/sh
# On aarch64 cuenv reads the catalogue's server rows (linux-sbsa) unless
# the machine is a Jetson (issue 25; core/plat/plat_sys.h): L4T's
# /etc/nv_tegra_release or a Tegra in /proc/device-tree/compatible make
# it linux-aarch64, except L4T R38 and Thor, which take the server CUDA.
# Run by the aarch64 cuenv under qemu (tests/aarch64/run.sh): qemu looks
# every file up under QEMU_LD_PREFIX first, so a folder holding those
# files makes the emulated machine a Jetson. `cuenv lock` writes the
# platform it resolved for, and each archive's URL, from the shipped
# catalogue (no download).
e2e=$(cd "$(dirname "$0")/../e2e" && pwd) || exit 1
. "$e2e/lib.sh"

# locked_for ROOT PLATFORM: `cuenv lock` of CUDA 12.6, on a machine whose
# files are ROOT's (none: the host's), is for PLATFORM, its runtime's
# archive too.
locked_for() {
	rm -f .cuenv.lock &&
		if [ -n "$1" ]; then
			QEMU_LD_PREFIX=$1 expect_code 0 cuenv lock
		else
			expect_code 0 cuenv lock
		fi &&
		stdout_has "wrote $HOME/.cuenv.lock" &&
		check "the lock is not for $2" \
			grep -q "^  \"platform\": \"$2\",\$" .cuenv.lock &&
		check "the runtime is not $2's" \
			grep -q "/cuda_cudart/$2/cuda_cudart-$2-12.6.77-archive.tar.xz\"" .cuenv.lock
}

printf 'cuda = 12.6\n' >.cuenv &&
	mkdir -p l4t/etc orin/proc/device-tree jp7/etc thor/proc/device-tree &&
	printf '# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64\n' \
		>l4t/etc/nv_tegra_release &&
	printf 'nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0' \
		>orin/proc/device-tree/compatible &&
	printf '# R38 (release), REVISION: 2.0, BOARD: generic\n' >jp7/etc/nv_tegra_release &&
	printf 'nvidia,p3971-0080+p3834-0008\0nvidia,tegra264\0' \
		>thor/proc/device-tree/compatible &&
	locked_for "" linux-sbsa &&
	locked_for "$HOME/l4t" linux-aarch64 &&
	locked_for "$HOME/orin" linux-aarch64 &&
	locked_for "$HOME/jp7" linux-sbsa &&
	locked_for "$HOME/thor" linux-sbsa &&
	# The Jetson reads the whole catalogue: releases without Jetson
	# archives (CUDA 13) are not offered there, not an error.
	QEMU_LD_PREFIX=$HOME/l4t expect_code 0 cuenv list-remote &&
	stdout_has "cuda   12.6.3" &&
	stdout_lacks "cuda   13." &&
	expect_code 0 cuenv list-remote &&
	stdout_has "cuda   13."
