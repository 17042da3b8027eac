#!/bin/sh
# Issue 23: NVIDIA's host (here a mirror address nothing answers) cannot be
# reached, the package index can. install's error names the index's
# command, which runs as printed; --dry-run lists exactly the wheels the
# install then fetches (a post-release of the catalogue's version among
# them); what the index lacks (CUDA 12's nvcc wheel holds only ptxas) is
# said before fetching and never called done; a version asked for more
# grows, from the same source or NVIDIA's, in place; a request it already
# satisfies exits 0; source = in .cuenv and CUENV_SOURCE choose the index;
# a CUDA the index lacks lists what it has.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
fixtures &&
	cccl=$(fxq '[f["filename"] for f in d["pypi_projects"]["nvidia-cuda-cccl-cu12"]][0]') &&
	serve_start "$FX/pypi" PYPI &&
	serve_start "$FX/mirror" SERVER &&
	# A port that answered a moment ago and no longer does.
	serve_start "$FX/mirror" OTHER && dead=$OTHER_URL && serve_stop OTHER &&
	CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	CUENV_MIRROR=$dead CUENV_FETCH_RETRIES=0 &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX CUENV_MIRROR CUENV_FETCH_RETRIES &&
	expect_code 4 cuenv install 12.4 --components cuda_cudart &&
	# the hint installs what was asked, from the index, as printed
	stderr_has "hint: if the mirror cannot be reached from here, install from the package index: cuenv install 12.4.1 --source pypi --components cuda_cudart" &&
	nothing_half_made cuda 12.4.1 &&
	fix=$(sed -n 's/^hint: .*: \(cuenv install .*\)$/\1/p' "$E2E_ERR") &&
	expect_code 0 $fix &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	# The dry run resolves the wheels the install fetches.
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart,cuda_cccl,cuda_nvcc --dry-run &&
	cp "$E2E_OUT" dry &&
	stdout_has "would install cuda 12.4.1 (pypi)" &&
	stdout_has "  cuda_cccl 12.4.127.post1 $PYPI_URL/packages/$cccl" &&
	stdout_has "  pypi has no cuda_nvcc (nvidia-cuda-nvcc-cu12 12.4.131 holds only bin/ptxas)" &&
	: >"$PYPI_LOG" &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart,cuda_cccl,cuda_nvcc &&
	stderr_has "cuenv: adding to cuda 12.4.1: cuda_cccl" &&
	stderr_has "cuenv: pypi has no cuda_nvcc (nvidia-cuda-nvcc-cu12 12.4.131 holds only bin/ptxas); NVIDIA's archives have them: cuenv install 12.4.1 --source redist" &&
	stderr_lacks "cuda_nvcc done" &&
	check "the lack was not said before fetching" \
		[ "$(grep -n 'pypi has no' "$E2E_ERR" | cut -d: -f1)" -lt "$(grep -n 'cuda_cccl done' "$E2E_ERR" | cut -d: -f1)" ] &&
	expect_stdout "GET /packages/$cccl - 200
GET /simple/nvidia-cuda-cccl-cu12/ - 200" sort "$PYPI_LOG" &&
	check "the install fetched what the dry run did not name" \
		grep -q "  cuda_cccl 12.4.127.post1 .*/packages/$cccl\$" dry &&
	check "cccl's header is not in the version" [ -f "$v/include/cuda/std/version" ] &&
	check "the first wheel's library went" [ -f "$v/lib/libcudart.so.12" ] &&
	check "a ptxas-only wheel became nvcc" [ ! -e "$v/bin/nvcc" ] &&
	staging_empty &&
	# Satisfied already: 0, nothing fetched.
	: >"$PYPI_LOG" &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart,cuda_cccl &&
	stdout_has "cuda 12.4.1 is already installed ($v)" &&
	expect_stdout "" cat "$PYPI_LOG" &&
	# The project's source = line, and CUENV_SOURCE, choose the index:
	# without them the install would go to NVIDIA's (unreachable) host.
	mkdir p && printf 'cuda = 12.4\nsource = pypi\n' >p/.cuenv &&
	(cd p && expect_code 0 cuenv install --components cuda_cudart) &&
	(cd p && stdout_has "cuda 12.4.1 is already installed") &&
	expect_code 0 env CUENV_SOURCE=pypi cuenv install 12.4 --components cuda_cccl &&
	stdout_has "cuda 12.4.1 is already installed" &&
	expect_code 4 cuenv install 12.4 --components cuda_cudart,cuda_nvcc &&
	expect_code 2 env CUENV_SOURCE=nvidia cuenv install 12.4 &&
	stderr_has "cuenv: error: CUENV_SOURCE: unknown source 'nvidia'" &&
	printf 'cuda = 12.4\nsource = conda\n' >p/.cuenv &&
	(cd p && expect_code 3 cuenv install) &&
	stderr_has "p/.cuenv:2: unknown source 'conda'" &&
	# NVIDIA reachable again: the toolkit grows by nvcc from there, its
	# wheels' files kept, the receipt naming both sources.
	ino=$(stat -c %i "$v/lib/libcudart.so.12") &&
	expect_code 0 env CUENV_MIRROR="$SERVER_URL" cuenv install 12.4 --components cuda_cudart,cuda_nvcc &&
	stderr_has "cuenv: adding to cuda 12.4.1: cuda_nvcc" &&
	check "nvcc did not come" [ -x "$v/bin/nvcc" ] &&
	check "the wheel's libcudart changed" [ "$(stat -c %i "$v/lib/libcudart.so.12")" = "$ino" ] &&
	check "the receipt lost the index's wheel" grep -q "$PYPI_URL/packages/nvidia_cuda_runtime_cu12" "$v/.cuenv-receipt" &&
	check "the receipt lacks NVIDIA's nvcc" grep -q '"cuda_nvcc": "12.4.131"' "$v/.cuenv-receipt" &&
	expect_code 0 env CUENV_MIRROR="$SERVER_URL" cuenv install 12.4 --components cuda_nvcc,cuda_cccl &&
	stdout_has "cuda 12.4.1 is already installed" &&
	expect_stdout "  cuda   12.4.1                $v" cuenv versions &&
	staging_empty &&
	# A CUDA the index lacks: what it has, and the command for its newest.
	expect_code 17 cuenv install 11.2 --source pypi &&
	stderr_has "cuenv: error: no CUDA 11.2 from pypi in the catalogue" &&
	stderr_has "hint: the package index has CUDA 11.8.0, 12.4.1; its newest CUDA 11: cuenv install 11.8.0 --source pypi" &&
	expect_code 17 cuenv install 12.4.0 --source pypi &&
	expect_stdout "cuda   12.4.0       redist
cuda   12.4.1       redist, pypi" cuenv list-remote cuda 12 --all
