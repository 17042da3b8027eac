#!/bin/sh
# The split-chain attack with two wheels from a package index
# (tests/fixtures/mksplit.py): the runtime wheel ships eight folder chains
# c1..c8 ending in a link "up" to the version folder; the CUPTI wheel ships,
# through each chain, links e1..e8 that leave the store once they sit where
# "up" puts them, and plain files e1/pwned-1 .. e8/pwned-8. Refused (exit 6)
# at assembly, naming both wheels, and nothing is created outside the store.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-split.sh"

rt=nvidia_cuda_runtime_cu12-12.99.10-py3-none-manylinux2014_x86_64.whl
cupti=nvidia_cuda_cupti_cu12-12.99.11-py3-none-manylinux2014_x86_64.whl
split split-chain &&
	serve_start "$SPLIT/pypi" PYPI &&
	CUENV_MANIFESTS=$SPLIT/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX &&
	expect_code 6 cuenv install 12.99.1 --source pypi \
		--components cuda_cudart,cuda_cupti &&
	stderr_has "cuenv: error: refused archives: '$(chain c1)/up' is a symbolic link in '$rt' and a folder in '$cupti'" &&
	nothing_outside
