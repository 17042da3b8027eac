#!/bin/sh
# cuenv update --frameworks refreshes the framework table that install
# --for falls back on offline, from the package index: for each minor
# release of torch (and tensorflow, absent here: skipped with a warning),
# its newest wheel's metadata, read by range requests. A local index holds
# torch 2.1.1 and 2.1.2 (version.py CUDA 11.2, METADATA pin
# nvidia-cudnn-cu11==8.1.1.33) and 2.0.1 (11.7): the table gets one row
# per minor, from the newest release, and once the index is unreachable
# `install --for torch==2.1` answers from that row (11.2 with cuDNN
# 8.1.1, which the fixture mirror has), not from the shipped table's.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
t=$CUENV_ROOT/manifests/compat/frameworks.tsv
torch_index "$idx" &&
	use_mirror &&
	serve_start "$idx" PYPI &&
	expect_code 0 cuenv update --frameworks --index "$PYPI_URL/simple" &&
	stdout_has "2 framework releases read from $PYPI_URL/simple (" &&
	stderr_has "cuenv: warning: skipped tensorflow: " &&
	expect_stdout "framework	version	cuda	cudnn	source	notes
pytorch	2.1	11.2	8.1.1	PyPI torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl, read by cuenv update from $PYPI_URL/simple	PyPI default wheel
pytorch	2.0	11.7	8.5.0	PyPI torch-2.0.1-cp311-cp311-manylinux1_x86_64.whl, read by cuenv update from $PYPI_URL/simple	PyPI default wheel" cat "$t" &&
	# offline now: the refreshed table answers
	expect_code 0 cuenv install --for torch==2.1 &&
	stderr_has "; the shipped framework table answers" &&
	stderr_has "cuenv: pytorch 2.1 was built and tested with CUDA 11.2 and cuDNN 8.1.1" &&
	stderr_has "cuenv: installing cudnn 8.1.1.33 for CUDA 11 (tarball)" &&
	expect_code 4 cuenv update --frameworks --index http://127.0.0.1:9/simple &&
	stderr_has "cuenv: error: no framework release read from 'http://127.0.0.1:9/simple'"
