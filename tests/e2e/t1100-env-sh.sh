#!/bin/sh
# cuenv env (sh format): code a POSIX sh evaluates into the activated
# environment, relative to the environment without cuenv.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	expect_code 1 cuenv env &&
	stdout_empty &&
	stderr_has "nothing selected here" &&
	mkdir proj && cd proj && printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv env &&
	stderr_empty &&
	cp "$E2E_OUT" "$HOME/env.sh" &&
	check "no CUDA_HOME line in: $(cat "$HOME/env.sh")" grep -q "^export CUDA_HOME='$c';$" "$HOME/env.sh" &&
	expect_stdout "$c/bin:$PATH|$c/lib64|$c|$c|12.4.1|set" \
		sh -c '. "$1" && echo "$PATH|$LD_LIBRARY_PATH|$CUDA_HOME|$CUDA_PATH|$CUENV_ACTIVE|${__CUENV_STATE:+set}"' \
		sh "$HOME/env.sh" &&
	# The same for sh, bash and zsh; only known variables appear.
	expect_stdout "$(cat "$HOME/env.sh")" cuenv env --format sh &&
	expect_stdout "$(cat "$HOME/env.sh")" cuenv env --format bash &&
	expect_stdout "CPATH
CUDA_HOME
CUDA_PATH
CUENV_ACTIVE
LD_LIBRARY_PATH
LIBRARY_PATH
PATH
__CUENV_STATE" sed 's/^export \([A-Z_]*\)=.*/\1/' "$HOME/env.sh" &&
	# Evaluating it twice stacks nothing.
	expect_stdout "$c/bin:$PATH" \
		sh -c 'eval "$(cuenv env)" && eval "$(cuenv env)" && echo "$PATH"' &&
	expect_code 2 cuenv env --format csh &&
	stderr_has "env: unknown format 'csh'" &&
	expect_code 2 cuenv env extra
