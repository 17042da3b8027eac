#!/bin/sh
# What install says: "installing cuda 12.4.1 (redist)" only when it does
# (a second install said it, then "already installed"); an archive that
# failed before a byte arrived says "failed (0 B of 1.1 MB)", not "failed
# (1.1 MB)"; and a download that fails with no mirror set names --mirror
# and CUENV_MIRROR. NVIDIA's servers are "unreachable" through a proxy
# that refuses connections, so nothing leaves the machine.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart &&
	stderr_has "cuenv: installing cuda 12.4.1 (redist)" &&
	# what the download cache keeps, and how to free it
	kb=$(du -sk "$CUENV_ROOT/cache" | cut -f1) &&
	check "nothing in the cache" [ "$kb" -gt 0 ] &&
	stderr_has "cuenv: the download cache keeps " &&
	stderr_has " of archives for later installs; to free it: cuenv gc --cache" &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart &&
	expect_stdout "cuda 12.4.1 is already installed ($v)" \
		cuenv install 12.4.1 --components cuda_cudart &&
	stderr_empty &&
	expect_code 0 cuenv install 12.4.0 --components cuda_cudart --quiet &&
	stderr_lacks "download cache" &&
	expect_code 0 cuenv gc --cache &&
	expect_code 0 cuenv uninstall 12.4.0 &&
	expect_code 0 cuenv install 12.4.0 --components cuda_cudart --no-cache &&
	stderr_lacks "download cache" || exit 1

# No mirror: NVIDIA's URLs, through a proxy that refuses (NVIDIA's
# chosen: with no source chosen the install would turn to the index)
unset CUENV_MIRROR
size=$(comp 11.8.0 cuda_cudart size)
expect_code 4 env https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
	CUENV_FETCH_RETRIES=0 cuenv install 11.8.0 --components cuda_cudart --source redist &&
	stderr_has "cuenv: cuda_cudart failed (0 B of " &&
	stderr_lacks "cuda_cudart failed ($(python3 -c "print('%.1f' % ($size / 1e6))") MB)" &&
	stderr_has "hint: if NVIDIA's servers cannot be reached from here, install from the package index (or a mirror: --mirror URL): cuenv install 11.8.0 --source pypi" &&
	nothing_half_made cuda 11.8.0
