#!/bin/sh
# A hostile archive (tests/fixtures, bad/dotdot): 12.4.1's cuda_cudart
# archive, listed with its true sha256, holds a
# member named <top>/../../cuenv-fixture-evil-dotdot, which would land
# beside the extraction folder.
# Only the extraction can stop it: refused (exit 6) naming the entry,
# nothing installed, pooled or cached, nothing written outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

hostile dotdot \
	"cuda_cudart-linux-x86_64-12.4.127-archive/../../cuenv-fixture-evil-dotdot': path leaves the destination"
