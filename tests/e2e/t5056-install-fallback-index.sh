#!/bin/sh
# Issue 23: with no source chosen, NVIDIA's host first and the package
# index when that host cannot be reached (here: the proxy every https
# request goes through refuses), said once on stderr, for the install and
# its dry run. A source chosen (--source, CUENV_SOURCE, a mirror) is not
# replaced: its failure is heard.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
note="cuenv: NVIDIA's host cannot be reached; installing from the package index (--source pypi)"
fixtures &&
	serve_start "$FX/pypi" PYPI &&
	CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	CUENV_FETCH_RETRIES=0 &&
	https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 &&
	no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX CUENV_FETCH_RETRIES \
		https_proxy HTTPS_PROXY no_proxy NO_PROXY &&
	expect_code 0 cuenv install 12.4 --components cuda_cudart --dry-run &&
	stderr_has "$note" &&
	stdout_has "would install cuda 12.4.1 (pypi)" &&
	stdout_has "  cuda_cudart 12.4.127 $PYPI_URL/packages/" &&
	check "the dry run installed" [ ! -e "$v" ] &&
	expect_code 0 cuenv install 12.4 --components cuda_cudart &&
	assert_eq "$(grep -c "cannot be reached" "$E2E_ERR")" 1 "notes" &&
	stderr_has "$note" &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	check "the wheel did not come from the index" \
		grep -q "GET /packages/nvidia_cuda_runtime_cu12-12.4.127-.*200" "$PYPI_LOG" &&
	check "the receipt lacks the index's wheel" \
		grep -q "$PYPI_URL/packages/nvidia_cuda_runtime_cu12" "$v/.cuenv-receipt" &&
	# The project's selection, no source named: the same.
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv &&
	(cd p && expect_code 0 cuenv install --components cuda_cudart,cuda_cupti) &&
	stderr_has "$note" &&
	stderr_has "cuenv: adding to cuda 12.4.1: cuda_cupti" &&
	# A source chosen is kept: NVIDIA's, unreachable, fails.
	rm -rf "$CUENV_ROOT" &&
	expect_code 4 cuenv install 12.4 --components cuda_cudart --source redist &&
	stderr_lacks "cannot be reached; installing" &&
	expect_code 4 env CUENV_SOURCE=redist cuenv install 12.4 --components cuda_cudart &&
	stderr_lacks "cannot be reached; installing" &&
	nothing_half_made cuda 12.4.1
