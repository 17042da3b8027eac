#!/bin/sh
# One archive that the store cannot hold as it says (tests/fixtures/
# mksplit.py): a file 4.8 KB deep, past PATH_MAX, is refused (exit 6)
# naming the entry before any of its folders is made, so no pool tree too
# deep to remove is left behind; a file share/a followed by a folder share/a
# (and share/a/b in it) is a refused archive (exit 6), not a store error.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

top=cuda_cudart-linux-x86_64-12.99.10-archive
CUENV_MANIFESTS=$SPLIT/manifests CUENV_FETCH_BACKOFF_MS=10
export CUENV_MANIFESTS CUENV_FETCH_BACKOFF_MS
split deep &&
	serve_start "$SPLIT/mirror" &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archive entry '$top/dddddddddd" &&
	stderr_has ": path too long" &&
	nothing_outside &&
	check "a folder of the deep path was made" \
		[ -z "$(find "$CUENV_ROOT" -name 'dddddddddd*')" ] &&
	serve_stop &&
	rm -rf "$SPLIT" "$CUENV_ROOT" &&
	split inner-conflict &&
	serve_start "$SPLIT/mirror" &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archive entry '$top/share/a/': conflicts with an earlier entry: a file" &&
	nothing_outside
