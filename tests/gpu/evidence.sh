#!/bin/sh
# evidence.sh: prove cuenv against this machine's real CUDA libraries, and
# keep what it printed.
#
#   sh tests/gpu/evidence.sh [-o DIR] [--cuda PREFIX] [--cudnn PREFIX]
#                            [--compress xz|none]
#
#   1. mirror   tests/gpu/mkmirror.py turns the toolkit (CUDA_HOME,
#               /usr/local/cuda, or the nvcc on PATH) and cuDNN (in the
#               toolkit, or python3's nvidia.cudnn wheel) into NVIDIA's
#               redist layout under a file:// mirror, with a catalogue
#   2. install  cuenv install --mirror file://... into an empty CUENV_ROOT:
#               cudart, CUPTI, nvcc and cuDNN, checked by sha256
#   3. healthy  cuenv check --compile (every layer: driver, runtime, a
#               kernel built by the selection's nvcc, a cuDNN convolution,
#               a CUPTI trace), cuenv doctor
#   4. broken   CUPTI removed from the selection: cuenv check; then a
#               foreign copy of libcupti first on LD_LIBRARY_PATH: cuenv
#               check and cuenv doctor name it and the fix
#
# DIR (default docs/evidence/<date>-<host>) gets README.md, the transcript
# of every command with its output and exit status, and the JSON reports.
# The run fails (exit 1) when an outcome is not the one expected here: with
# a GPU, check passes when healthy and fails at the CUPTI layer (exit 14)
# when broken; without one, every check stops at the driver layer (exit
# 10) while the libraries' files and versions are still reported, and
# doctor names the foreign copy (exit 15) either way.
#
# cuenv, cuenv-net and cuenv-probe are taken from the repository's root
# (`make` first) or from $CUENV_BIN's folder.
set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 1
repo=$(cd "$here/../.." && pwd) || exit 1
out= cuda= cudnn= compress=xz
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--cuda) cuda=$2; shift 2 ;;
	--cudnn) cudnn=$2; shift 2 ;;
	--compress) compress=$2; shift 2 ;;
	*)
		echo "evidence.sh: unknown argument '$1'" >&2
		exit 2
		;;
	esac
done
bin=${CUENV_BIN:-$repo/cuenv}
[ -x "$bin" ] || { echo "evidence.sh: no cuenv at $bin: run make first" >&2; exit 2; }
out=${out:-$repo/docs/evidence/$(date +%Y-%m-%d)-$(hostname -s 2>/dev/null || echo host)}

# the toolkit, found as a user's set-up says
if [ -z "$cuda" ]; then
	for c in "${CUDA_HOME-}" /usr/local/cuda; do
		[ -n "$c" ] && [ -f "$c/include/cuda.h" ] && { cuda=$c; break; }
	done
fi
if [ -z "$cuda" ] && command -v nvcc >/dev/null 2>&1; then
	cuda=$(nvcc --dryrun -x cu /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -n 1)
fi
[ -n "$cuda" ] && [ -f "$cuda/include/cuda.h" ] ||
	{ echo "evidence.sh: no CUDA toolkit found (--cuda PREFIX)" >&2; exit 2; }
cuda=$(cd "$cuda" && pwd -P)
if [ -z "$cudnn" ] && ! ls "$cuda"/lib*/libcudnn.so.* >/dev/null 2>&1; then
	cudnn=$(python3 -c 'import nvidia.cudnn as m; print(list(m.__path__)[0])' 2>/dev/null)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-evidence.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/bin" "$work/proj" "$work/foreign" || exit 1
for b in cuenv cuenv-net cuenv-probe; do
	ln -s "$(dirname "$bin")/$b" "$work/bin/$b" || exit 1
done
export CUENV_ROOT="$work/root" CUENV_MANIFESTS="$work/world/manifests"
PATH=$work/bin:$PATH
unset CUDA_HOME CUDA_PATH
log=$out/README.md
bad=0
gpu=
nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && gpu=1

