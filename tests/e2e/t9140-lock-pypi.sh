#!/bin/sh
# Issue 23: a project installed from the package index (NVIDIA's host
# unreachable: the proxy refuses) is locked as installed: each wheel's
# source, url and sha256 from the receipt; `lock --source pypi` says the
# same; `install --locked` in a fresh root fetches exactly those wheels
# (CUDA's and cuDNN's)
# (no index page: nothing is looked up again) and installs what the first
# root has. `lock --source pypi` for a release not installed from the
# index names the command that installs it; a lock whose wheel url climbs
# is refused.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
index_only &&
	rtsha=$(fxq '[f["sha256"] for f in d["pypi_projects"]["nvidia-cuda-runtime-cu12"] if f["version"] == "12.4.127" and "manylinux" in f["tag"]][0]') &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv install --source pypi --components cuda_cudart,cuda_cupti &&
	check "cudnn was not installed" [ -d "$CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12" ] &&
	expect_code 0 cuenv lock --components cuda_cudart,cuda_cupti &&
	stdout_has "wrote $PWD/.cuenv.lock (3 components)" &&
	check "the lock does not say pypi" grep -q '"source": "pypi"' .cuenv.lock &&
	check "the lock names NVIDIA's source" [ -z "$(grep '"source": "redist"' .cuenv.lock)" ] &&
	check "the lock lacks cudnn's wheel" grep -q '"url": ".*/packages/nvidia_cudnn_cu12-9.1.0.70-.*whl"' .cuenv.lock &&
	check "the lock lacks the wheel's url" grep -q "\"url\": \"$PYPI_URL/packages/$rt\"" .cuenv.lock &&
	check "the lock lacks the wheel's sha256" grep -q "\"sha256\": \"$rtsha\"" .cuenv.lock &&
	expect_code 0 cuenv lock --check &&
	cp .cuenv.lock first.lock &&
	expect_code 0 cuenv lock --source pypi --components cuda_cudart,cuda_cupti &&
	expect_code 0 cmp first.lock .cuenv.lock &&
	# A fresh root: exactly the pinned wheels, no index page read.
	: >"$PYPI_LOG" &&
	expect_code 0 env CUENV_ROOT="$HOME/node1" cuenv install --locked &&
	stdout_has "installed cuda 12.4.1 in $HOME/node1/versions/cuda/12.4.1 (" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12 in $HOME/node1/versions/cudnn/9.1.0.70-cuda12 (" &&
	expect_stdout "GET /packages/$(fxq '[f["filename"] for f in d["pypi_projects"]["nvidia-cuda-cupti-cu12"] if f["version"] == "12.4.127" and "manylinux" in f["tag"]][0]') - 200
GET /packages/$rt - 200
GET /packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl - 200" sort "$PYPI_LOG" &&
	expect_stdout "$(grep -o '"url": "[^"]*"' "$v/.cuenv-receipt" | sort)" \
		sh -c "grep -o '\"url\": \"[^\"]*\"' '$HOME/node1/versions/cuda/12.4.1/.cuenv-receipt' | sort" &&
	(CUENV_ROOT=$HOME/node1 && export CUENV_ROOT &&
		expect_stdout "$HOME/node1/versions/cuda/12.4.1/lib/libcudart.so.12" cuenv which libcudart.so.12) &&
	# Not installed from the index: --source pypi cannot pin its wheels.
	mkdir p && printf 'cuda = 11.8\n' >p/.cuenv &&
	(cd p && expect_code 2 cuenv lock --source pypi) &&
	stderr_has "cuenv: error: lock: cuda 11.8.0 is not installed from the package index" &&
	stderr_has "hint: install it from there first: cuenv install 11.8 --source pypi" &&
	check "a lock was written" [ ! -e p/.cuenv.lock ] &&
	# A wheel url that climbs: refused, naming the file.
	sed "s|/packages/$rt|/packages/../$rt|" first.lock >.cuenv.lock &&
	expect_code 3 env CUENV_ROOT="$HOME/node2" cuenv install --locked &&
	stderr_has "bad lock file '$PWD/.cuenv.lock': url of cuda_cudart is not a wheel's" &&
	check "node2 got a version" [ ! -e "$HOME/node2/versions/cuda/12.4.1" ]
