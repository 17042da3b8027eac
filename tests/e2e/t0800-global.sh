#!/bin/sh
# cuenv global writes $CUENV_ROOT/version, used where no `use` and no
# .cuenv decide.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	expect_output 1 "none (no $CUENV_ROOT/version)" cuenv global &&
	expect_code 0 cuenv global 12 &&
	stderr_has "cuenv: wrote $CUENV_ROOT/version" &&
	file_is "$CUENV_ROOT/version" "cuda = 12" &&
	expect_stdout "12 ($CUENV_ROOT/version)" cuenv global &&
	mkdir -p a/b proj && cd a/b &&
	expect_stdout "12.4.1 (set by $CUENV_ROOT/version)" cuenv version &&
	expect_stdout "$t/cuda-12.4/bin/nvcc" cuenv which nvcc &&
	cd "$HOME/proj" && printf 'cuda = 11.8\n' >.cuenv &&
	expect_stdout "11.8.0 (set by $HOME/proj/.cuenv)" cuenv version &&
	# global does not write a .cuenv in the working directory
	expect_code 0 cuenv global 11 &&
	file_is .cuenv "cuda = 11.8" &&
	file_is "$CUENV_ROOT/version" "cuda = 11" &&
	expect_code 9 cuenv global 13 &&
	file_is "$CUENV_ROOT/version" "cuda = 11" &&
	expect_code 0 cuenv global 13.1 --force &&
	cd "$HOME" &&
	expect_code 9 cuenv version &&
	stderr_has "cuda 13.1 is not installed (set by $CUENV_ROOT/version)" &&
	expect_code 2 cuenv global '../x' &&
	expect_code 0 cuenv global --unset &&
	check "global --unset left the file" [ ! -e "$CUENV_ROOT/version" ] &&
	expect_output 1 "none selected" cuenv version
