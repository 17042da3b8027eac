#!/bin/sh
# The split-chain attack (tests/fixtures/mksplit.py) inside one runfile:
# ./builds/cuda_cudart/, cuda_cupti/ and cuda_nvcc/ map into one tree, so
# the link chain, the escaping link and the file beneath it meet while the
# runfile is unpacked: refused there (exit 6), naming the entry that would
# replace the link with a folder, and nothing is created outside the store.
# (main installed it: libarchive silently replaced each link with the
# later entry's folder, so nothing escaped, but the tree was not what the
# archive said.)
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

split split-chain &&
	serve_start "$SPLIT/mirror" &&
	CUENV_MANIFESTS=$SPLIT/manifests CUENV_FETCH_BACKOFF_MS=10 &&
	export CUENV_MANIFESTS CUENV_FETCH_BACKOFF_MS &&
	expect_code 6 cuenv install 12.99.1 --source runfile --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archive entry './builds/cuda_cupti/$(chain a1)/up/': conflicts with an earlier entry: a symbolic link" &&
	nothing_outside
