#!/bin/sh
# A hostile archive (tests/fixtures, bad/setuid): 12.4.1's cuda_cudart
# archive, listed with its true sha256, holds a
# file bin/evil-suid with mode 04755.
# Only the extraction can stop it: refused (exit 6) naming the entry,
# nothing installed, pooled or cached, nothing written outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

hostile setuid \
	"cuda_cudart-linux-x86_64-12.4.127-archive/bin/evil-suid': setuid bit"
