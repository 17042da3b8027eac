#!/bin/sh
# An install of the CUDA 12 runtime from the package index on an ARM
# server (issue 25): the aarch64 cuenv under qemu, the shipped catalogue
# (linux-sbsa), a local index serving NVIDIA's real manylinux2014_aarch64
# runtime wheel (pinned by sha256, from wheels.py's cache) beside the
# x86_64 one of the fixtures. cuenv takes the aarch64 wheel, checks it and
# installs libcudart.so.12; an aarch64 program (cross-compiled here)
# dlopens it under qemu and calls cudaRuntimeGetVersion (no GPU needed:
# 12040, CUDART_VERSION of 12.4's cuda_runtime_api.h).
e2e=$(cd "$(dirname "$0")/../e2e" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

whl=nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_aarch64.whl
sha=961fe0e2e716a2a1d967aab7caee97512f71767f852f67432d572e36cb3a11f3
w=$E2E_CACHE/aarch64-wheels
[ -f "$w/wheels/$whl" ] ||
	skip "no aarch64 wheels (tests/aarch64/wheels.py fetch: the index cannot be reached)"
need aarch64-linux-gnu-gcc
need qemu-aarch64-static
idx=$HOME/index
v=$CUENV_ROOT/versions/cuda/12.4.1

# The index: the real aarch64 wheel, and an x86_64 decoy named as NVIDIA
# names theirs (a wheel that must not be taken).
mkdir -p "$idx/packages" "$idx/simple/nvidia-cuda-runtime-cu12" &&
	cp "$w/wheels/$whl" "$idx/packages/" &&
	printf 'not a wheel\n' >"$idx/packages/decoy.whl" &&
	decoy=$(sha256sum "$idx/packages/decoy.whl" | cut -d' ' -f1) &&
	cat >"$idx/simple/nvidia-cuda-runtime-cu12/index.json" <<JSON &&
{"meta": {"api-version": "1.1"}, "name": "nvidia-cuda-runtime-cu12",
 "versions": ["12.4.127"], "files": [
 {"filename": "nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl",
  "url": "../../packages/decoy.whl", "hashes": {"sha256": "$decoy"}, "size": 12},
 {"filename": "$whl", "url": "../../packages/$whl",
  "hashes": {"sha256": "$sha"}, "size": 894177}]}
JSON
	serve_start "$idx" PYPI &&
	CUENV_PYPI_INDEX=$PYPI_URL/simple && export CUENV_PYPI_INDEX &&
	expect_code 0 cuenv install 12.4.1 --source pypi --components cuda_cudart &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	check "the aarch64 wheel was not fetched" grep -q "GET /packages/$whl - 200" "$PYPI_LOG" &&
	check "the x86_64 decoy was fetched" [ -z "$(grep decoy "$PYPI_LOG")" ] &&
	expect_code 0 file -L "$v/lib/libcudart.so.12" &&
	stdout_has "ELF 64-bit LSB shared object, ARM aarch64" &&
	cat >dl.c <<'C' &&
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int (*get)(int *), v = 0, rc;

	if (argc != 2 || !h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&get = dlsym(h, "cudaRuntimeGetVersion");
	if (!get) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 1;
	}
	rc = get(&v);
	printf("loaded %s: cudaRuntimeGetVersion %d %d\n", argv[1], rc, v);
	return 0;
}
C
	expect_code 0 aarch64-linux-gnu-gcc -o dl dl.c -ldl &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_code 0 cuenv which libcudart.so.12 &&
	lib=$(cat "$E2E_OUT") &&
	assert_eq "$lib" "$v/lib/libcudart.so.12" "cuenv which libcudart.so.12" &&
	expect_stdout "loaded $lib: cudaRuntimeGetVersion 0 12040" \
		qemu-aarch64-static ./dl "$lib"
