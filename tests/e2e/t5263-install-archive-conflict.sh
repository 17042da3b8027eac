#!/bin/sh
# Two archives of one release that disagree on what a path is
# (tests/fixtures/mksplit.py): a folder lib/x in cuda_cudart and a link
# lib/x in cuda_cupti; a file share/a in cuda_cudart and a folder share/a in
# cuda_cupti. Either is a refused archive set (exit 6), the error naming the
# path and both archives, and nothing is installed. The same file in two
# archives (each fixture archive's LICENSE) stays fine: t5000.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

rt=cuda_cudart-linux-x86_64-12.99.10-archive.tar.xz
cupti=cuda_cupti-linux-x86_64-12.99.11-archive.tar.xz
CUENV_MANIFESTS=$SPLIT/manifests CUENV_FETCH_BACKOFF_MS=10
export CUENV_MANIFESTS CUENV_FETCH_BACKOFF_MS
split dir-link &&
	serve_start "$SPLIT/mirror" &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archives: 'lib/x' is a folder in '$rt' and a symbolic link in '$cupti'" &&
	nothing_outside &&
	serve_stop &&
	rm -rf "$SPLIT" "$CUENV_ROOT" &&
	split file-dir &&
	serve_start "$SPLIT/mirror" &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archives: 'share/a' is a file in '$rt' and a folder in '$cupti'" &&
	nothing_outside
