#!/bin/sh
# cuenv use changes the calling shell, so without the integration
# (CUENV_SHELL unset) it is an error that says what to do.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	expect_code 2 cuenv use 12.4 &&
	stdout_empty &&
	stderr_has "use: this shell has no cuenv integration" &&
	stderr_has 'eval "$(cuenv init bash)"' &&
	stderr_has "cuenv exec" &&
	expect_code 2 cuenv use --unset &&
	stderr_has "no cuenv integration" &&
	expect_code 2 env CUENV_SHELL=tcsh cuenv use 12.4 &&
	stderr_has "no cuenv integration" &&
	stdout_empty
