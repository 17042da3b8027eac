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

# A toolkit folder whose name has a newline and a line "CUENV_EOF".
m=$t/'odd
CUENV_EOF
x'
make_fake_cuda "$m" 12.6.0 &&
	cuenv add cuda "$m" >/dev/null &&
	mkdir odd && cd odd && printf 'cuda = 12.6\n' >.cuenv &&
	expect_code 0 cuenv env --format github &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "CUDA_HOME<<CUENV_EOF_0
$m
CUENV_EOF_0" sed -n '/^CUDA_HOME/,/^CUENV_EOF_0$/p' "$HOME/o" &&
	check "PATH multi-line" grep -q "^PATH<<CUENV_EOF_0\$" "$HOME/o" &&
	check "no CUDA_HOME= line" sh -c '! grep -q "^CUDA_HOME=" "$1"' - "$HOME/o"
