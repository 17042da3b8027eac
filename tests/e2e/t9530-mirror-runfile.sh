#!/bin/sh
# cuenv mirror of a release that comes as a runfile, with a cuDNN tarball:
# both laid out at their NVIDIA paths, and the mirror's catalogue holds
# their rows of cuda-runfiles.tsv and cudnn-tarballs.tsv (and no other),
# so that a node with that catalogue alone installs them over HTTP.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
run=$(fxq "d['runfiles']['11.2.2']['path']")
expect_code 0 cuenv mirror "$m" 11.2 --cudnn 8.1 &&
	stdout_has "mirrored 2 releases (2 files)" &&
	stderr_has "cuenv: fetched ${run#/} (" &&
	check "the runfile is not in the mirror" [ -f "$m$run" ] &&
	assert_eq "$(tail -n +2 "$m/cuenv-catalogue/cuda-runfiles.tsv" | cut -f1,2)" \
		"11.2.2	linux-x86_64" "the mirror's runfile rows" &&
	assert_eq "$(tail -n +2 "$m/cuenv-catalogue/cudnn-tarballs.tsv" | cut -f1)" \
		"8.1.1.33" "the mirror's tarball rows" &&
	check "the README lacks the runfile" grep -q "^  cuda 11.2.2 (runfile, linux-x86_64)" "$m/README.txt" || exit 1

serve_stop SERVER
unset CUENV_MIRROR
CUENV_MANIFESTS=$m/cuenv-catalogue
export CUENV_MANIFESTS
http_start "$m" &&
	as_root node &&
	expect_code 0 cuenv list-remote cuda &&
	stdout_has "11.2.2" &&
	stdout_lacks "12.4" &&
	expect_code 0 cuenv install --mirror "$HTTP_URL" 11.2 --cudnn 8.1 &&
	stdout_has "installed cuda 11.2.2" &&
	stdout_has "installed cudnn 8.1.1.33 for CUDA 11"
