#!/bin/sh
# cuenv install with no SPEC installs what the nearest .cuenv asks for
# (CUDA and cuDNN), from a subfolder too; with nothing selected it is a
# usage error.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	expect_code 2 cuenv install &&
	stderr_has "no version given and none selected here" &&
	check "install with nothing selected made a version" \
		[ -z "$(ls -A "$CUENV_ROOT/versions/cuda" 2>/dev/null)" ] &&
	mkdir -p proj/src &&
	printf '# the project\ncuda = 12.4\ncudnn = 9\n' >proj/.cuenv &&
	cd proj/src &&
	expect_code 0 cuenv install &&
	stdout_has "installed cuda 12.4.1 in $CUENV_ROOT/versions/cuda/12.4.1 (" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12 in $CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12 (" &&
	expect_stdout "$CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12/lib/libcudnn.so.9" \
		cuenv which libcudnn.so.9 &&
	expect_stdout "cuda 12.4.1 is already installed ($CUENV_ROOT/versions/cuda/12.4.1)
cudnn 9.1.0.70 for CUDA 12 is already installed ($CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12)" \
		cuenv install &&
	# A .cuenv naming what the catalogue lacks: nothing installed.
	printf 'cuda = 12.7\n' >../.cuenv &&
	expect_code 17 cuenv install &&
	stderr_has "no CUDA 12.7 in the catalogue"
