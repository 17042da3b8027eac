#!/bin/sh
# cuenv mirror for an air-gapped cluster: mirror two CUDA releases, a cuDNN
# for each and a --for pick from the tests' server into a folder; stop that
# server; then fresh roots install from the folder served by python3 -m
# http.server and as file://, with only the folder's own catalogue
# (cuenv-catalogue) for a catalogue. A second run fetches nothing: the
# server sees no request.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/shared/mirror
use_mirror || exit 1
expect_code 0 cuenv mirror "$m" 12.4.1 11.8.0 --cudnn 9.1 --for torch==2.5 &&
	stdout_has "mirrored 4 releases (17 files)" &&
	stdout_has "install from it with: cuenv install --mirror file://$m SPEC" &&
	stderr_has "cuenv: pytorch 2.5 was built and tested with CUDA 12.4 and cuDNN 9.1.0.70" &&
	stderr_has "cuenv: fetched compute/cuda/redist/$(comp 12.4.1 libcublas path | sed 's|^/compute/cuda/redist/||') (" &&
	stderr_has "cuenv: wrote compute/cuda/redist/redistrib_11.8.0.json" &&
	stderr_has "cuenv: wrote compute/cudnn/redist/redistrib_9.1.0.json" &&
	check "libcublas 11.8 is not in the mirror" \
		[ -f "$m$(comp 11.8.0 libcublas path)" ] &&
	check "the manifest differs from the catalogue's" \
		cmp -s "$m/compute/cuda/redist/redistrib_12.4.1.json" \
		"$FX/manifests/cuda/redistrib_12.4.1.json" &&
	check "no README.txt" grep -qF "cuenv install --mirror file://$m 12.4.1" "$m/README.txt" &&
	check "the index lacks 11.8.0" grep -q '"version": "11.8.0"' "$m/cuenv-mirror.json" &&
	check "no frameworks table in the catalogue" [ -f "$m/cuenv-catalogue/compat/frameworks.tsv" ] &&
	check "a download was left in tmp" [ -z "$(ls -A "$m/.cuenv-mirror/tmp")" ] || exit 1

# Again: everything is there and verified; not one request.
n=$(wc -l <"$SERVER_LOG")
expect_code 0 cuenv mirror "$m" 12.4.1 11.8.0 --cudnn 9.1 --for torch==2.5 &&
	stdout_has "fetched 0 (0 B), 0 from the cache, 17 already there" &&
	stderr_lacks "cuenv: fetched" &&
	assert_eq "$(wc -l <"$SERVER_LOG")" "$n" "requests to the server" || exit 1

# The original server is gone; the folder is all there is.
serve_stop SERVER
unset CUENV_MIRROR
CUENV_MANIFESTS=$m/cuenv-catalogue
export CUENV_MANIFESTS
http_start "$m" || exit 1
as_root node1 &&
	expect_code 0 cuenv install --mirror "$HTTP_URL" 12.4.1 --cudnn 9.1 &&
	stdout_has "installed cuda 12.4.1 in $HOME/node1/versions/cuda/12.4.1" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12" &&
	check "the HTTP server served no archive" \
		grep -q 'GET /compute/cuda/redist/libcublas/.* 200 ' "$HTTP_LOG" &&
	expect_code 0 cuenv install --mirror "$HTTP_URL" --for torch==2.5 &&
	stdout_has "cuda 12.4.1 is already installed" &&
	as_root node2 &&
	expect_code 0 cuenv install --mirror "file://$m" 11.8.0 --cudnn 9.1 &&
	stdout_has "installed cuda 11.8.0 in $HOME/node2/versions/cuda/11.8.0" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 11" &&
	printf 'cuda = 11.8.0\ncudnn = 9.1.0.70\n' >.cuenv &&
	expect_stdout "$HOME/node2/versions/cuda/11.8.0/lib/libcublasLt.so.11" \
		cuenv which libcublasLt.so.11 &&
	# The mirror's catalogue holds only what the mirror holds ...
	expect_code 17 cuenv install --mirror "file://$m" 12.4.0 &&
	stderr_has "cuenv: error: no CUDA 12.4.0 in the catalogue" &&
	# ... and with a larger one, what the mirror lacks fails, naming it.
	CUENV_MANIFESTS=$FX/manifests &&
	expect_code 4 cuenv install --mirror "file://$m" 12.4.0 &&
	stderr_has "cuenv: error: cannot download 'file://$m$(comp 12.4.0 cuda_cudart path)'" &&
	nothing_half_made cuda 12.4.0
