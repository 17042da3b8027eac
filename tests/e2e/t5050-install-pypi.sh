#!/bin/sh
# --source pypi: NVIDIA's wheels from a PEP 691 package index (a local one):
# the runtime and CUPTI of 12.4 and 11.8 side by side, each wheel checked
# against the index's sha256, the libraries in lib/ (no Python files), each
# wheel's .dist-info kept under dist-info/. A wrong sha256 on the index
# page is an integrity error (exit 5) that installs nothing.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

c118=$CUENV_ROOT/versions/cuda/11.8.0
c124=$CUENV_ROOT/versions/cuda/12.4.1
fixtures &&
	serve_start "$FX/pypi" PYPI &&
	CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_MANIFESTS CUENV_PYPI_INDEX &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart,cuda_cupti &&
	stderr_has "cuenv: installing cuda 12.4.1 (pypi)" &&
	stdout_has "installed cuda 12.4.1 in $c124 (" &&
	expect_code 0 cuenv install 11.8 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "installed cuda 11.8.0 in $c118 (" &&
	expect_stdout "  cuda   11.8.0                $c118
  cuda   12.4.1                $c124" cuenv versions &&
	staging_empty &&
	# The wheels the catalogue's component versions name, from the index.
	expect_stdout "GET /packages/nvidia_cuda_cupti_cu11-11.8.87-py3-none-manylinux2014_x86_64.whl - 200
GET /packages/nvidia_cuda_cupti_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl - 200
GET /packages/nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux2014_x86_64.whl - 200
GET /packages/nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl - 200
GET /simple/nvidia-cuda-cupti-cu11/ - 200
GET /simple/nvidia-cuda-cupti-cu12/ - 200
GET /simple/nvidia-cuda-runtime-cu11/ - 200
GET /simple/nvidia-cuda-runtime-cu12/ - 200" sort "$PYPI_LOG" &&
	expect_stdout "$c118/dist-info/nvidia_cuda_cupti_cu11-11.8.87.dist-info/METADATA
$c118/dist-info/nvidia_cuda_runtime_cu11-11.8.89.dist-info/METADATA
$c124/dist-info/nvidia_cuda_cupti_cu12-12.4.127.dist-info/METADATA
$c124/dist-info/nvidia_cuda_runtime_cu12-12.4.127.dist-info/METADATA" \
		sh -c "ls -d '$CUENV_ROOT'/versions/cuda/*/dist-info/*/METADATA" &&
	check "Python files were installed" \
		[ -z "$(find "$CUENV_ROOT/versions" -name '*.py' -o -name nvidia)" ] &&
	mkdir p11 p12 &&
	printf 'cuda = 11.8\n' >p11/.cuenv &&
	printf 'cuda = 12.4\n' >p12/.cuenv &&
	(cd p12 && expect_stdout "$c124/lib/libcudart.so.12" cuenv which libcudart.so.12) &&
	(cd p12 && expect_stdout "$c124/lib/libcupti.so.12" cuenv which libcupti.so.12) &&
	(cd p11 && expect_stdout "$c118/lib/libcudart.so.11.0" cuenv which libcudart.so.11.0) &&
	(cd p11 && expect_stdout "$c118/lib/libcupti.so.11.8" cuenv which libcupti.so.11.8) &&
	# the linker names NVIDIA's archives carry, the wheels not: each to
	# its soname file (CUPTI's is libcupti.so.11.8)
	expect_stdout "libcudart.so.12" readlink "$c124/lib/libcudart.so" &&
	expect_stdout "libcudart.so.11.0" readlink "$c118/lib/libcudart.so" &&
	expect_stdout "libcupti.so.11.8" readlink "$c118/lib/libcupti.so" &&
	expect_stdout "0 12040" dlver "$c124/lib/libcudart.so" cudaRuntimeGetVersion &&
	expect_stdout "0 12040" dlver "$c124/lib/libcudart.so.12" cudaRuntimeGetVersion &&
	expect_stdout "0 11080" dlver "$c118/lib/libcudart.so.11.0" cudaRuntimeGetVersion &&
	expect_stdout "cuenv-fixture libcupti 11.8.87 (CUDA 11.8.0)" \
		sh -c "cd p11 && cuenv exec -- '$E2E_CACHE/dltool' libcupti.so.11.8 -id" &&
	# cuDNN's wheel for CUDA 12 too.
	expect_code 0 cuenv install 12.4 --source pypi --cudnn 9 --components cuda_cudart &&
	stdout_has "cuda 12.4.1 is already installed" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12 in $CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12 (" &&
	expect_stdout "libcudnn.so.9" readlink "$CUENV_ROOT/versions/cudnn/9.1.0.70-cuda12/lib/libcudnn.so" &&
	# A wrong sha256 on the index page: refused, nothing kept.
	cp -R "$FX/pypi" bad-index &&
	chmod -R u+w bad-index &&
	good=$(fxq '[f["sha256"] for f in d["pypi_projects"]["nvidia-cuda-runtime-cu12"] if f["version"] == "12.4.127" and "manylinux" in f["tag"]][0]') &&
	wrong=$(printf wrong | sha256sum | cut -d' ' -f1) &&
	sed "s/$good/$wrong/" "$FX/pypi/simple/nvidia-cuda-runtime-cu12/index.json" \
		>bad-index/simple/nvidia-cuda-runtime-cu12/index.json &&
	serve_stop PYPI &&
	serve_start "$HOME/bad-index" PYPI &&
	rm -rf "$CUENV_ROOT" &&
	expect_code 5 cuenv install 12.4 --source pypi --components cuda_cudart --index "$PYPI_URL/simple" &&
	stderr_has "sha256 mismatch for '$PYPI_URL/packages/nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl': expected $wrong, got $good" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "" ls -A "$CUENV_ROOT/cache"
