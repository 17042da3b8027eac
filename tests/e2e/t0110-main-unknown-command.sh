#!/bin/sh
# An unknown command or option is a usage error (2) with a hint, and
# nothing on stdout.
. "$(dirname "$0")/lib.sh"

expect_code 2 cuenv bogus &&
	stdout_empty &&
	stderr_has "cuenv: error: 'bogus' is not a cuenv command" &&
	stderr_has "hint: see: cuenv help" &&
	expect_code 2 cuenv instal 12.4 &&
	stderr_has "'instal' is not a cuenv command" &&
	expect_code 2 cuenv --bogus &&
	stdout_empty &&
	expect_code 2 cuenv versions --bogus &&
	stderr_has "versions: bad option" &&
	stderr_has "cuenv versions --help" &&
	expect_code 2 cuenv version extra &&
	stderr_has "version: too many arguments" &&
	expect_code 2 cuenv which &&
	stderr_has "which: missing argument" &&
	stdout_empty &&
	# Control characters in the name are not echoed raw to the terminal
	expect_code 2 cuenv "$(printf 'x\033]0;owned\007')" &&
	if grep -q "$(printf '\033')" "$E2E_ERR"; then
		fail "the error message echoes an escape character"
	fi &&
	check "a usage error created $CUENV_ROOT" [ ! -e "$CUENV_ROOT" ]
