#!/bin/sh
# CUPTI's kernel activity records change layout between releases
# (CUpti_ActivityKernel4 in CUDA 10 to CUpti_ActivityKernel10 in 13): the
# fake CUPTI delivers records in the layout of the API version it claims,
# with a record of another kind first, and the trace is read right for
# CUDA 10, 11.x, 12.x and 13. A CUPTI older than CUDA 9 cannot be read.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"
need jq

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv || exit 1
for api in 12 13 15 16 17 18 19 22 27 130001; do
	expect_code 0 env FAKE_CUPTI_VERSION=$api cuenv check --json &&
		assert_eq "$(jq -r '.layers[4].details.api' "$E2E_OUT")" "$api" "api" &&
		assert_eq "$(jq -r '.layers[4].details.records' "$E2E_OUT")" 2 "records of API $api" &&
		assert_eq "$(jq -r '.layers[4].details.kernel_records' "$E2E_OUT")" 1 "kernel records of API $api" &&
		assert_eq "$(jq -r '.layers[4].status' "$E2E_OUT")" pass "status of API $api" ||
		break
done &&
	expect_code 0 env FAKE_CUPTI_VERSION=130001 cuenv check &&
	stdout_has "CUPTI 13.0.1 traced cuenv_vadd" &&
	expect_code 14 env FAKE_CUPTI_VERSION=9 cuenv check &&
	stderr_has "cupti: CUPTI API version 9 is older than CUDA 9: cuenv cannot read its kernel records" &&
	expect_code 14 env FAKE_CUPTI_NO_RECORDS=1 cuenv check &&
	stderr_has "cupti: CUPTI's activity trace did not record the test kernel (1 records, 0 of them kernels)" &&
	expect_code 14 env FAKE_CUPTI_BAD_TIMES=1 cuenv check &&
	stderr_has "cupti: CUPTI recorded the test kernel with impossible timestamps" &&
	# CUDA 11.8's own CUPTI (API 18, CUpti_ActivityKernel8)
	check_driver 520.61.05 11080 &&
	check_cuda 11.8.0 &&
	printf 'cuda = 11.8\n' >.cuenv &&
	expect_code 0 cuenv check &&
	check "cupti 11.8" grep -q "^cupti    pass  18 .* ms  $CUENV_ROOT/versions/cuda/11\.8\.0/lib64/libcupti\.so\.11\.8\$" "$E2E_OUT"
