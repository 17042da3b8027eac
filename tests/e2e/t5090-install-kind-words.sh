#!/bin/sh
# pyenv-like words for install, as the man page and completion give them:
# `install cuda SPEC` is `install SPEC`; `install cudnn V` installs cuDNN
# V for the CUDA selected here; `install --list` (-l) is list-remote.
# `cuenv install cuda 12.4` once said "too many arguments".
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	expect_code 0 cuenv install cuda 12.4 --runtime-only --quiet &&
	expect_code 0 cuenv versions --bare &&
	stdout_has "12.4.1" &&
	expect_code 2 cuenv install cuda 12.4 11.8 &&
	stderr_has "install: too many arguments" &&
	expect_code 2 cuenv install cudnn &&
	stderr_has "install: cudnn needs one version" &&
	expect_code 2 cuenv install cudnn 9.1 --cudnn 9.1 &&
	stderr_has "hint: for example: cuenv install cudnn 9.1 (for the CUDA selected here), or cuenv install 12.4 --cudnn 9.1" &&
	expect_code 2 cuenv install cudnn 9.x &&
	stderr_has "invalid cudnn version '9.x'" &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv install cudnn 9.1 --runtime-only --quiet &&
	expect_code 0 cuenv versions &&
	stdout_has "cudnn  9.1.0.70 (cuda12)" &&
	cd .. &&
	cuenv list-remote >"$HOME/remote" &&
	expect_stdout "$(cat "$HOME/remote")" cuenv install --list &&
	expect_stdout "$(cuenv list-remote cudnn 9 --all)" cuenv install -l cudnn 9 --all &&
	expect_stdout "$(cuenv list-remote --json)" cuenv install --list --json &&
	expect_code 2 cuenv install --json 12.4 &&
	stderr_has "install: --all and --json go with --list" &&
	# The toolkit has only some components: with --cupti (or --cudnn:
	# check's fix lines) that goes beside it, the toolkit as it is;
	# asked for whole, the toolkit grows by what it lacks (issue 23).
	expect_code 0 cuenv install 12.4 --cupti 12.4 &&
	stdout_has "cuda 12.4.1 is already installed" &&
	stdout_has "installed cupti 12.4.1" &&
	expect_code 0 cuenv install 12.4.1 &&
	stderr_has "cuenv: adding to cuda 12.4.1: cuda_nvcc, cuda_cccl" &&
	stdout_has "installed cuda 12.4.1 in" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "cuda 12.4.1 is already installed"
