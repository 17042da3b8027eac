#!/bin/sh
# cuenv check --json: one JSON document on stdout with the fields the
# README documents, in the same words as the text report, for a pass and
# for a failure (whose exit status is the same as without --json).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"
need jq

j() {
	jq -r "$1" "$E2E_OUT"
}

v=$CUENV_ROOT/versions
check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	check_cudnn 9.1.0 12 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv check --json &&
	stderr_empty &&
	assert_eq "$(wc -l <"$E2E_OUT")" 1 "lines" &&
	assert_eq "$(j '.schema')" 1 "schema" &&
	assert_eq "$(j '.cuda')" 12.4.1 "cuda" &&
	assert_eq "$(j '.cudnn')" 9.1.0 "cudnn" &&
	assert_eq "$(j '.cupti')" null "cupti" &&
	assert_eq "$(j '.device')" 0 "device" &&
	assert_eq "$(j '.exit')" 0 "exit" &&
	assert_eq "$(j '.failed')" null "failed" &&
	assert_eq "$(j '[.layers[].name] | join(" ")')" "driver runtime kernel cudnn cupti" "layer order" &&
	assert_eq "$(j '[.layers[].status] | join(" ")')" "pass pass pass pass pass" "statuses" &&
	assert_eq "$(j '[.layers[].asked] | all')" true "asked" &&
	assert_eq "$(j '[.layers[].ms | type] | unique | join(" ")')" number "ms" &&
	assert_eq "$(j '[.layers[] | keys | join(",")] | unique | join(" ")')" \
		"asked,details,file,fix,foreign,message,ms,name,soname,status,version,warnings" "layer fields" &&
	assert_eq "$(j '.layers[0].version')" 550.54.15 "driver version" &&
	assert_eq "$(j '.layers[0].details.module')" 550.54.15 "module" &&
	assert_eq "$(j '.layers[0].details.module_source')" CUENV_DRIVER_VERSION "module source" &&
	assert_eq "$(j '.layers[0].details.required')" 550.54.15 "required" &&
	assert_eq "$(j '.layers[0].details.compat_min')" 525 "compat_min" &&
	assert_eq "$(j '.layers[0].details.cuda')" 12.4 "driver cuda" &&
	assert_eq "$(j '.layers[0].file')" "$HOME/driver/libcuda.so.1" "driver file" &&
	assert_eq "$(j '.layers[1].soname')" libcudart.so.12 "runtime soname" &&
	assert_eq "$(j '.layers[1].file')" "$v/cuda/12.4.1/lib64/libcudart.so.12" "runtime file" &&
	assert_eq "$(j '.layers[1].details | [.devices, .device, .name, .compute] | join("|")')" "1|0|cuenv fake GPU|8.0" "runtime details" &&
	assert_eq "$(j '.layers[2].details.kernel')" cuenv_vadd "kernel" &&
	assert_eq "$(j '.layers[2].details.elements')" 4096 "elements" &&
	assert_eq "$(j '.layers[3].version')" 9.1.0 "cudnn version" &&
	assert_eq "$(j '.layers[3].details.cuda')" 12.2 "cudnn cuda" &&
	assert_eq "$(j '.layers[3].details.convolution')" "1x1x5x5 * 1x1x3x3 -> 1x1x3x3" "convolution" &&
	assert_eq "$(j '.layers[4].version')" 22 "cupti version" &&
	assert_eq "$(j '.layers[4].details.kernel_records')" 1 "kernel records" &&
	check "kernel_ns" [ "$(j '.layers[4].details.kernel_ns')" -gt 0 ] &&
	assert_eq "$(j '[.layers[].foreign] | any')" false "foreign" &&
	# a failure: same exit status, the layer named, its message and fix
	expect_code 13 env FAKE_CUDNN_CUDART_VERSION=11080 cuenv check --json &&
	assert_eq "$(j '.exit')" 13 "exit" &&
	assert_eq "$(j '.failed')" cudnn "failed" &&
	assert_eq "$(j '.layers[3].status')" fail "cudnn status" &&
	assert_eq "$(j '.layers[3].fix')" "use a cuDNN 9 built for CUDA 12: cuenv install 12.4 --cudnn 9" "fix" &&
	stderr_has "cuenv: error: cudnn: cuDNN 9.1.0 was built for CUDA 11" &&
	# skipped after a failed driver, with what was learnt
	expect_code 10 env CUENV_DRIVER_VERSION=470.82.01 FAKE_CUDA_DRIVER_VERSION=11040 cuenv check --json &&
	assert_eq "$(j '[.layers[].status] | join(" ")')" "fail skip skip skip skip" "statuses" &&
	assert_eq "$(j '.layers[1].version')" 12.4 "runtime version still known"
