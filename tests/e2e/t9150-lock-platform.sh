#!/bin/sh
# cuenv lock pins the archives of the platform the catalogue is read for
# (CUENV_PLATFORM's when set, as list-remote and install read it) and says
# that platform, where it once said this machine's beside another's
# archives; lock --check and install --locked hold the lock to the
# platform they are run for.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	printf 'cuda = 12.4\n' >.cuenv &&
	CUENV_PLATFORM=linux-sbsa expect_code 0 cuenv lock &&
	expect_stdout linux-sbsa python3 -c \
		'import json; print(json.load(open(".cuenv.lock"))["platform"])' &&
	check "the linux-sbsa lock names a linux-x86_64 archive" \
		sh -c '! grep -q linux-x86_64 .cuenv.lock' &&
	check "the linux-sbsa lock names no linux-sbsa archive" \
		grep -q '"url": ".*/linux-sbsa/' .cuenv.lock &&
	CUENV_PLATFORM=linux-sbsa expect_code 0 cuenv lock --check &&
	expect_code 1 cuenv lock --check &&
	stderr_has "the lock is for linux-sbsa, this machine is linux-x86_64" &&
	expect_code 2 cuenv install --locked &&
	stderr_has "is for linux-sbsa, this machine is linux-x86_64" &&
	check "install --locked installed another platform's lock" \
		[ ! -e "$CUENV_ROOT/versions/cuda" ] &&
	# the hint, pasted as printed, makes this machine's lock
	expect_code 0 cuenv lock &&
	expect_code 0 cuenv lock --check
