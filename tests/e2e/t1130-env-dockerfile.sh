#!/bin/sh
# cuenv env --format dockerfile: one ENV line a variable, the value in
# double quotes with \, " and $ escaped (Dockerfile syntax), no private
# state; a value with a newline cannot be written and is refused.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/'cu $HOME "da\x'
q='cu \$HOME \"da\\x'
n=$t/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format dockerfile &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "ENV CPATH=\"$n/include:$t/$q/include\"
ENV CUDA_HOME=\"$t/$q\"
ENV CUDA_PATH=\"$t/$q\"
ENV CUDNN_PATH=\"$n\"
ENV CUENV_ACTIVE=\"12.4.1+cudnn9.1.0\"
ENV LD_LIBRARY_PATH=\"$n/lib:$t/$q/lib64\"
ENV LIBRARY_PATH=\"$n/lib:$t/$q/lib64\"
ENV PATH=\"$t/$q/bin:$PATH\"" cat "$HOME/o" &&
	stdout_lacks __CUENV_STATE &&
	cd "$HOME" &&
	expect_code 1 cuenv env --format dockerfile &&
	stdout_empty &&
	stderr_has "nothing selected here" &&
	expect_code 2 cuenv env --format docker &&
	stderr_has "dockerfile, github"
