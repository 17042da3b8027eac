#!/bin/sh
# The field failure "Could not load dynamic library 'libcupti.so.11.2'": a
# CUDA 11.2 selection whose lib64 lacks libcupti.so.11.2. The cupti layer
# fails with exit 14, quoting the loader and naming the install and the
# selection that fix it; the other layers pass.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 460.32.03 11020 &&
	check_cuda 11.2.2 nocupti &&
	mkdir proj && cd proj &&
	printf 'cuda = 11.2\n' >.cuenv &&
	expect_code 14 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: cupti: could not load dynamic library 'libcupti.so.11.2': the selection (cuda 11.2.2) does not provide it (libcupti.so.11.2: cannot open shared object file: No such file or directory)" &&
	stderr_has "hint: cuenv install 11.2 --cupti 11.2, then select it: cuenv local 11.2 --cupti 11.2" &&
	check "runtime 11.0 soname" grep -q "^runtime  pass  11\.2 .* ms  $CUENV_ROOT/versions/cuda/11\.2\.2/lib64/libcudart\.so\.11\.0\$" "$E2E_OUT" &&
	check "kernel passes" grep -q "^kernel   pass " "$E2E_OUT" &&
	check "cupti fails" grep -q "^cupti    FAIL  - .* ms  libcupti\.so\.11\.2\$" "$E2E_OUT" &&
	# with the file back, the same selection passes
	check_cuda 11.2.2 &&
	expect_code 0 cuenv check &&
	check "cupti passes" grep -q "^cupti    pass  15 .* ms  $CUENV_ROOT/versions/cuda/11\.2\.2/lib64/libcupti\.so\.11\.2\$" "$E2E_OUT"
