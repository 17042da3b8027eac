#!/bin/sh
# A hostile archive (tests/fixtures, bad/absolute): 12.4.1's cuda_cudart
# archive, listed with its true sha256, holds a
# member named /tmp/cuenv-fixture-evil-absolute.
# Only the extraction can stop it: refused (exit 6) naming the entry,
# nothing installed, pooled or cached, nothing written outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

hostile absolute \
	"/tmp/cuenv-fixture-evil-absolute': absolute path"
