#!/bin/sh
# With CUENV_ROOT unset the store is ~/.cuenv, a folder named like the
# project file: the walk up from a folder under $HOME must not take it
# for a .cuenv (the global default applies there).
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
unset CUENV_ROOT
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	check "the default store is not ~/.cuenv" [ -f "$HOME/.cuenv/versions/cuda/12.4.1/.cuenv-receipt" ] &&
	expect_code 0 cuenv global 12.4 &&
	cd / &&
	expect_stdout "12.4.1 (set by $HOME/.cuenv/version)" cuenv version &&
	mkdir -p "$HOME/src/app" &&
	cd "$HOME/src/app" &&
	expect_stdout "12.4.1 (set by $HOME/.cuenv/version)" cuenv version &&
	cd "$HOME" &&
	expect_stdout "12.4.1 (set by $HOME/.cuenv/version)" cuenv version &&
	expect_stdout "$t/cuda-12.4/bin/nvcc" cuenv which nvcc
