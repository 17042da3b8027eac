#!/bin/sh
# Issue 23: lock and mirror for the package index. A project installed
# from the index (NVIDIA's host unreachable: the proxy refuses) is
# locked; `cuenv mirror --source pypi` writes its wheels, an index of
# them (pypi/simple) and a catalogue into a folder, and a redist release
# joins them (a mixed mirror). With the index and NVIDIA's servers gone,
# fresh roots install from the folder alone: as file:// and over HTTP,
# from its wheels (--source pypi) and its archives, and --locked.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/shared/mirror
index_only &&
	serve_start "$FX/mirror" SERVER &&
	# The project, from the index, locked.
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv install --source pypi --components cuda_cudart,cuda_cupti &&
	expect_code 0 cuenv lock &&
	check "the lock does not pin the wheel" grep -q "/packages/$rt\"" .cuenv.lock &&
	# Its mirror: the wheels, their pages, the catalogue.
	expect_code 0 cuenv mirror "$m" 12.4 --cudnn 9 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "mirrored 2 releases (" &&
	check "the wheel is not in the mirror" [ -f "$m/pypi/packages/$rt" ] &&
	check "the mirror's page lacks the wheel" \
		grep -q "href=\"../../packages/$rt#sha256=$(sha256sum "$m/pypi/packages/$rt" | cut -d' ' -f1)\"" \
		"$m/pypi/simple/nvidia-cuda-runtime-cu12/index.html" &&
	check "no cuDNN page" [ -f "$m/pypi/simple/nvidia-cudnn-cu12/index.html" ] &&
	check "no pypi.tsv in the catalogue" cmp -s "$FX/manifests/pypi.tsv" "$m/cuenv-catalogue/pypi.tsv" &&
	check "no manifest in the catalogue" [ -f "$m/cuenv-catalogue/cuda/redistrib_12.4.1.json" ] &&
	check "the README lacks the index's command" grep -qF "cuenv install --mirror file://$m 12.4.1 --source pypi" "$m/README.txt" &&
	check "a download was left in tmp" [ -z "$(ls -A "$m/.cuenv-mirror/tmp")" ] &&
	# A redist release joins them.
	expect_code 0 cuenv mirror "$m" 11.8.0 --components cuda_cudart --mirror "$SERVER_URL" &&
	check "the index lost the wheels" grep -q "\"path\": \"pypi/packages/$rt\"" "$m/cuenv-mirror.json" &&
	check "the redist archive is not there" [ -f "$m$(comp 11.8.0 cuda_cudart path)" ] &&
	# Again: nothing fetched.
	: >"$PYPI_LOG" &&
	expect_code 0 cuenv mirror "$m" 12.4 --cudnn 9 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "fetched 0 (0 B)" &&
	check "a wheel was fetched again" [ -z "$(grep packages/ "$PYPI_LOG")" ] || exit 1

# Everything else is gone: the folder is all there is.
index=$PYPI_URL
serve_stop PYPI
serve_stop SERVER
CUENV_PYPI_INDEX=http://127.0.0.1:9/simple CUENV_MANIFESTS=$m/cuenv-catalogue
export CUENV_PYPI_INDEX CUENV_MANIFESTS
c=versions/cuda/12.4.1
as_root node1 &&
	expect_code 0 cuenv install --mirror "file://$m" 12.4 --cudnn 9 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "installed cuda 12.4.1 in $HOME/node1/$c (" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12 in $HOME/node1/versions/cudnn/9.1.0.70-cuda12 (" &&
	expect_stdout "$HOME/node1/$c/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_stdout "0 12040" dlver "$HOME/node1/$c/lib/libcudart.so.12" cudaRuntimeGetVersion &&
	as_root node2 &&
	expect_code 0 cuenv install --mirror "file://$m/" 11.8.0 --components cuda_cudart &&
	stdout_has "installed cuda 11.8.0 in $HOME/node2/versions/cuda/11.8.0 (" &&
	http_start "$m" &&
	as_root node3 &&
	expect_code 0 cuenv install --mirror "$HTTP_URL" 12.4 --source pypi --components cuda_cudart &&
	stdout_has "installed cuda 12.4.1 in $HOME/node3/$c (" &&
	check "the HTTP server served no wheel" grep -q "GET /pypi/packages/$rt .* 200 " "$HTTP_LOG" &&
	# The lock, from the mirror: the wheels it pins, by their names.
	as_root node4 &&
	expect_code 0 cuenv install --locked --mirror "file://$m/" &&
	stdout_has "installed cuda 12.4.1 in $HOME/node4/$c (" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12" &&
	check "the locked install lacks CUPTI" [ -n "$(ls "$HOME/node4/$c/lib/" | grep libcupti)" ] &&
	# The same lock with no mirror: its wheels are not on the index in
	# force (CUENV_PYPI_INDEX, a refusing one here), so nothing is
	# fetched from the host the lock names.
	as_root node5 &&
	expect_code 5 cuenv install --locked &&
	stderr_has "/packages/$rt' is not on the package index in force ('http://127.0.0.1:9/simple')" &&
	stderr_lacks "pypi has no" &&
	nothing_half_made cuda 12.4.1
