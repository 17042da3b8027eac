#!/bin/sh
# An archive with nothing in it but its top folder (tests/fixtures/
# mksplit.py, empty: 12.99.1's cuda_cudart) is refused (exit 6) rather than
# installed as an empty component, and nothing of the release is installed.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

split empty &&
	serve_start "$SPLIT/mirror" &&
	CUENV_MANIFESTS=$SPLIT/manifests CUENV_FETCH_BACKOFF_MS=10 &&
	export CUENV_MANIFESTS CUENV_FETCH_BACKOFF_MS &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archive: nothing in it to install" &&
	nothing_outside &&
	sha=$(sha256sum "$SPLIT/mirror/compute/cuda/redist/cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.99.10-archive.tar.xz" | cut -d' ' -f1) &&
	check "the empty archive was pooled" \
		[ ! -e "$CUENV_ROOT/pool/$sha" ] &&
	# Alone, too.
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" \
		--components cuda_cudart &&
	stderr_has "cuenv: error: refused archive: nothing in it to install" &&
	nothing_outside
