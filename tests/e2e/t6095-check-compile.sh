#!/bin/sh
# cuenv check --compile: the selection's own nvcc (here the fake one of
# lib-check.sh) builds a small .cu in the activated environment, and the
# program it makes runs and prints the right result; each way this can go
# wrong fails the kernel layer (exit 12) with nvcc's or the program's own
# words.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"
need jq

v=$CUENV_ROOT/versions
check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv check --compile &&
	cat "$E2E_OUT" &&
	stdout_has "and a program built by $v/cuda/12.4.1/bin/nvcc ran right" &&
	expect_code 0 cuenv check --compile --json &&
	assert_eq "$(jq -r '.layers[2].details.nvcc' "$E2E_OUT")" "$v/cuda/12.4.1/bin/nvcc" "nvcc" &&
	assert_eq "$(jq -r '.layers[2].details.compile' "$E2E_OUT")" ok "compile" &&
	assert_eq "$(jq -r '.layers[2].details.compiled_run' "$E2E_OUT")" ok "compiled_run" &&
	check "temporary files removed" [ -z "$(ls "$TMPDIR")" ] &&
	expect_code 12 env FAKE_NVCC_ERROR="identifier \"cudaMalloc\" is undefined" cuenv check --compile &&
	cat "$E2E_ERR" &&
	stderr_has "cuenv: error: kernel: $v/cuda/12.4.1/bin/nvcc could not build a small CUDA program (it exited with an error): " &&
	stderr_has "check.cu(4): error: identifier \"cudaMalloc\" is undefined" &&
	stderr_has "hint: nvcc needs a host compiler it supports" &&
	expect_code 12 env FAKE_NVCC_PRINTS=garbage cuenv check --compile &&
	stderr_has "kernel: the program nvcc built did not run right (status 0): garbage: 1000 elements" &&
	check "temporary files removed" [ -z "$(ls "$TMPDIR")" ] &&
	rm "$v/cuda/12.4.1/bin/nvcc" &&
	expect_code 12 cuenv check --compile &&
	stderr_has "kernel: --compile: the selection (cuda 12.4.1) has no nvcc" &&
	stderr_has "hint: install the whole toolkit, not --runtime-only: cuenv uninstall --force cuda 12.4.1 && cuenv install 12.4.1" &&
	# without --compile nvcc is not needed
	expect_code 0 cuenv check
