#!/bin/sh
# cuenv check with nothing selected (exit 1), with bad options (exit 2),
# and its help.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

expect_code 1 cuenv check &&
	stderr_has "cuenv: error: nothing selected here" &&
	stderr_has "hint: select one: cuenv local VERSION" &&
	stdout_empty &&
	expect_code 2 cuenv check --device x &&
	stderr_has "check: --device must be a whole number from 0 to 1023, not 'x'" &&
	expect_code 2 cuenv check --device -1 &&
	expect_code 2 cuenv check --timeout 0 &&
	expect_code 2 cuenv check --bogus &&
	expect_code 2 cuenv check extra &&
	stderr_has "check: too many arguments" &&
	expect_code 0 cuenv check --help &&
	stdout_has "usage: cuenv check [--json] [--compile] [--device N] [--timeout S]" &&
	stdout_has "10 driver, 11 runtime, 12 kernel," &&
	expect_code 0 cuenv help &&
	stdout_has "check" &&
	stdout_has "prove the selection works on the GPU, layer by layer"
