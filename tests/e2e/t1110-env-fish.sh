#!/bin/sh
# cuenv env --format fish: `| source` in fish activates; path variables
# are fish lists.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv env --format fish &&
	stdout_has "set -gx CUDA_HOME '$c';" &&
	stdout_has "set -gx PATH '$c/bin' " &&
	expect_stdout "$c/bin $(echo "$PATH" | tr : ' ')
$c/lib64
$c
2" fish --no-config -c 'cuenv env --format fish | source; echo $PATH; echo $LD_LIBRARY_PATH; echo $CUDA_HOME; count $LIBRARY_PATH $CUDA_HOME'
