#!/bin/sh
# NVIDIA's real aarch64 wheels (issue 25): the CUDA 12.4 runtime and
# CUPTI and cuDNN 9.10 for CUDA 12, manylinux aarch64, their members
# fetched and pinned by wheels.py, laid out as pip lays out a
# site-packages. `cuenv add` registers their versions from the wheels'
# own metadata, and `cuenv needs` reads the aarch64 ELF files: what each
# provides (its DT_SONAME) and that none of them names a CUDA library as
# DT_NEEDED (readelf -d). Run by the aarch64 cuenv under qemu and, when
# tests/aarch64/run.sh found one, by this machine's cuenv: the answers
# are the same. Expected values written by hand from the METADATA files
# (Version: 12.4.127, 12.4.127, 9.10.2.21) and readelf -d.
e2e=$(cd "$(dirname "$0")/../e2e" && pwd) || exit 1
. "$e2e/lib.sh"

w=$E2E_CACHE/aarch64-wheels
[ -d "$w/cudart-12.4-aarch64" ] ||
	skip "no aarch64 wheels (tests/aarch64/wheels.py fetch: the index cannot be reached)"
need jq
site=$HOME/site-packages

# judge CUENV: add and needs by that binary, in a root of their own.
judge() {
	CUENV_ROOT=$HOME/root-$2 &&
		export CUENV_ROOT &&
		expect_code 0 "$1" add cuda "$site/nvidia" &&
		stdout_has "registered cuda 12.4 from $site/nvidia (CUPTI 12.4.127)" &&
		stdout_has "registered cudnn 9.10.2.21 for CUDA 12 from $site/nvidia/cudnn" &&
		expect_code 0 "$1" versions --json &&
		cp "$E2E_OUT" versions.json &&
		expect_stdout "12.4 12 12.4.127 12.4.127 12.4.127 9.10.2.21" \
			jq -r '.cuda[0] | "\(.version) \(.cuda_major) \(.cupti) \(.components.cuda_runtime_cu12) \(.components.cuda_cupti_cu12) \(.components.cudnn_cu12)"' versions.json &&
		expect_stdout "9.10.2.21 9.10.2.21-cuda12 12" \
			jq -r '.cudnn[0] | "\(.version) \(.name) \(.cuda_major)"' versions.json &&
		expect_code 0 "$1" needs --json "$site/nvidia" &&
		cp "$E2E_OUT" needs.json &&
		expect_stdout "4 0 libcudart.so.12 libcudnn.so.9 libcudnn_graph.so.9 libcupti.so.12" \
			jq -r '"\(.files_read) \(.sonames | length) \([.provides[].soname] | sort | join(" "))"' needs.json &&
		expect_code 0 "$1" needs "$site/nvidia/cudnn/lib/libcudnn.so.9" &&
		stdout_has "no CUDA library is named by these files (1 ELF file read)"
}

mkdir -p "$site" &&
	for a in cudart-12.4-aarch64 cupti-12.4-aarch64 cudnn-9.10-aarch64; do
		cp -R "$w/$a/." "$site/" || exit 1
	done &&
	expect_code 0 file -L "$site/nvidia/cuda_runtime/lib/libcudart.so.12" &&
	stdout_has "ARM aarch64" &&
	judge cuenv emulated || exit 1
if [ -x "$E2E_CACHE/native-cuenv" ]; then
	judge "$E2E_CACHE/native-cuenv" native
fi
