#!/bin/sh
# ONLINE: NVIDIA's real wheels from pypi.org with the real catalogue (the
# repository's manifests/): the CUDA runtime and CUPTI of 11.8 and of 12.4
# side by side, then each real library loaded with dlopen from the path
# `cuenv which` prints. cudaRuntimeGetVersion must say 12040 for 12.4 and
# 11080 for 11.8 (CUDA 11's runtime answers that only with a driver: on a
# machine without one it must say cudaErrorInsufficientDriver, 35), and
# cuptiGetVersion the CUPTI API of each release (18 for 11.8, 22 for 12.4).
# Skipped when the index's page for nvidia-cuda-runtime-cu12 does not answer
# within 15 s (the whole /simple/ listing is tens of MB: too slow a probe).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need cc
if command -v curl >/dev/null 2>&1; then
	curl -sSf --max-time 15 -o /dev/null \
		https://pypi.org/simple/nvidia-cuda-runtime-cu12/ 2>/dev/null
else
	need python3
	python3 -c 'import urllib.request
urllib.request.urlopen(
    "https://pypi.org/simple/nvidia-cuda-runtime-cu12/", timeout=15).read(1)' 2>/dev/null
fi || skip "https://pypi.org/simple/ is not reachable within 15 s (offline)"

c118=$CUENV_ROOT/versions/cuda/11.8.0
c124=$CUENV_ROOT/versions/cuda/12.4.1
unset CUENV_MANIFESTS CUENV_MIRROR CUENV_PYPI_INDEX
# The real catalogue is found next to the binary (build/<x>/std/../../
# manifests). A build tree deeper than that (BUILDROOT=build/inst) has none
# there: then the same catalogue goes where `cuenv update` puts one.
if ! cuenv list-remote cuda 12.4 >/dev/null 2>"$HOME/catalogue.err"; then
	if grep -q "no catalogue found" "$HOME/catalogue.err"; then
		echo "note: no catalogue next to $CUENV_BIN: using $e2e/../../manifests as $CUENV_ROOT/manifests"
		mkdir -p "$CUENV_ROOT" &&
			ln -s "$(cd "$e2e/../../manifests" && pwd)" "$CUENV_ROOT/manifests"
	fi
fi
expect_stdout "cuda   11.8.0       redist, pypi" cuenv list-remote cuda 11.8 &&
	expect_code 0 cuenv install 11.8 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "installed cuda 11.8.0 in $c118 (" &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart,cuda_cupti &&
	stdout_has "installed cuda 12.4.1 in $c124 (" &&
	expect_stdout "  cuda   11.8.0                $c118
  cuda   12.4.1                $c124" cuenv versions &&
	staging_empty &&
	# The wheels the catalogue names: runtime 11.8.89 / 12.4.127, CUPTI
	# 11.8.87 / 12.4.127.
	expect_stdout "$c118/dist-info/nvidia_cuda_cupti_cu11-11.8.87.dist-info
$c118/dist-info/nvidia_cuda_runtime_cu11-11.8.89.dist-info
$c124/dist-info/nvidia_cuda_cupti_cu12-12.4.127.dist-info
$c124/dist-info/nvidia_cuda_runtime_cu12-12.4.127.dist-info" \
		sh -c "ls -d '$CUENV_ROOT'/versions/cuda/*/dist-info/*" &&
	mkdir p11 p12 &&
	printf 'cuda = 11.8\n' >p11/.cuenv &&
	printf 'cuda = 12.4\n' >p12/.cuenv &&
	rt12=$(cd p12 && cuenv which libcudart.so.12) &&
	cu12=$(cd p12 && cuenv which libcupti.so.12) &&
	rt11=$(cd p11 && cuenv which libcudart.so.11.0) &&
	cu11=$(cd p11 && cuenv which libcupti.so.11.8) &&
	assert_eq "$rt12" "$c124/lib/libcudart.so.12" "cuenv which libcudart.so.12" &&
	assert_eq "$rt11" "$c118/lib/libcudart.so.11.0" "cuenv which libcudart.so.11.0" &&
	expect_stdout "0 12040" dlver "$rt12" cudaRuntimeGetVersion &&
	expect_stdout "0 22" dlver "$cu12" cuptiGetVersion &&
	expect_stdout "0 18" dlver "$cu11" cuptiGetVersion &&
	expect_code 0 dlver "$rt11" cudaRuntimeGetVersion &&
	if dlload libcuda.so.1 >/dev/null 2>&1; then
		expect_stdout "0 11080" dlver "$rt11" cudaRuntimeGetVersion
	else
		echo "note: no NVIDIA driver (libcuda.so.1): CUDA 11.8's runtime" \
			"cannot tell its version; checked that it says so"
		expect_stdout "35 0" dlver "$rt11" cudaRuntimeGetVersion
	fi &&
	# The selection's loader path picks each release's own runtime.
	(cd p12 && expect_stdout "0 12040" cuenv exec -- "$E2E_CACHE/dltool" libcudart.so.12 cudaRuntimeGetVersion) &&
	(cd p11 && expect_stdout "0 18" cuenv exec -- "$E2E_CACHE/dltool" libcupti.so.11.8 cuptiGetVersion)
