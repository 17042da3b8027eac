#!/bin/sh
# cuenv lock pins the .cuenv's components; cuenv install --locked installs
# exactly those into an empty root from the local server; lock --check passes.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv lock &&
	stdout_has "wrote $PWD/.cuenv.lock (" &&
	check "the lock does not pin cuda_cudart's sha256" \
		grep -q "\"sha256\": \"$(comp 12.4.1 cuda_cudart sha256)\"" .cuenv.lock &&
	check "the lock names a mirror url" \
		grep -q '"url": "https://developer.download.nvidia.com/' .cuenv.lock &&
	expect_code 0 cuenv lock --check &&
	check "the root is not empty" [ ! -e "$CUENV_ROOT/versions" ] &&
	expect_code 0 cuenv install --locked &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	check "cuda 12.4.1 is not installed" [ -f "$v/.cuenv-receipt" ] &&
	expect_stdout "$v/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	staging_empty
