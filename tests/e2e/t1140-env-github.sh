#!/bin/sh
# cuenv env --format github: NAME=value lines for $GITHUB_ENV, and the
# NAME<<DELIMITER form GitHub documents for a multi-line value, with a
# delimiter that is no line of the value.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format github &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "CPATH=$n/include:$c/include
CUDA_HOME=$c
CUDA_PATH=$c
CUDNN_PATH=$n
CUENV_ACTIVE=12.4.1+cudnn9.1.0
LD_LIBRARY_PATH=$n/lib:$c/lib64
LIBRARY_PATH=$n/lib:$c/lib64
PATH=$c/bin:$PATH" cat "$HOME/o" &&
	cd "$HOME" || exit 1

# A PATH of the user's with an entry holding a newline and a line
# "CUENV_EOF". (A toolkit folder cannot hold a newline: cuenv add refuses
# it, as t0260 and t2040 check.)
o='/odd
CUENV_EOF
x'
cd "$HOME/proj" &&
	expect_code 0 env PATH="$PATH:$o" cuenv env --format github &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "PATH<<CUENV_EOF_0
$c/bin:$PATH:$o
CUENV_EOF_0" sed -n '/^PATH<</,/^CUENV_EOF_0$/p' "$HOME/o" &&
	check "CUDA_HOME on one line" grep -q "^CUDA_HOME=$c\$" "$HOME/o" &&
	check "no PATH= line" sh -c '! grep -q "^PATH=" "$1"' - "$HOME/o"
