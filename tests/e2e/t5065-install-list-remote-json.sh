#!/bin/sh
# cuenv list-remote --json: the same rows as the text, as objects.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	CUENV_MANIFESTS=$FX/manifests && export CUENV_MANIFESTS &&
	need jq &&
	expect_stdout "cuda 11.2.2 11 runfile
cuda 11.8.0 11 redist
cudnn 9.1.0.70 11 redist
cudnn 9.1.0.70 12 redist" sh -c 'cuenv list-remote --json | jq -r ".[] | select(.version | test(\"^(11.2|11.8|9.1)\")) | \"\(.kind) \(.version) \(.cuda_major) \(.source)\""' &&
	expect_stdout "[]" cuenv list-remote cuda 99 --json
