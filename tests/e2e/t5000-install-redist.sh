#!/bin/sh
# cuenv install 12.4.1 from NVIDIA's redist archives (a local mirror): the
# version appears with its receipt, `cuenv versions` lists it, `cuenv which`
# finds its runtime inside the store, the libraries are real ELF objects that
# load, nvcc runs, and nothing is left in .staging.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	stderr_has "cuenv: installing cuda 12.4.1 (redist)" &&
	check "no receipt in $v" [ -f "$v/.cuenv-receipt" ] &&
	check "the receipt does not name 12.4.1" \
		grep -q '"version": "12.4.1"' "$v/.cuenv-receipt" &&
	expect_stdout "  cuda   12.4.1                $v" cuenv versions &&
	staging_empty &&
	# Every archive came from the mirror, once.
	check "not every archive was fetched once" [ "$(grep -c ' 200$' "$SERVER_LOG")" -eq 6 ] &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "$v/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_stdout "$v/lib/libcupti.so.12" cuenv which libcupti.so.12 &&
	expect_stdout "$v/lib/libcublasLt.so.12" cuenv which libcublasLt.so.12 &&
	expect_stdout "$v/bin/nvcc" cuenv which nvcc &&
	# Real shared objects, with NVIDIA's sonames, that load.
	real=$(realpath "$v/lib/libcudart.so.12") &&
	assert_eq "$real" "$v/lib/libcudart.so.12.4.127" "libcudart.so.12 resolves to" &&
	expect_code 0 file -L "$v/lib/libcudart.so.12" &&
	stdout_has "ELF 64-bit LSB shared object" &&
	expect_code 0 readelf -d "$v/lib/libcudart.so.12" &&
	stdout_has "Library soname: [libcudart.so.12]" &&
	expect_code 0 readelf -d "$v/lib/libcupti.so.2024.1.1" &&
	stdout_has "Library soname: [libcupti.so.12]" &&
	expect_stdout "cuenv-fixture libcudart 12.4.127 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcudart.so.12)" &&
	expect_stdout "0 12040" dlver "$(cuenv which libcudart.so.12)" cudaRuntimeGetVersion &&
	expect_code 0 cuenv exec -- nvcc --version &&
	stdout_has "Cuda compilation tools, release 12.4, V12.4.131" &&
	# Installing it again does nothing.
	expect_stdout "cuda 12.4.1 is already installed ($v)" cuenv install 12.4.1
