# tests/bench/lib.sh: what the benchmarks share, sourced after `set -euo
# pipefail`: die, BENCH_REPS read into reps (default 3), CUENV_BIN
# checked and made absolute into cuenv_bin, a clock (now) and a median
# of numbers on stdin.

die() {
	printf 'bench: error: %s\n' "$*" >&2
	exit 1
}
reps=${BENCH_REPS:-3}
case $reps in *[!0-9]* | '') die "BENCH_REPS is a number" ;; esac
((reps > 0)) || die "BENCH_REPS must be positive"
cuenv_bin=${CUENV_BIN:-./cuenv}
[[ -x $cuenv_bin && -f $cuenv_bin ]] ||
	die "no cuenv binary at '$cuenv_bin' (build it, or set CUENV_BIN)"
cuenv_bin=$(cd "$(dirname "$cuenv_bin")" && pwd -P)/$(basename "$cuenv_bin")

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
