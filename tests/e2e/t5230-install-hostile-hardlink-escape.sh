#!/bin/sh
# A hostile archive (tests/fixtures, bad/hardlink-escape): 12.4.1's cuda_cudart
# archive, listed with its true sha256, holds a
# hard link lib/evil-hardlink to /tmp/cuenv-fixture-evil-hardlink, then a
# file of that name, which would be written through the link.
# Only the extraction can stop it: refused (exit 6) naming the entry,
# nothing installed, pooled or cached, nothing written outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

# The link's target exists (as a user's file would), so that a write
# through the link would show.
target=/tmp/cuenv-fixture-evil-hardlink
made=
if [ ! -e "$target" ]; then
	printf 'cuenv e2e: this file must stay as it is\n' >"$target" && made=1
fi
hostile hardlink-escape \
	"cuda_cudart-linux-x86_64-12.4.127-archive/lib/evil-hardlink': hard link to '/tmp/cuenv-fixture-evil-hardlink' leaves the destination"
rc=$?
[ -n "$made" ] && rm -f "$target"
exit $rc
