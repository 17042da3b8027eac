#!/bin/sh
# cuenv install --for FRAMEWORK==VERSION: the CUDA and cuDNN come from the
# repository's manifests/compat/frameworks.tsv (copied into the fixture
# catalogue), and the install then goes as `cuenv install <cuda> --cudnn
# <cudnn>` would, from the local test mirror: TensorFlow 2.6 gets 11.2.2
# (runfile) and cuDNN 8.1.1.33 (tarball), after which `cuenv needs` finds
# a TensorFlow-like folder satisfied. Where the fixtures lack the release
# a table row names (PyTorch 2.1's CUDA 12.1, JAX 0.4.20's CUDA 12.2),
# and what the release's other rows name too, the preferred row shows in
# the note and the error, and nothing is installed.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

c112=$CUENV_ROOT/versions/cuda/11.2.2
n8=$CUENV_ROOT/versions/cudnn/8.1.1.33-cuda11
use_mirror &&
	check "the fixture catalogue has no compat/frameworks.tsv" \
		[ -f "$CUENV_MANIFESTS/compat/frameworks.tsv" ] &&
	expect_code 0 cuenv install --for tensorflow==2.6 &&
	stderr_has "cuenv: tensorflow 2.6.0 was built and tested with CUDA 11.2 and cuDNN 8.1" &&
	stderr_has "cuenv: installing cuda 11.2.2 (runfile)" &&
	stderr_has "cuenv: installing cudnn 8.1.1.33 for CUDA 11 (tarball)" &&
	stdout_has "installed cuda 11.2.2 in $c112 (" &&
	stdout_has "installed cudnn 8.1.1.33 for CUDA 11 in $n8 (" &&
	staging_empty &&
	fake_tensorflow "$HOME/site-packages/tensorflow" &&
	expect_code 0 cuenv needs "$HOME/site-packages/tensorflow" &&
	stdout_has "    found in    $c112/targets/x86_64-linux/lib/libcudart.so.11.0" &&
	stdout_has "    found in    $c112/extras/CUPTI/lib64/libcupti.so.11.2" &&
	stdout_has "    found in    $n8/lib64/libcudnn.so.8" &&
	stdout_has "installed: cuda 11.2.2 + cudnn 8.1.1.33 (cuda11) provides everything" &&
	# Again: already there.
	expect_code 0 cuenv install --for tensorflow==2.6 &&
	stdout_has "cuda 11.2.2 is already installed ($c112)" &&
	# --cudnn still wins over the table's.
	expect_code 17 cuenv install --for tensorflow==2.6 --cudnn 7 &&
	stderr_has "cuenv: error: no cuDNN 7 for CUDA 11 in the catalogue" &&
	# PyTorch: the variant of its wheel on PyPI, 12.1 for 2.1 (the index
	# is unreachable here: the table answers, and says so).
	expect_code 17 cuenv install --for torch==2.1 &&
	stderr_has "; the shipped framework table answers" &&
	stderr_has "cuenv: pytorch 2.1 was built and tested with CUDA 12.1 and cuDNN 8.9.2.26" &&
	stderr_has "cuenv: error: no CUDA 12.1 in the catalogue" &&
	stderr_has "hint: see: cuenv list-remote cuda; newer releases from NVIDIA: cuenv update" &&
	nothing_half_made cuda 11.8.0 &&
	expect_code 17 cuenv install --for jax==0.4.20 &&
	stderr_has "cuenv: jax 0.4.20 was built and tested with CUDA 12.2 and cuDNN 8.9" &&
	stderr_has "cuenv: error: no CUDA 12.2 in the catalogue" &&
	# What it refuses.
	expect_code 17 cuenv install --for tensorflow==1.99 &&
	stderr_has "cuenv: error: no tensorflow 1.99 with CUDA in the framework table" &&
	expect_code 2 cuenv install --for tensorflow==two &&
	stderr_has "cuenv: error: --for: 'tensorflow==two' is not FRAMEWORK==VERSION" &&
	expect_code 2 cuenv install --for caffe==1.0 &&
	stderr_has "hint: frameworks: tensorflow, torch (pytorch), jax" &&
	expect_code 2 cuenv install 12.4 --for tensorflow==2.6 &&
	stderr_has "cuenv: error: install: give a SPEC or --for, not both" &&
	expect_stdout "  cuda   11.2.2                $c112
  cudnn  8.1.1.33 (cuda11)     $n8" cuenv versions
