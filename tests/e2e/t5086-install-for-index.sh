#!/bin/sh
# cuenv install --for answers from the framework's own wheel on the
# package index, as `cuenv needs NAME==VERSION` reads it, and falls back
# to the shipped table only when the index cannot answer. A local index
# holds "torch 2.1.2" whose torch/version.py says CUDA 11.2 and whose
# METADATA pins nvidia-cudnn-cu11==8.1.1.33 (versions the fixture mirror
# has): `install --for torch==2.1` takes the newest 2.1.x on the index
# and installs 11.2.2 with cuDNN 8.1.1.33, where the stale table says
# 11.8 with cuDNN 8.7.0.84 (which old cuenv answered, and could not
# install: exit 9). With the index unreachable, the table answers and
# says why.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
c112=$CUENV_ROOT/versions/cuda/11.2.2
torch_index "$idx" ' ; platform_system == "Linux"' &&
	use_mirror &&
	serve_start "$idx" PYPI &&
	CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_PYPI_INDEX &&
	expect_code 0 cuenv install --for torch==2.1 &&
	cat "$E2E_ERR" &&
	stderr_has "cuenv: torch 2.1.2 was built with CUDA 11.2 and cuDNN 8.1.1 or later (its wheel torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl on $PYPI_URL/simple)" &&
	stderr_has "cuenv: installing cuda 11.2.2 (runfile)" &&
	stderr_has "cuenv: installing cudnn 8.1.1.33 for CUDA 11 (tarball)" &&
	stdout_has "installed cuda 11.2.2 in $c112 (" &&
	stderr_lacks "11.8" &&
	# offline: the shipped table, and why
	CUENV_PYPI_INDEX=http://127.0.0.1:9/simple &&
	expect_code 17 cuenv install --for torch==2.1 &&
	stderr_has "cuenv: cannot download 'http://127.0.0.1:9/simple/torch/'" &&
	stderr_has "; the shipped framework table answers" &&
	stderr_has "cuenv: pytorch 2.1 was built and tested with CUDA 12.1 and cuDNN 8.9.2.26"
