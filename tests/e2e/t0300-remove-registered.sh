#!/bin/sh
# cuenv remove: unregisters (by version or unambiguous prefix), never
# touches the files, and refuses versions cuenv installed itself.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-12.6" 12.6.2 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cudnn "$t/cudnn-9.1.0.70_cuda12-archive" 9.1.0 12 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-12.6" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	cuenv add cudnn "$t/cudnn-9.1.0.70_cuda12-archive" >/dev/null &&
	make_installed_cuda 10.2.89 &&
	# A prefix naming two versions is ambiguous.
	expect_code 2 cuenv remove 12 &&
	stderr_has "cuda 12 is ambiguous: 12.4.1, 12.6.2" &&
	expect_code 9 cuenv remove 12.5 &&
	stderr_has "cuda 12.5 is not in the store" &&
	expect_code 2 cuenv remove tensorrt 8 &&
	stderr_has "'tensorrt' is not cuda or cudnn" &&
	expect_code 2 cuenv remove &&
	expect_code 16 cuenv remove 10.2.89 &&
	stderr_has "cuda 10.2.89 was installed by cuenv, not registered" &&
	stderr_has "cuenv uninstall cuda 10.2.89" &&
	check "remove touched an installed version" [ -x "$CUENV_ROOT/versions/cuda/10.2.89/bin/nvcc" ] &&
	expect_stdout "removed cuda 12.4.1 ($t/cuda-12.4, left in place)" \
		cuenv remove 12.4 &&
	expect_stdout "removed cuda 11.8.0 ($t/cuda-11.8, left in place)" \
		cuenv remove cuda 11.8.0 &&
	expect_stdout "removed cudnn 9.1.0-cuda12 ($t/cudnn-9.1.0.70_cuda12-archive, left in place)" \
		cuenv remove cudnn 9 &&
	check "remove touched cuda-12.4's files" [ -x "$t/cuda-12.4/bin/nvcc" ] &&
	check "remove touched cuda-11.8's files" [ -f "$t/cuda-11.8/version.json" ] &&
	check "remove touched cudnn's files" [ -f "$t/cudnn-9.1.0.70_cuda12-archive/lib/libcudnn.so.9" ] &&
	expect_stdout "  cuda   10.2.89               $CUENV_ROOT/versions/cuda/10.2.89
  cuda   12.6.2                $t/cuda-12.6  (registered)" cuenv versions &&
	# Removed versions can be added again.
	expect_code 0 cuenv add cuda "$t/cuda-12.4" &&
	expect_code 9 cuenv remove 12.4.1.1
