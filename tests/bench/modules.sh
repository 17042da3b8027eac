#!/usr/bin/env bash
# tests/bench/modules.sh: `cuenv use` against Lmod's `module load` of the
# modulefile `cuenv modules` wrote for the same (fake) CUDA 12.4.1.
#
#   make bench    (or: CUENV_BIN=./cuenv bash tests/bench/modules.sh)
#   BENCH_MODULES=200 BENCH_REPS=3
#
# Each tool gets one bash process that times with $EPOCHREALTIME N pairs
# of: `cuenv use 12.4` + `cuenv use --unset` (the shell function of
# `cuenv init bash`), and `module load cuda/12.4.1` + `module unload cuda`.
# Prints microseconds per operation (the median of BENCH_REPS), and the
# ratio cuenv/Lmod against the target (at most 0.1). Exit 0 when it ran,
# target met or not; non-zero when something failed; skips (0) without Lmod.
set -euo pipefail

n=${BENCH_MODULES:-200}
reps=${BENCH_REPS:-3}
target=0.1
lmod_init=${LMOD_INIT:-/usr/share/lmod/lmod/init/bash}

die() {
	printf 'bench: error: %s\n' "$*" >&2
	exit 1
}
case $n$reps in *[!0-9]*) die "BENCH_MODULES and BENCH_REPS are numbers" ;; esac
((n > 0 && reps > 0)) || die "iteration counts must be positive"
cuenv_bin=${CUENV_BIN:-./cuenv}
[[ -x $cuenv_bin && -f $cuenv_bin ]] ||
	die "no cuenv binary at '$cuenv_bin' (build it, or set CUENV_BIN)"
cuenv_bin=$(cd "$(dirname "$cuenv_bin")" && pwd -P)/$(basename "$cuenv_bin")
if [[ ! -f $lmod_init ]]; then
	echo "bench modules: skipped: no Lmod ($lmod_init; Debian: apt-get install lmod)"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-bench-mod.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A fake toolkit: enough for `cuenv add` to detect CUDA 12.4.1.
kit=$work/kit
mkdir -p "$work/home" "$work/root" "$kit/bin" "$kit/lib64" "$kit/include" \
	"$work/mods" "$work/proj"
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' \
	>"$kit/bin/nvcc"
chmod +x "$kit/bin/nvcc"
: >"$kit/lib64/libcudart.so.12"
echo '#define CUDART_VERSION 12040' >"$kit/include/cuda_runtime_api.h"
echo '{"cuda":{"version":"12.4.1"}}' >"$kit/version.json"

sandbox=(env -i "HOME=$work/home" "PATH=$(dirname "$cuenv_bin"):/usr/bin:/bin"
	LC_ALL=C TERM=dumb "CUENV_ROOT=$work/root" "CUENV_BIN=$cuenv_bin"
	"LMOD_INIT=$lmod_init" "MODULEPATH=$work/mods")
"${sandbox[@]}" "$cuenv_bin" add cuda "$kit" >"$work/log" 2>&1 ||
	die "cuenv add cuda failed: $(cat "$work/log")"
"${sandbox[@]}" "$cuenv_bin" modules "$work/mods" >"$work/log" 2>&1 ||
	die "cuenv modules failed: $(cat "$work/log")"

# inner.sh TOOL N REPS: one "microseconds-per-op" line per rep.
cat >"$work/inner.sh" <<'SH'
set -u
tool=$1 n=$2 reps=$3
fail() { echo "bench: error: $tool: $*" >&2; exit 1; }
case $tool in
cuenv)
	eval "$("$CUENV_BIN" init bash)" || fail "cuenv init bash failed"
	on() { cuenv use 12.4 >/dev/null; }
	off() { cuenv use --unset >/dev/null; }
	;;
lmod)
	. "$LMOD_INIT" || fail "cannot source $LMOD_INIT"
	on() { module load cuda/12.4.1; }
	off() { module unload cuda; }
	;;
esac
# Once, checked: the two must do the job.
on || fail "activating failed"
[[ ${CUENV_ACTIVE-} == 12.4.1 ]] || fail "CUENV_ACTIVE is '${CUENV_ACTIVE-}' after activating"
off || fail "deactivating failed"
[[ -z ${CUENV_ACTIVE-} ]] || fail "CUENV_ACTIVE is still set after deactivating"
for ((r = 0; r < reps; r++)); do
	t0=${EPOCHREALTIME/./}
	for ((i = 0; i < n; i++)); do
		on
		off
	done
	t1=${EPOCHREALTIME/./}
	echo $(((t1 - t0) / (2 * n)))
done
SH

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
run() {
	local out
	out=$(cd "$work/proj" && "${sandbox[@]}" bash --norc --noprofile \
		"$work/inner.sh" "$1" "$n" "$reps" 2>"$work/$1.err") ||
		die "$1 failed: $(cat "$work/$1.err")"
	[[ -n $out ]] || die "$1 printed nothing: $(cat "$work/$1.err")"
	median <<<"$out"
}
us_cuenv=$(run cuenv)
us_lmod=$(run lmod)
((us_lmod > 0)) || die "Lmod measured 0 us"
ratio=$(awk -v a="$us_cuenv" -v b="$us_lmod" 'BEGIN { printf "%.3f", a / b }')
met=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) ? "met" : "missed" }')
printf 'bench modules: %d load+unload pairs, median of %d\n' "$n" "$reps"
printf '  cuenv use 12.4 / use --unset        %8d us per operation\n' "$us_cuenv"
printf '  module load cuda/12.4.1 / unload    %8d us per operation\n' "$us_lmod"
printf '  cuenv/Lmod = %s (target <= %s): %s\n' "$ratio" "$target" "$met"
