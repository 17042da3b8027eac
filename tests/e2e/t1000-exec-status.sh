#!/bin/sh
# cuenv exec passes the command's exit status through; 127 when it is not
# found, 126 when it cannot be run; signals are the command's.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv exec true &&
	expect_code 1 cuenv exec false &&
	expect_code 42 cuenv exec -- sh -c 'exit 42' &&
	expect_code 3 cuenv exec sh -c 'exit 3' &&
	expect_output 0 "out" cuenv exec -- sh -c 'echo out; echo err >&2' &&
	stderr_has "err" &&
	expect_code 127 cuenv exec no-such-command-e2e &&
	stderr_has "cannot run 'no-such-command-e2e'" &&
	printf 'echo hi\n' >notexec.sh &&
	expect_code 126 cuenv exec ./notexec.sh &&
	stderr_has "cannot run './notexec.sh'" &&
	expect_code 126 cuenv exec "$HOME" &&
	# exec replaces cuenv: a signal reaches the shell as the command's.
	expect_code $((128 + 15)) sh -c 'cuenv exec sh -c "kill -TERM \$\$"; exit $?' &&
	# Options after the command are the command's, --help included.
	expect_stdout "--help -x" cuenv exec sh -c 'echo "$@"' sh --help -x &&
	expect_stdout "--isolate" cuenv exec -- sh -c 'echo "$0"' --isolate &&
	expect_code 2 cuenv exec &&
	expect_code 2 cuenv exec --bogus true &&
	# The arguments reach the command unchanged.
	expect_stdout "a b|\$(touch pwned)|*|" cuenv exec sh -c 'printf "%s|" "$@"' sh 'a b' '$(touch pwned)' '*' &&
	nothing_named pwned &&
	# A bad selection: the command does not run.
	printf 'cuda = 10.0\n' >.cuenv &&
	expect_code 9 cuenv exec touch ran &&
	check "exec ran the command with a bad selection" [ ! -e ran ]
