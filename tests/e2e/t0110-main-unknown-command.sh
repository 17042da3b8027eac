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
	stderr_has "hint: did you mean: cuenv install?" &&
	expect_code 2 cuenv shell 12 &&
	stderr_has "hint: did you mean: cuenv use?" &&
	expect_code 2 cuenv verison &&
	stderr_has "hint: did you mean: cuenv version?" &&
	expect_code 2 cuenv help shell &&
	stderr_has "hint: did you mean: cuenv help use?" &&
	expect_code 2 cuenv zzzzzzzz &&
	stderr_lacks "did you mean" &&
	expect_code 2 cuenv --bogus &&
	stdout_empty &&
	expect_code 2 cuenv versions --bogus &&
	stderr_has "cuenv: error: versions: unknown option '--bogus'" &&
	stderr_has "hint: see: cuenv versions --help" &&
	check "more than the one error line and its hint" \
		[ "$(wc -l <"$E2E_ERR")" -eq 2 ] &&
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