# run WANT CMD...: run CMD in the project, keep what it printed, and
# compare its exit status with WANT (- takes any)
run() {
	want=$1
	shift
	(cd "$work/proj" && "$@") >"$work/output" 2>&1
	rc=$?
	{
		printf '\n```console\n$ %s\n' "$*" | sed "s|$work|\$WORK|g"
		sed "s|$work|\$WORK|g" "$work/output"
		echo '```'
		printf 'exit status %s\n' "$rc"
	} >>"$log"
	if [ "$want" != - ] && [ "$rc" != "$want" ]; then
		echo "evidence.sh: '$*' exited $rc, expected $want" >&2
		printf '(expected %s)\n' "$want" >>"$log"
		bad=1
	fi
}
# json NAME CMD...: keep CMD's JSON report as NAME
json() {
	name=$1
	shift
	(cd "$work/proj" && "$@") 2>/dev/null | sed "s|$work|\$WORK|g" >"$out/$name"
}
section() {
	printf '\n## %s\n' "$*" >>"$log"
}

{
	echo "# cuenv against real CUDA libraries"
	echo
	echo "Made by \`sh tests/gpu/evidence.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo "\$WORK is the run's temporary folder. Outcomes expected here:"
	if [ -n "$gpu" ]; then
		echo "a GPU is present: the healthy selection passes every layer."
	else
		echo "no GPU (nvidia-smi lists none): every check stops at the driver layer."
	fi
	echo
	echo '```'
	echo "cuenv:   $("$bin" --version)"
	echo "machine: $(uname -srm)"
	echo "toolkit: $cuda"
	echo "cuDNN:   ${cudnn:-in the toolkit}"
	nvidia-smi -L 2>/dev/null
	nvidia-smi --query-gpu=driver_version,compute_cap --format=csv,noheader 2>/dev/null |
		sed 's/^/driver, compute capability: /'
	echo '```'
} >"$log"

section "1. A file:// mirror made from the libraries on this machine"
run 0 python3 "$here/mkmirror.py" --cuda "$cuda" ${cudnn:+--cudnn "$cudnn"} \
	--compress "$compress" "$work/world"
rel=$(sed -n 's/.*"cuda": "\([^"]*\)".*/\1/p' "$work/world/mirror.json")
dnn=$(sed -n 's/.*"cudnn": "\([^"]*\)".*/\1/p' "$work/world/mirror.json")
major=${rel%%.*}
[ -n "$rel" ] || { echo "evidence.sh: the mirror names no CUDA release" >&2; exit 1; }

section "2. Install through cuenv from that mirror"
run 0 cuenv install "$rel" ${dnn:+--cudnn "$dnn"} --source redist \
	--mirror "file://$work/world/mirror" \
	--components cuda_cudart,cuda_cupti,cuda_nvcc
run 0 cuenv local "$rel" ${dnn:+--cudnn "${dnn%%.*}"}
run 0 cuenv versions

# with a GPU: healthy passes, broken fails at CUPTI; without one, both
# stop at the driver
if [ -n "$gpu" ]; then
	healthy=0 broken=14
else
	healthy=10 broken=10
fi

section "3. The healthy selection"
run "$healthy" cuenv check --compile
json check-healthy.json cuenv check --compile --json
# what else the machine holds (its loader cache, pip wheels) decides this
run - cuenv doctor

section "4. Broken: CUPTI removed, then a foreign copy first on LD_LIBRARY_PATH"
cupti=$(cd "$work/proj" && cuenv which "libcupti.so.$major" 2>/dev/null)
[ -n "$cupti" ] || { echo "evidence.sh: the selection has no libcupti.so.$major" >&2; exit 1; }
cp -L "$cupti" "$work/foreign/" || exit 1
printf '\n```console\n$ rm %s*\n```\n' "$(echo "${cupti%.so.*}" | sed "s|$work|\$WORK|g")" >>"$log"
rm -f "${cupti%.so.*}".so*
run "$broken" cuenv check
json check-missing.json cuenv check --json
export LD_LIBRARY_PATH="$work/foreign${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
printf '\n```console\n$ export LD_LIBRARY_PATH=$WORK/foreign:$LD_LIBRARY_PATH\n```\n' >>"$log"
run "$broken" cuenv check
json check-broken.json cuenv check --json
run 15 cuenv doctor
json doctor-broken.json cuenv doctor --json

if [ "$bad" = 0 ]; then
	printf '\nEvery outcome was the one expected.\n' >>"$log"
	echo "evidence.sh: all outcomes as expected; see $log"
else
	printf '\nSome outcomes were NOT the ones expected (see the exit statuses above).\n' >>"$log"
fi
exit "$bad"
