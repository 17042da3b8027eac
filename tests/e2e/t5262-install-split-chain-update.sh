#!/bin/sh
# The split-chain attack end to end from a hostile mirror: `cuenv update
# --mirror URL` takes the mirror's listing and its redistrib_12.99.1.json
# (no pin for it: the shipped catalogue does not know 12.99.1), then `cuenv
# install 12.99.1` from that mirror fetches three archives that are only
# dangerous together (tests/fixtures/mksplit.py, split-chain). Refused
# (exit 6) at assembly; nothing is created outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

rt=cuda_cudart-linux-x86_64-12.99.10-archive.tar.xz
cupti=cuda_cupti-linux-x86_64-12.99.11-archive.tar.xz
unset CUENV_MANIFESTS
split split-chain &&
	serve_start "$SPLIT/mirror" &&
	CUENV_FETCH_BACKOFF_MS=10 && export CUENV_FETCH_BACKOFF_MS &&
	expect_code 0 cuenv update --mirror "$SERVER_URL" &&
	stdout_has "added cuda 12.99.1" &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archives: '$(chain a1)/up' is a symbolic link in '$rt' and a folder in '$cupti'" &&
	nothing_outside
