#!/bin/sh
# tests/gpu/evidence.sh on the machine's real toolkit (need_real_cuda): its
# real cudart, CUPTI, nvcc and cuDNN made into a file:// mirror of NVIDIA's
# redist layout, installed through cuenv (sha256-checked), then checked
# healthy and broken. Here, without a GPU, every check stops at the
# driver layer, but the JSON reports must show the installed copies'
# files and real versions; with CUPTI removed and a foreign copy first on
# LD_LIBRARY_PATH, check must name that copy and doctor must find both
# faults. On a machine with a GPU the script itself expects every layer to
# pass (exit 0) and the broken selection to fail at CUPTI (exit 14).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need_real_cuda
need python3
need jq
r=$REAL_CUDA
ev=$HOME/evidence

j() {
	jq -r "$2" "$ev/$1"
}

expect_code 0 sh "$e2e/../gpu/evidence.sh" -o "$ev" --cuda "$r" \
	--compress none || {
	cat "$ev/README.md" 2>/dev/null
	exit 1
}
cat "$E2E_OUT"
dnn=$(awk '/#define CUDNN_MAJOR /{a=$3} /#define CUDNN_MINOR /{b=$3}
	/#define CUDNN_PATCHLEVEL /{c=$3} END{if (a != "") print a"."b"."c}' \
	"$r/include/cudnn_version.h" 2>/dev/null)
major=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\)$/\1/p' "$r/include/cuda.h")
major=$((major / 1000))
gpu=
if PATH=$PATH:$E2E_HOST_PATH nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	gpu=1
fi

for f in README.md check-healthy.json check-missing.json check-broken.json \
	doctor-broken.json; do
	check "$f written" [ -s "$ev/$f" ] || exit 1
done
# the healthy selection: every library from the install, none foreign
check "runtime from the install" \
	j check-healthy.json '.layers[1].file' | grep -q "^\$WORK/root/versions/cuda/.*/libcudart.so.$major\$" &&
	assert_eq "$(j check-healthy.json '[.layers[].foreign] | any')" false "foreign" &&
	assert_eq "$(j check-healthy.json '.layers[4].soname')" "libcupti.so.$major" "CUPTI soname" &&
	check "CUPTI from the install" \
		j check-healthy.json '.layers[4].file' | grep -q '^\$WORK/root/versions/cuda/' &&
	assert_eq "$(j check-healthy.json '.layers[2].details.compile')" ok \
		"the installed nvcc built the test program" &&
	if [ -n "$dnn" ]; then
		assert_eq "$(j check-healthy.json '.layers[3].version')" "$dnn" "cuDNN" &&
			check "cuDNN from the install" \
				j check-healthy.json '.layers[3].file' | grep -q '^\$WORK/root/versions/cudnn/'
	fi &&
	if [ -z "$gpu" ]; then
		assert_eq "$(j check-healthy.json '.failed')" driver "no GPU: driver layer"
	else
		assert_eq "$(j check-healthy.json '.exit')" 0 "every layer passes"
	fi &&
	# broken: the foreign copy is named, and doctor finds both faults
	assert_eq "$(j check-broken.json '.layers[4].file')" \
		"\$WORK/foreign/libcupti.so.$major" "the copy check names" &&
	assert_eq "$(j check-broken.json '.layers[4].status')" fail "CUPTI layer" &&
	assert_eq "$(j check-broken.json '.layers[4].foreign')" true "foreign" &&
	check "check's fix names the folder" \
		j check-broken.json '.layers[4].fix' | grep -q 'take \$WORK/foreign off LD_LIBRARY_PATH' &&
	assert_eq "$(j doctor-broken.json '[.findings[] | select(.severity == "problem") | .id] | map(select(. == "missing-soname" or . == "foreign-ld-library-path")) | unique | join(" ")')" \
		"foreign-ld-library-path missing-soname" "doctor's findings" &&
	check "no temporary folder left" [ -z "$(ls "$TMPDIR")" ]
