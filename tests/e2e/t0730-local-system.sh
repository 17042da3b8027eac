#!/bin/sh
# cuenv local system (and global system) changes the cuda line alone:
# the file's cudnn, isolate and comments stay (doctor's and explain's fix
# `cuenv local system` once dropped them), unused while cuda is system
# (`cuenv local` and the environment say system, nothing more), and apply
# again when a version comes back.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cudnn "$t/cudnn-9.1.0.70_cuda12-archive" 9.1.0.70 12 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cudnn "$t/cudnn-9.1.0.70_cuda12-archive" >/dev/null &&
	mkdir proj && cd proj &&
	printf '# team toolchain\ncuda = 12.4\ncudnn = 9.1\nisolate = true\n' >.cuenv &&
	expect_code 0 cuenv local system &&
	file_is .cuenv "# team toolchain
cuda = system
cudnn = 9.1
isolate = true" &&
	expect_output 0 "system ($HOME/proj/.cuenv)" cuenv local &&
	expect_code 0 cuenv exec -- sh -c 'echo "${LD_LIBRARY_PATH-}"' &&
	stdout_lacks "$t" &&
	expect_code 0 cuenv local 12.4 &&
	expect_output 0 "12.4 + cudnn 9.1, isolated ($HOME/proj/.cuenv)" cuenv local &&
	expect_code 0 cuenv global 12.4 --cudnn 9.1 &&
	expect_code 0 cuenv global system &&
	file_is "$CUENV_ROOT/version" "cuda = system
cudnn = 9.1"
