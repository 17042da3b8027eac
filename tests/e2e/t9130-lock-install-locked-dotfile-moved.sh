#!/bin/sh
# cuenv install --locked refuses a lock the .cuenv beside it has moved away
# from (as uv sync --locked and poetry install do): exit 3, naming both
# files and both values, nothing installed; with the lock written again,
# or the .cuenv asking for what the lock pins, it installs. A lock with no
# .cuenv beside it installs what it pins.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv lock &&
	printf 'cuda = 12\n' >.cuenv &&
	expect_code 3 cuenv install --locked &&
	stderr_has "cuenv: error: install: '$PWD/.cuenv' asks for cuda 12 but '$PWD/.cuenv.lock' was made for cuda 12.4" &&
	stderr_has "hint: update the lock with: cuenv lock" &&
	check "something was installed" [ ! -e "$CUENV_ROOT/versions" ] &&
	printf 'cuda = 12.4\ncudnn = 9.1\n' >.cuenv &&
	expect_code 3 cuenv install --locked &&
	stderr_has "asks for cudnn 9.1 but '$PWD/.cuenv.lock' was made for no cudnn" &&
	# from a folder below, the same lock and .cuenv
	mkdir sub && (cd sub && expect_code 3 cuenv install --locked) &&
	printf 'cuda = 12.4\n' >.cuenv &&
	mv .cuenv .cuenv.saved &&
	expect_code 0 cuenv install --locked &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	mv .cuenv.saved .cuenv &&
	expect_code 0 cuenv install --locked &&
	staging_empty
