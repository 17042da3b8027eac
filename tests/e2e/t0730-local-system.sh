#!/bin/sh
# cuenv local system (and global system) leaves no cudnn, cupti or
# isolate behind: with system cuenv adds nothing, and a kept
# `cudnn = 9.1` said otherwise. Comments stay.
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
cuda = system" &&
	expect_output 0 "system ($HOME/proj/.cuenv)" cuenv local &&
	expect_code 0 cuenv global 12.4 --cudnn 9.1 &&
	expect_code 0 cuenv global system &&
	file_is "$CUENV_ROOT/version" "cuda = system"
