#!/bin/sh
# ONLINE (lib-venv.sh): a real venv's NVIDIA wheels registered with
# `cuenv add cuda VENV/lib/python3.X/site-packages/nvidia` (issue 21
# item 7). They name the release 12.1 (the runtime's headers), and stay
# selectable as `12.1` beside an installed 12.1.1, which `12.1.1` and `12`
# still select; add says that they bring no nvcc. Once the venv is
# deleted, `versions` shows them missing and activation refuses them
# with the command that forgets them, which works.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-venv.sh"

v=$HOME/venv
make_wheel_venv "$v" &&
	make_installed_cuda 12.1.1 &&
	expect_code 0 cuenv add cuda "$NV" &&
	stdout_has "registered cuda 12.1 from $NV" &&
	stderr_has "cuenv: warning: cuda 12.1 from $NV has no bin/nvcc" &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.1\n' >.cuenv &&
	expect_stdout "$NV/cuda_runtime/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	printf 'cuda = 12.1.1\n' >.cuenv &&
	expect_stdout "$CUENV_ROOT/versions/cuda/12.1.1/lib64/libcudart.so.12" \
		cuenv which libcudart.so.12 &&
	printf 'cuda = 12\n' >.cuenv &&
	expect_stdout "$CUENV_ROOT/versions/cuda/12.1.1/bin/nvcc" cuenv which nvcc &&
	printf 'cuda = 12.1\n' >.cuenv &&
	rm -rf "$v" &&
	expect_code 0 cuenv versions &&
	stdout_has "12.1                  $NV  (registered)  (missing)" &&
	expect_code 9 cuenv exec true &&
	stderr_has "cuenv: error: cuda 12.1 was registered from '$NV', which is gone" &&
	stderr_has "hint: forget it: cuenv remove cuda 12.1" &&
	# doctor's fix is the same command, not an install
	expect_code 15 cuenv doctor &&
	check "doctor does not say the registration is gone" sh -c \
		"tr '\n' ' ' <'$E2E_OUT' | tr -s ' ' | grep -qF '[selection-not-installed] cuda 12.1 was registered from $NV, which is gone'" &&
	stdout_has "fix: forget it: cuenv remove cuda 12.1" &&
	stdout_lacks "cuenv install" &&
	expect_code 0 cuenv remove cuda 12.1 &&
	expect_stdout "12.1.1" cuenv versions --bare
