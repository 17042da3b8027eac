#!/bin/sh
# cuenv version: the active selection and what set it, in priority order:
# CUENV_VERSION (cuenv use), the nearest .cuenv, the global default.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cudnn "$t/cudnn_cuda12-archive" 9.1.0 12 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	cuenv add cudnn "$t/cudnn_cuda12-archive" >/dev/null &&
	mkdir -p "$HOME/outer/inner/deep" &&
	expect_output 1 "none selected" cuenv version &&
	printf 'cuda = 11.8\n' >"$CUENV_ROOT/version" &&
	expect_stdout "11.8.0 (set by $CUENV_ROOT/version)" cuenv version &&
	cd "$HOME/outer" &&
	printf '# the outer project\ncuda = 12.4\ncudnn = 9.1\n' >.cuenv &&
	expect_stdout "12.4.1 + cudnn 9.1.0 (set by $HOME/outer/.cuenv)" cuenv version &&
	cd inner/deep &&
	expect_stdout "12.4.1 + cudnn 9.1.0 (set by $HOME/outer/.cuenv)" cuenv version &&
	# pyenv's bare version line; the nearest file wins, whole.
	printf '11.8\n' >../.cuenv &&
	expect_stdout "11.8.0 (set by $HOME/outer/inner/.cuenv)" cuenv version &&
	expect_stdout "12.4.1 (set by CUENV_VERSION, which cuenv use sets)" \
		env CUENV_VERSION=12 cuenv version &&
	expect_stdout "12.4.1 + cudnn 9.1.0 (set by CUENV_VERSION, which cuenv use sets)" \
		env CUENV_VERSION=12.4.1 CUENV_CUDNN_VERSION=9 cuenv version &&
	# `system`: cuenv stays out of the way.
	printf 'cuda = system\n' >../.cuenv &&
	expect_output 1 "system (set by $HOME/outer/inner/.cuenv)" cuenv version &&
	# A file with only comments does not decide: the next one up does.
	printf '# nothing yet\n\n' >../.cuenv &&
	expect_stdout "12.4.1 + cudnn 9.1.0 (set by $HOME/outer/.cuenv)" cuenv version &&
	# A symlinked working directory: $PWD (logical) decides.
	ln -s "$HOME/outer/inner" "$HOME/link" &&
	cd "$HOME/link" &&
	expect_stdout "11.8.0 (set by $CUENV_ROOT/version)" env PWD="$HOME/link" cuenv version
