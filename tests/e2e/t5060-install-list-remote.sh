#!/bin/sh
# cuenv list-remote over the catalogue: CUDA releases with their sources
# (runfile before 11.4, redist after; pypi where pypi.tsv says the package
# index has it), the newest patch of each minor
# unless --all, cuDNN builds per CUDA major, and the kind and prefix
# filters.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	CUENV_MANIFESTS=$FX/manifests && export CUENV_MANIFESTS &&
	expect_stdout "cuda   10.2.89      runfile
cuda   11.2.2       runfile
cuda   11.8.0       redist, pypi
cuda   12.4.1       redist, pypi
cudnn  8.1.1.33     for CUDA 11 (tarball)
cudnn  9.1.0.70     for CUDA 11 (redist)
cudnn  9.1.0.70     for CUDA 12 (redist)" cuenv list-remote &&
	expect_stdout "cuda   12.4.0       redist
cuda   12.4.1       redist, pypi" cuenv list-remote cuda 12 --all &&
	expect_stdout "cuda   12.4.1       redist, pypi" cuenv list-remote cuda 12.4 &&
	expect_stdout "cudnn  8.1.1.33     for CUDA 11 (tarball)
cudnn  9.1.0.70     for CUDA 11 (redist)
cudnn  9.1.0.70     for CUDA 12 (redist)" cuenv list-remote cudnn &&
	expect_stdout "cuda   11.2.2       runfile
cuda   11.8.0       redist, pypi" cuenv list-remote 11 &&
	# No network is needed, and nothing is written to the store.
	check "list-remote wrote to the store" [ ! -e "$CUENV_ROOT" ] &&
	expect_code 2 cuenv list-remote bogus &&
	expect_code 3 env CUENV_MANIFESTS="$FX/bad/corrupt-json/manifests" cuenv list-remote &&
	stderr_has "$FX/bad/corrupt-json/manifests/cuda/redistrib_12.4.1.json"
