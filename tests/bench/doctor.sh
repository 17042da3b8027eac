#!/usr/bin/env bash
# tests/bench/doctor.sh: `cuenv doctor --python` on a real torch venv
# (the loader matrix's, from the package index), with the import observed
# and with --no-import, beside `python -c 'import torch'` alone in the
# same run: what observing costs over the import it observes; and `cuenv
# needs --python` (its frameworks read by their files, issue 32: within
# 2x doctor --no-import).
#
#   make bench    (or: CUENV_BIN=./cuenv bash tests/bench/doctor.sh)
#   BENCH_REPS=3  BENCH_VENV=/path/to/venv (default: the newest torch
#   venv under ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/loader-matrix)
#
# Prints the median seconds of BENCH_REPS runs of each and the ratios to
# the import alone. Exit 0 when it ran (or there is no torch venv: it
# says so); non-zero when something failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

venv=${BENCH_VENV:-}
if [[ -z $venv ]]; then
	for v in "${CUENV_CI_CACHE:-/var/cache/cuenv-ci}"/loader-matrix/venv-torch-*; do
		[[ -x $v/bin/python ]] && venv=$v
	done
fi
if [[ -z $venv || ! -x $venv/bin/python ]]; then
	echo "bench doctor: skipped: no torch venv (make loader-matrix builds one)"
	exit 0
fi
py=$venv/bin/python
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-bench-doctor.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/root"
sandbox=(env -i "HOME=$work/home" "PATH=/usr/bin:/bin" LC_ALL=C
	"CUENV_ROOT=$work/root" "CUENV_DRIVER_VERSION=")


# time_of LABEL CMD...: the median of reps runs (exit 0, 1 or 15 is a
# run: needs says 1 when nothing installed provides what torch needs)
time_of() {
	local t0 t1 rc ts=()
	shift
	for ((i = 0; i < reps; i++)); do
		t0=$(now)
		rc=0
		"${sandbox[@]}" "$@" >/dev/null 2>&1 || rc=$?
		t1=$(now)
		((rc == 0 || rc == 1 || rc == 15)) || die "'$*' exited with status $rc"
		ts+=("$(echo "$t1 - $t0" | bc)")
	done
	printf '%s\n' "${ts[@]}" | median
}

imp=$(time_of import "$py" -c 'import torch; torch.backends.cudnn.version()')
obs=$(time_of observed "$cuenv_bin" doctor --python "$py")
model=$(time_of model "$cuenv_bin" doctor --no-import --python "$py")
needs=$(time_of needs "$cuenv_bin" needs --python "$py")
printf 'bench doctor: %s (median of %d)\n' "$venv" "$reps"
printf '  %-44s %8.3f s\n' "python -c 'import torch' alone" "$imp"
printf '  %-44s %8.3f s  %5.2fx the import\n' "cuenv doctor --python (observed)" "$obs" \
	"$(echo "$obs / $imp" | bc -l)"
printf '  %-44s %8.3f s  %5.2fx the import\n' "cuenv doctor --no-import --python" "$model" \
	"$(echo "$model / $imp" | bc -l)"
printf '  %-44s %8.3f s  %5.2fx doctor --no-import\n' "cuenv needs --python (by the files)" \
	"$needs" "$(echo "$needs / $model" | bc -l)"
