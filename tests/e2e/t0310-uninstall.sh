#!/bin/sh
# cuenv uninstall: deletes what cuenv installed, refuses registered
# versions (their files are the user's).
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	make_installed_cuda 11.8.0 &&
	make_installed_cuda 11.7.1 &&
	expect_code 16 cuenv uninstall 12.4.1 &&
	stderr_has "cuda 12.4.1 was registered from $t/cuda-12.4; cuenv does not delete files it did not install" &&
	stderr_has "hint: unregister it: cuenv remove cuda 12.4.1" &&
	check "uninstall touched a registered toolkit" [ -x "$t/cuda-12.4/bin/nvcc" ] &&
	expect_code 2 cuenv uninstall 11 &&
	stderr_has "ambiguous" &&
	expect_code 9 cuenv uninstall cudnn 9 &&
	stderr_has "cudnn 9 is not in the store" &&
	expect_stdout "uninstalled cuda 11.8.0" cuenv uninstall 11.8 &&
	check "versions/cuda/11.8.0 is still there" [ ! -e "$CUENV_ROOT/versions/cuda/11.8.0" ] &&
	# Nothing is left half-deleted in the staging area.
	check ".staging is not empty: $(ls -A "$CUENV_ROOT/.staging")" [ -z "$(ls -A "$CUENV_ROOT/.staging" 2>/dev/null)" ] &&
	expect_stdout "  cuda   11.7.1                $CUENV_ROOT/versions/cuda/11.7.1
  cuda   12.4.1                $t/cuda-12.4  (registered)" cuenv versions &&
	expect_code 9 cuenv uninstall 11.8
