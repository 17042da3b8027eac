#!/usr/bin/env bash
# tests/bench/explain.sh: `cuenv explain -` on logs of 1k, 2k, 4k and 8k
# distinct unknown names (half DLLs, cudart64_N.dll, half sonames,
# libcudart.so.N: each a finding "no release ships it"), each name on a
# line of its own and then all of them on one line (where the reading
# was quadratic: each line searched for every finding).
#
#   make bench    (or: CUENV_BIN=./cuenv bash tests/bench/explain.sh)
#   BENCH_REPS=3
#
# Prints a table of the median seconds of BENCH_REPS runs for each size
# and its ratio to 1k's (linear: at most 8 for 8k), and whether 8k took
# under 1 s (the target). Exit 0 when it ran, target met or not; non-zero
# when something failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target=1


work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-bench-explain.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/home" "$work/root"
sandbox=(env -i "HOME=$work/home" "PATH=/usr/bin:/bin" LC_ALL=C
	"CUENV_ROOT=$work/root" "CUENV_LD_SO_CACHE=$work/no-cache")


# log N: N distinct names, one a line, then all on one line.
log() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++)
			name[i] = i % 2 ? "libcudart.so." (100000 + i) \
					: "cudart64_" (100000 + i) ".dll"
		for (i = 0; i < n; i++)
			printf "W dso_loader.cc:64] Could not load dynamic " \
			       "library '\''%s'\''; dlerror: not found\n", name[i]
		for (i = 0; i < n; i++)
			printf "%s ", name[i]
		printf "\n"
	}'
}

sizes=(1000 2000 4000 8000)
declare -A secs
for n in "${sizes[@]}"; do
	log "$n" >"$work/log.$n"
	times=()
	for ((r = 0; r < reps; r++)); do
		t0=$(now)
		rc=0
		"${sandbox[@]}" "$cuenv_bin" explain - <"$work/log.$n" \
			>"$work/out" 2>"$work/err" || rc=$?
		t1=$(now)
		# unknown names only: exit 1, "no release ships ..."
		[[ $rc -eq 1 ]] ||
			die "explain on $n names: exit $rc: $(head -c 300 "$work/err")"
		times+=("$(echo "$t1 - $t0" | bc -l)")
	done
	grep -q "^\.\.\. and $((n - 100)) more names not shown$" "$work/out" ||
		die "explain on $n names: no '... and $((n - 100)) more names not shown'"
	secs[$n]=$(printf '%s\n' "${times[@]}" | median)
done

printf 'bench explain: `cuenv explain -` on distinct unknown names (median of %d)\n' "$reps"
printf '  %6s  %9s  %12s\n' names seconds "ratio to 1k"
for n in "${sizes[@]}"; do
	printf '  %6d  %9.3f  %12.2f\n' "$n" "${secs[$n]}" \
		"$(echo "${secs[$n]} / ${secs[1000]}" | bc -l)"
done
printf '  8k under %d s: %s; linear: ratio at most 8 for 8k: %s\n' "$target" \
	"$(echo "${secs[8000]} < $target" | bc -l | sed 's/1/met/;s/0/NOT met/')" \
	"$(echo "${secs[8000]} / ${secs[1000]} <= 8" | bc -l | sed 's/1/met/;s/0/NOT met/')"
