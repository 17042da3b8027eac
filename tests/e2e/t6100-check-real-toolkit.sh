#!/bin/sh
# The machine's real CUDA toolkit (need_real_cuda), registered: cuenv
# check loads its real libcudart, cuDNN (when it has one) and CUPTI and
# reports their real versions and files. Without a GPU driver the driver
# layer fails (exit 10) and the GPU layers are skipped, never passed; on a
# machine with one, every layer passes, --compile too (nvcc builds and
# runs a program). Skipped where there is no toolkit.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

CUENV_MANIFESTS=$(cd "$e2e/../../manifests" && pwd) && export CUENV_MANIFESTS
need_real_cuda
need jq
r=$REAL_CUDA
gpu=
if PATH=$PATH:$E2E_HOST_PATH nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	gpu=1
fi
rel=$("$r/bin/nvcc" --version | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
major=${rel%%.*}
inc=$r/include
# the versions the headers say, to compare with what the libraries say
dnn_h=$inc/cudnn_version.h
[ -f "$dnn_h" ] || dnn_h=$(ls "$r"/include/cudnn_version*.h 2>/dev/null | head -n 1)
dnn=
if [ -n "$dnn_h" ] && [ -f "$dnn_h" ]; then
	dnn=$(awk '/#define CUDNN_MAJOR /{a=$3} /#define CUDNN_MINOR /{b=$3}
		/#define CUDNN_PATCHLEVEL /{c=$3} END{if (a != "") print a"."b"."c}' "$dnn_h")
fi
api=$(sed -n 's/^#define CUPTI_API_VERSION \([0-9]*\).*/\1/p' "$r/include/cupti_version.h" "$r"/extras/CUPTI/include/cupti_version.h 2>/dev/null | head -n 1)
if [ -n "$api" ] && [ "$api" -ge 100000 ]; then
	api_shown=$((api / 10000)).$((api % 10000 / 100)).$((api % 100))
else
	api_shown=$api
fi
echo "toolkit $r: CUDA $rel, cuDNN ${dnn:-none}, CUPTI API ${api:-?}, GPU ${gpu:-none}"

j() {
	jq -r "$1" "$E2E_OUT"
}

# a loaded file must be the toolkit's own, and a real library
is_real() {
	case $1 in
	"$r"/*) ;;
	*)
		fail "$2 is $1, not in $r"
		return 1
		;;
	esac
	check "$1 does not exist" [ -f "$1" ] &&
		check "$1 is not a real library" [ "$(wc -c <"$1")" -gt 100000 ]
}

expect_code 0 cuenv add cuda "$r" &&
	mkdir proj && cd proj &&
	expect_code 0 cuenv local "$rel" ${dnn:+--cudnn "${dnn%%.*}"} || exit 1
if [ -n "$gpu" ]; then
	expect_code 0 cuenv check --compile &&
		cat "$E2E_OUT" &&
		stdout_has "ok: " &&
		stdout_lacks "FAIL"
	exit 0
fi
expect_code 10 cuenv check --json &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	assert_eq "$(j '.failed')" driver "failed layer" &&
	assert_eq "$(j '.layers[0].status')" fail "driver" &&
	assert_eq "$(j '[.layers[1:][].status] | unique | join(" ")')" skip "the GPU layers" &&
	assert_eq "$(j '.layers[1].version')" "$(echo "$rel" | cut -d. -f1-2)" "libcudart's version" &&
	is_real "$(j '.layers[1].file')" libcudart &&
	assert_eq "$(j '.layers[1].soname')" "libcudart.so.$major" "libcudart's soname" &&
	assert_eq "$(j '.layers[4].version')" "$api_shown" "CUPTI's version" &&
	is_real "$(j '.layers[4].file')" libcupti &&
	assert_eq "$(j '[.layers[].foreign] | any')" false "foreign" &&
	if [ -n "$dnn" ]; then
		assert_eq "$(j '.layers[3].version')" "$dnn" "cuDNN's version" &&
			is_real "$(j '.layers[3].file')" libcudnn &&
			check "cuDNN built for CUDA $major" [ "$(j '.layers[3].details.cuda' | cut -d. -f1)" = "$major" ]
	fi &&
	# the files are what cuenv which names
	expect_code 0 cuenv which "libcudart.so.$major" &&
	w=$(cat "$E2E_OUT") &&
	expect_code 10 cuenv check &&
	cat "$E2E_OUT" &&
	stdout_has "$w" &&
	check "runtime line" grep -q "^runtime  skip  $(echo "$rel" | cut -d. -f1-2) " "$E2E_OUT" &&
	stderr_has "cuenv: error: driver: no NVIDIA driver: libcuda.so.1 cannot be loaded" &&
	# --compile: the real nvcc builds the program; running it needs a GPU
	expect_code 10 cuenv check --compile --json &&
	assert_eq "$(j '.layers[2].details.compile')" ok "nvcc built the program" &&
	assert_eq "$(j '.layers[2].status')" skip "kernel" &&
	check "temporary files removed" [ -z "$(ls "$TMPDIR")" ]
