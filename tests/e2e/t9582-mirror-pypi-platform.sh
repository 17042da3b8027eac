#!/bin/sh
# cuenv mirror --source pypi --platform P takes P's wheels, as install does
# under CUENV_PLATFORM (it once refused any platform but this machine's):
# for linux-sbsa the index's manylinux x86_64 wheels do not fit, so the
# mirror stops naming the platform and fetches no wheel; for this
# machine's platform it mirrors them.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

m=$HOME/mirror
fixtures &&
	serve_start "$FX/pypi" PYPI &&
	CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX &&
	expect_code 4 cuenv mirror "$m" 12.4 --source pypi --platform linux-sbsa --components cuda_cudart &&
	stderr_has "no nvidia-cuda-runtime-cu12 wheel 12.4.127 for linux-sbsa on '$PYPI_URL/simple/nvidia-cuda-runtime-cu12/' (found: none)" &&
	check "an x86_64 wheel was fetched for linux-sbsa" \
		[ -z "$(grep '\.whl' "$PYPI_LOG")" ] &&
	check "the failed mirror lists a wheel" \
		sh -c "! ls '$m/pypi/packages/'*.whl 2>/dev/null" &&
	expect_code 0 cuenv mirror "$m" 12.4 --source pypi --platform linux-x86_64 --components cuda_cudart &&
	stdout_has "mirrored 1 release (" &&
	check "no x86_64 wheel in the mirror" \
		ls "$m/pypi/packages/"nvidia_cuda_runtime_cu12-12.4.127-*manylinux*x86_64*.whl
