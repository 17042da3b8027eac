#!/bin/sh
# A hostile archive (tests/fixtures, bad/symlink-escape): 12.4.1's cuda_cudart
# archive, listed with its true sha256, holds a
# symbolic link lib/evil to ../ (24 times) tmp, then a file written
# through it (to /tmp/cuenv-fixture-evil-symlink).
# Only the extraction can stop it: refused (exit 6) naming the entry,
# nothing installed, pooled or cached, nothing written outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

hostile symlink-escape \
	"cuda_cudart-linux-x86_64-12.4.127-archive/lib/evil': symbolic link to '../../../../../../../../../../../../../../../../../../../../../../../../tmp' leaves the destination"
