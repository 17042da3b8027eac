#!/bin/sh
# The common set-up LD_LIBRARY_PATH=/usr/local/cuda/lib64, with
# /usr/local/cuda a link to the toolkit selected: that entry is the
# selection's own folder, not a foreign one that can shadow it: no
# warning that it can.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	ln -s cuda-12.4 "$t/cuda" &&
	cuenv add cuda "$t/cuda" >/dev/null &&
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv && cd p &&
	export LD_LIBRARY_PATH="$t/cuda/lib64" &&
	expect_code 0 cuenv exec true &&
	stderr_lacks "warning" &&
	expect_code 0 cuenv env &&
	stderr_lacks "warning"
