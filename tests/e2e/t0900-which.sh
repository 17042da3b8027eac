#!/bin/sh
# cuenv which NAME: the file the selection provides, in activation order
# (cuDNN's libraries before the toolkit's); 1 when it provides none.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn-9.1.0.70_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	expect_code 1 cuenv which nvcc &&
	stdout_empty &&
	stderr_has "nothing selected here" &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_stdout "$c/bin/nvcc" cuenv which nvcc &&
	expect_stdout "$c/lib64/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_stdout "$c/lib64/libcupti.so.12" cuenv which libcupti.so.12 &&
	expect_stdout "$n/lib/libcudnn.so.9" cuenv which libcudnn.so.9 &&
	expect_stdout "$n/include/cudnn.h" cuenv which cudnn.h &&
	expect_stdout "$c/include/cuda_runtime_api.h" cuenv which cuda_runtime_api.h &&
	# A header in both: cuDNN's include comes first, as on CPATH.
	cp "$n/include/cudnn_version.h" "$c/include/" &&
	expect_stdout "$n/include/cudnn_version.h" cuenv which cudnn_version.h &&
	expect_code 1 cuenv which libcupti.so.11.8 &&
	stderr_has "'libcupti.so.11.8' is not provided by cuda 12.4.1 + cudnn 9.1.0" &&
	# CUPTI from another release, by its exact soname
	printf 'cuda = 12.4\ncupti = 11.8\n' >.cuenv &&
	expect_stdout "$t/cuda-11.8/lib64/libcupti.so.11.8" cuenv which libcupti.so.11.8 &&
	expect_stdout "12.4.1 + cupti from 11.8.0 (set by $HOME/proj/.cuenv)" cuenv version &&
	# Names, not paths.
	expect_code 1 cuenv which ../lib64/libcudart.so.12 &&
	expect_code 1 cuenv which "$c/bin/nvcc" &&
	expect_code 1 cuenv which lib64 &&
	expect_code 1 cuenv which '' &&
	expect_code 2 cuenv which nvcc ptxas
