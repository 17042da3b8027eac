#!/bin/sh
# cuenv lock --check: 1 with a reason when the .cuenv changed or there is no
# lock, 0 when it matches.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 1 cuenv lock --check &&
	stderr_has "no lock file '$PWD/.cuenv.lock'" &&
	expect_code 0 cuenv lock &&
	expect_code 0 cuenv lock --check &&
	printf 'cuda = 12\n' >.cuenv &&
	expect_code 1 cuenv lock --check &&
	stderr_has "the .cuenv asks for cuda 12 but the lock was made for cuda 12.4" &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv lock --check
