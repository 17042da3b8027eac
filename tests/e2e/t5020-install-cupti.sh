#!/bin/sh
# cuenv install 12.4 --cupti 11.2: CUDA 12.4 plus the CUPTI of CUDA 11.2 (from
# its runfile) as a version of its own kind, which `cuenv versions` lists as
# cupti and a .cuenv selects with `cupti = 11.2`: its exact soname then
# resolves, beside 12.4's own CUPTI, and loads.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

c124=$CUENV_ROOT/versions/cuda/12.4.1
p112=$CUENV_ROOT/versions/cupti/11.2.2
use_mirror &&
	_dltool &&
	expect_code 0 cuenv install 12.4 --cupti 11.2 &&
	stdout_has "installed cuda 12.4.1 in $c124 (" &&
	stdout_has "installed cupti 11.2.2 in $p112 (" &&
	check "no receipt in $p112" [ -f "$p112/.cuenv-receipt" ] &&
	check "the cupti version holds more than CUPTI" \
		[ -z "$(find "$p112" -name 'libcudart*' -o -name nvcc -o -name 'libcublas*')" ] &&
	staging_empty &&
	expect_stdout "  cuda   12.4.1                $c124
  cupti  11.2.2                $p112" cuenv versions &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncupti = 11.2\n' >.cuenv &&
	expect_stdout "$p112/extras/CUPTI/lib64/libcupti.so.11.2" \
		cuenv which libcupti.so.11.2 &&
	expect_stdout "$c124/lib/libcupti.so.12" cuenv which libcupti.so.12 &&
	expect_stdout "$c124/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_stdout "* cuda   12.4.1                $c124
* cupti  11.2.2                $p112" cuenv versions &&
	expect_stdout "cuenv-fixture libcupti 11.2.152 (CUDA 11.2.2)" \
		cuenv exec -- "$E2E_CACHE/dltool" libcupti.so.11.2 -id &&
	expect_stdout "cuenv-fixture libcupti 12.4.127 (CUDA 12.4.1)" \
		cuenv exec -- "$E2E_CACHE/dltool" libcupti.so.12 -id &&
	# Without the cupti line the 11.2 soname is not provided.
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 1 cuenv which libcupti.so.11.2
