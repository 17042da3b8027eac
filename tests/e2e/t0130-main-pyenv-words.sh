#!/bin/sh
# pyenv's vocabulary where it fits: cuenv root, prefix [SPEC], latest SPEC
# (--known: the catalogue's), versions --bare, init - (the shell from the
# parent process, else $SHELL).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4.1" 12.4.1 &&
	make_fake_cuda "$t/cuda-12.2.0" 12.2.0 &&
	make_fake_cuda "$t/cuda-11.8.0" 11.8.0 &&
	make_fake_cudnn "$t/cudnn" 9.1.0 12 &&
	for v in 12.4.1 12.2.0 11.8.0; do
		cuenv add cuda "$t/cuda-$v" >/dev/null || exit 1
	done &&
	cuenv add cudnn "$t/cudnn" >/dev/null || exit 1

# root
expect_stdout "$CUENV_ROOT" cuenv root &&
	expect_stdout "$HOME/.cuenv" env -u CUENV_ROOT cuenv root &&
	expect_code 2 cuenv root extra &&
	# prefix: the selection's, or the installed one SPEC names
	expect_code 1 cuenv prefix &&
	stderr_has "nothing selected here" &&
	expect_stdout "$t/cuda-12.4.1" cuenv prefix 12 &&
	expect_stdout "$t/cuda-12.2.0" cuenv prefix 12.2 &&
	expect_stdout "$t/cuda-11.8.0" env CUENV_VERSION=11 cuenv prefix &&
	expect_code 9 cuenv prefix 10 &&
	expect_code 2 cuenv prefix ../x &&
	expect_code 2 cuenv prefix system &&
	# latest
	expect_stdout "12.4.1" cuenv latest 12 &&
	expect_stdout "12.2.0" cuenv latest 12.2 &&
	expect_stdout "9.1.0" cuenv latest cudnn 9 &&
	expect_code 1 cuenv latest 13 &&
	stderr_has "no cuda 13 installed" &&
	expect_code 2 cuenv latest &&
	expect_code 2 cuenv latest cupti 12 &&
	fixtures &&
	expect_stdout "12.4.1" env CUENV_MANIFESTS="$FX/manifests" cuenv latest --known 12 &&
	expect_stdout "11.2.2" env CUENV_MANIFESTS="$FX/manifests" cuenv latest --known 11.2 &&
	expect_stdout "9.1.0.70" env CUENV_MANIFESTS="$FX/manifests" cuenv latest --known cudnn 9 &&
	# versions --bare: names only, as use takes them
	expect_stdout "11.8.0
12.2.0
12.4.1" sh -c 'cuenv versions --bare | sort' &&
	expect_code 2 cuenv versions --bare --json || exit 1

# init -: the parent's shell, else $SHELL's
need bash
expect_code 0 bash --norc --noprofile -c 'eval "$(cuenv init -)" && type cuenv' &&
	stdout_has "cuenv is a function" &&
	expect_code 0 env SHELL=/usr/bin/fish sh -c 'cuenv init -' &&
	stdout_has "function cuenv" &&
	expect_code 2 env SHELL=/bin/tcsh sh -c 'cuenv init -' &&
	stderr_has "cannot tell the shell" &&
	# init with no shell offers `init -` only where it would work: not
	# under sh with no $SHELL (it printed it there, and it failed)
	expect_code 2 cuenv init &&
	stderr_has "hint: name the shell: cuenv init bash (or zsh, fish)" &&
	stderr_lacks "cuenv init -" &&
	expect_code 2 env SHELL=/bin/bash cuenv init &&
	stderr_has "hint: name the shell: cuenv init bash (or zsh, fish), or detect it: cuenv init -" || exit 1
if command -v zsh >/dev/null 2>&1; then
	expect_code 0 zsh -f -c 'eval "$(cuenv init -)" && whence -w cuenv' &&
		stdout_has "cuenv: function"
fi
