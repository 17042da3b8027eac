#!/bin/sh
# tools/ci-cache.sh report|prune: CI's caches against their budget.
#
#   tools/ci-cache.sh report   each area of CUENV_CI_CACHE and
#                              CUENV_WIN_CACHE (containers, corpus,
#                              loader-matrix, venv-wheels, ...) with its
#                              size, the total and the budget
#   tools/ci-cache.sh prune    the least recently written entries (an
#                              area's files and folders, one level down;
#                              each Windows prefix) removed, oldest first,
#                              until the total is within the budget
#
#   CUENV_CI_CACHE, CUENV_WIN_CACHE   the caches (make sets both)
#   CUENV_CACHE_BUDGET_MB              the budget (default 25000, 25 GB)
#
# Every entry is what some stage fetches or builds again when it is
# missing, so pruning costs time on the next run, never a failure.
set -eu
ci=${CUENV_CI_CACHE:?set CUENV_CI_CACHE}
win=${CUENV_WIN_CACHE:?set CUENV_WIN_CACHE}
budget=${CUENV_CACHE_BUDGET_MB:-25000}
case $budget in '' | *[!0-9]*) echo "ci-cache: CUENV_CACHE_BUDGET_MB must be a whole number of MB, not '$budget'" >&2; exit 2 ;; esac

mb() { du -sm "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
total() { mb "$ci" "$win"; }

report() {
	for c in "$ci" "$win"; do
		[ -d "$c" ] || continue
		for a in "$c"/* "$c"/.[!.]*; do
			[ -e "$a" ] || continue
			printf '%8s MB  %s\n' "$(mb "$a")" "$a"
		done
	done
	t=$(total)
	printf '%8s MB  in all; budget %s MB (CUENV_CACHE_BUDGET_MB)%s\n' "$t" \
		"$budget" "$([ "$t" -le "$budget" ] || echo ': over it, make ci-cache-prune trims it')"
}

# Entries one level below each area, oldest first: "mtime path".
entries() {
	for c in "$ci" "$win"; do
		[ -d "$c" ] || continue
		find "$c" -mindepth 2 -maxdepth 2 ! -name '.lock' -printf '%T@ %p\n' 2>/dev/null
		# the Windows prefixes are the area itself
		[ "$c" = "$win" ] && find "$c" -mindepth 1 -maxdepth 1 -type d \
			-printf '%T@ %p\n' 2>/dev/null
	done | sort -n
}

prune() {
	t=$(total)
	if [ "$t" -le "$budget" ]; then
		echo "ci-cache: $t MB, within the budget of $budget MB: nothing removed"
		return 0
	fi
	entries >"${TMPDIR:-/tmp}/ci-cache.$$"
	while read -r _ p; do
		[ "$t" -gt "$budget" ] || break
		s=$(mb "$p")
		echo "ci-cache: removing $p ($s MB)"
		chmod -R u+rwx "$p" 2>/dev/null || true
		rm -rf "$p"
		t=$((t - s))
	done <"${TMPDIR:-/tmp}/ci-cache.$$"
	rm -f "${TMPDIR:-/tmp}/ci-cache.$$"
	echo "ci-cache: $(total) MB left (budget $budget MB)"
}

case ${1-} in
report) report ;;
prune) prune ;;
*) echo "usage: tools/ci-cache.sh report|prune" >&2; exit 2 ;;
esac
