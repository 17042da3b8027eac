#!/bin/sh
# cuenv env --format json: one object, name to value, without cuenv's
# private state.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn_cuda12-archive
need jq &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format json &&
	cp "$E2E_OUT" "$HOME/env.json" &&
	expect_stdout "CPATH=$n/include:$c/include
CUDA_HOME=$c
CUDA_PATH=$c
CUDNN_PATH=$n
CUENV_ACTIVE=12.4.1+cudnn9.1.0
LD_LIBRARY_PATH=$n/lib:$c/lib64
LIBRARY_PATH=$n/lib:$c/lib64
PATH=$c/bin:$PATH" jq -r 'to_entries[] | "\(.key)=\(.value)"' "$HOME/env.json" &&
	cd "$HOME" &&
	expect_code 1 cuenv env --format json &&
	stdout_empty &&
	stderr_has "nothing selected here"
