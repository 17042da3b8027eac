#!/bin/sh
# cuenv use under an integration prints code for that shell: evaluated,
# it selects the version in this shell, over .cuenv; --unset undoes it.
# A use of a version not installed names no origin (it said "set by
# CUENV_VERSION, which cuenv use sets", though use set nothing), and
# --unset in a shell use never set says there is nothing to drop (it said
# the shell's selection was dropped).
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need bash &&
	make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\n' >.cuenv &&
	cat >"$HOME/use.sh" <<'SH' &&
eval "$(cuenv use 11)" || exit 1
echo "$CUENV_VERSION|$CUDA_HOME|$PATH"
cuenv version
eval "$(cuenv use --unset)" || exit 1
echo "${CUENV_VERSION-unset}|${CUDA_HOME-unset}|$PATH"
cuenv version
SH
	expect_stdout "11|$t/cuda-11.8|$t/cuda-11.8/bin:$PATH
11.8.0 (set by CUENV_VERSION, which cuenv use sets)
unset|$t/cuda-12.4|$t/cuda-12.4/bin:$PATH
12.4.1 (set by $HOME/proj/.cuenv)" env CUENV_SHELL=bash bash "$HOME/use.sh" &&
	stderr_has "cuenv: using cuda 11.8.0 in this shell" &&
	# Errors print no code at all: the shell is left as it was.
	expect_code 9 env CUENV_SHELL=bash cuenv use 10.2 &&
	stdout_empty &&
	stderr_has "cuda 10.2 is not installed; installed: 11.8.0, 12.4.1" &&
	# use set nothing: no "(set by CUENV_VERSION, which cuenv use sets)"
	stderr_lacks "set by" &&
	# --unset where use had set nothing drops nothing, and says so
	expect_code 0 env CUENV_SHELL=bash cuenv use --unset &&
	stderr_has "cuenv: this shell has no selection of its own to drop; using cuda 12.4.1 (set by $HOME/proj/.cuenv)" &&
	stderr_lacks "dropped" &&
	expect_code 0 env CUENV_SHELL=bash CUENV_VERSION=11 cuenv use --unset &&
	stderr_has "cuenv: this shell's selection dropped: cuda 12.4.1 (set by $HOME/proj/.cuenv)" &&
	expect_code 2 env CUENV_SHELL=bash cuenv use '$(touch pwned)' &&
	stdout_empty &&
	stderr_has "invalid cuda version" &&
	expect_code 2 env CUENV_SHELL=bash cuenv use 12.4 --cudnn 'x;y' &&
	stdout_empty &&
	expect_code 2 env CUENV_SHELL=bash cuenv use &&
	expect_code 2 env CUENV_SHELL=bash cuenv use 12 11 &&
	expect_code 2 env CUENV_SHELL=bash cuenv use --unset 12 &&
	# fish gets fish code
	expect_code 0 env CUENV_SHELL=fish cuenv use 11.8 &&
	stdout_has "set -gx CUENV_VERSION '11.8';" &&
	stdout_has "set -gx PATH '$t/cuda-11.8/bin' " &&
	nothing_named pwned
