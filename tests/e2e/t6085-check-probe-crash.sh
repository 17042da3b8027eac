#!/bin/sh
# A library that crashes the probe (the fake cuDNN aborts in its
# convolution): check still reports, blaming the layer the probe was in
# (exit 13), with the signal, and says nothing it does not know about the
# other layers. One that hangs is killed after --timeout seconds and
# blamed the same way.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"
need jq

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	check_cudnn 9.1.0 12 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 13 env FAKE_CUDNN_CRASH=1 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	stderr_has "cuenv: error: cudnn: cuenv-probe was killed by signal 6" &&
	stderr_has "in its cudnn step: the library that layer loads crashed or hung" &&
	stderr_has "hint: install cuDNN again: cuenv install 12.4.1 --cudnn 9.1.0" &&
	stdout_has "cuda 12.4.1 + cudnn 9.1.0, device 0" &&
	check "cudnn fails" grep -q "^cudnn    FAIL  - .* ms  libcudnn\.so\.9\$" "$E2E_OUT" &&
	check "driver unknown" grep -q "^driver   skip " "$E2E_OUT" &&
	stdout_has "not known: cuenv-probe was killed by signal 6" &&
	expect_code 13 env FAKE_CUDNN_CRASH=1 cuenv check --json &&
	assert_eq "$(jq -r '.failed' "$E2E_OUT")" cudnn "failed" &&
	expect_code 13 env FAKE_CUDNN_HANG=1 cuenv check --timeout 2 &&
	stderr_has "cuenv: error: cudnn: cuenv-probe did not finish within 2 seconds in its cudnn step"
