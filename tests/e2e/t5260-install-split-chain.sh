#!/bin/sh
# Symbolic links split across three archives of one release (tests/fixtures/
# mksplit.py, split-chain): cuda_cudart's a1/.../a24/up points at the version
# folder, cuda_cupti's a1/.../a24/up/esc is lexically inside its own tree but
# leaves the store once it sits where "up" puts it, and cuda_nvcc's plain
# file a1/.../a24/up/esc/pwned-nvcc would be written through both. Each
# archive passes the unpacker's checks; assembling the version refuses the
# set (exit 6), naming the path and both archives, and nothing is created
# outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

rt=cuda_cudart-linux-x86_64-12.99.10-archive.tar.xz
cupti=cuda_cupti-linux-x86_64-12.99.11-archive.tar.xz
split split-chain &&
	serve_start "$SPLIT/mirror" &&
	CUENV_MANIFESTS=$SPLIT/manifests CUENV_FETCH_BACKOFF_MS=10 &&
	export CUENV_MANIFESTS CUENV_FETCH_BACKOFF_MS &&
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archives: '$(chain a1)/up' is a symbolic link in '$rt' and a folder in '$cupti'" &&
	nothing_outside &&
	# Again, from the pool trees this time: the same refusal.
	expect_code 6 cuenv install 12.99.1 --mirror "$SERVER_URL" &&
	stderr_has "cuenv: error: refused archives: '$(chain a1)/up' is a symbolic link in '$rt' and a folder in '$cupti'" &&
	nothing_outside &&
	# gc frees the pool; nothing outside was ever there to survive it.
	expect_code 0 cuenv gc &&
	nothing_outside
