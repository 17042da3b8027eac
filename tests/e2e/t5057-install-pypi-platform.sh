#!/bin/sh
# --source pypi takes the wheels of the catalogue's platform (issue 25):
# with CUENV_PLATFORM=linux-sbsa the index's manylinux x86_64 wheels do
# not fit (an ARM server needs the aarch64 ones), so the install stops
# naming the platform and installs nothing; this machine's platform takes
# them.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	serve_start "$FX/pypi" PYPI &&
	CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX &&
	CUENV_PLATFORM=linux-sbsa expect_code 4 cuenv install 12.4 --source pypi --components cuda_cudart &&
	stderr_has "no nvidia-cuda-runtime-cu12 wheel 12.4.127 for linux-sbsa on '$PYPI_URL/simple/nvidia-cuda-runtime-cu12/' (found: none)" &&
	check "an x86_64 wheel was fetched for linux-sbsa" \
		[ -z "$(grep '\.whl' "$PYPI_LOG")" ] &&
	nothing_half_made cuda 12.4.1 &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart &&
	stdout_has "installed cuda 12.4.1 in $CUENV_ROOT/versions/cuda/12.4.1 ("
