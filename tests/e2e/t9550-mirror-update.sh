#!/bin/sh
# A node whose cuenv does not know a release the mirror holds: `cuenv
# update --mirror URL` reads the mirror's listing (python3 -m http.server's
# folder page, or the folder itself for file://), takes the release's
# redistrib_<version>.json that cuenv mirror put at NVIDIA's path, and
# `cuenv install` then installs it from the mirror, with the shipped
# catalogue and no CUENV_MANIFESTS. The release, 12.99.0, is the fixtures'
# 12.4.1 under a version no catalogue has (so no pin either). The mirror
# holds no cuDNN: its compute/cudnn/redist/ is there all the same, empty.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
mkdir -p "$HOME/cat" &&
	cp -R "$FX/manifests/compat" "$HOME/cat/" &&
	mkdir -p "$HOME/cat/cuda" &&
	sed 's/"release_label": "12.4.1"/"release_label": "12.99.0"/' \
		"$FX/manifests/cuda/redistrib_12.4.1.json" \
		>"$HOME/cat/cuda/redistrib_12.99.0.json" || exit 1
CUENV_MANIFESTS=$HOME/cat
export CUENV_MANIFESTS
expect_code 0 cuenv mirror "$m" 12.99.0 &&
	stderr_has "cuenv: wrote compute/cuda/redist/redistrib_12.99.0.json" || exit 1

serve_stop SERVER
unset CUENV_MIRROR CUENV_MANIFESTS
http_start "$m" || exit 1
as_root node1 &&
	expect_code 17 cuenv install --mirror "$HTTP_URL" 12.99.0 &&
	expect_code 0 cuenv update --mirror "$HTTP_URL" &&
	stdout_has "added cuda 12.99.0" &&
	expect_code 0 cuenv install --mirror "$HTTP_URL" 12.99.0 &&
	stdout_has "installed cuda 12.99.0 in $HOME/node1/versions/cuda/12.99.0" &&
	as_root node2 &&
	expect_code 0 cuenv update --mirror "file://$m" &&
	stdout_has "added cuda 12.99.0" &&
	expect_code 0 cuenv install --mirror "file://$m" 12.99.0 &&
	stdout_has "installed cuda 12.99.0"
