#!/bin/sh
# make test leaves the user's HOME as it was: the unit tests that start
# fish (test_shell, test_envfmt, test_hook) run, through tests/unit/run.sh
# as make unit runs them, with this sandbox's HOME as the user's; fish made
# ~/.config/fish and ~/.local/share/fish there.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need fish
src=$(cd "$e2e/../.." && pwd) || exit 1
units=$(dirname "$CUENV_BIN")/tests
for t in test_shell test_envfmt test_hook; do
	[ -x "$units/$t" ] || skip "no $units/$t: make unit builds it"
done
expect_code 0 sh "$src/tests/unit/run.sh" "$units/test_shell" \
	"$units/test_envfmt" "$units/test_hook" &&
	stdout_has "ok  test_shell" &&
	check "the unit tests wrote in HOME: $(cd "$HOME" && find . -mindepth 1)" \
		[ -z "$(ls -A "$HOME")" ]
