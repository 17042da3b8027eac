#!/bin/sh
# Run the end-to-end tests: every tests/e2e/t[0-9]*.sh, in order, each in
# its own sandbox (see lib.sh) and under a time limit.
#
#   CUENV_BIN=/abs/path/cuenv sh tests/e2e/run.sh
#
#   CUENV_E2E_FILTER   run only the tests whose file name contains it
#   CUENV_E2E_TIMEOUT  the base deadline per test, in seconds (default
#                      120); a test with a "# e2e-deadline: N" line is
#                      allowed N times that (the venv tests, which copy
#                      hundreds of MB). It catches hangs only: no test's
#                      result depends on the machine's speed.
#   CUENV_E2E_LOAD     the load factor of the tests' own wall-clock
#                      bounds (lib.sh's load_bound; default 3)
#   CUENV_E2E_KEEP     1: keep a failed test's sandbox (its path is
#                      printed); otherwise every sandbox goes as its
#                      test ends, and the run's folder when the run ends
#   CUENV_CI_CACHE     where downloads are kept between runs (the venv
#                      tests' wheels, in venv-wheels/); unset, they are
#                      fetched into this run's folder and go with it
#   CUENV_E2E_VERBOSE  1: show every test's output, not only failures'
#   CUENV_E2E_HINTS    1: after each command, run the cuenv commands its
#                      hint and fix lines name, in a copy of its state
#                      (lib.sh); any that fails fails the run (slower)
#
# Ends with "e2e: N passed, N failed, N skipped"; exits 1 on any failure.

here=$(cd "$(dirname "$0")" && pwd) || exit 1

case ${CUENV_BIN-} in
/*) ;;
*)
	echo "run.sh: set CUENV_BIN to the absolute path of the cuenv binary" >&2
	exit 2
	;;
esac
if [ ! -x "$CUENV_BIN" ]; then
	echo "run.sh: $CUENV_BIN is not executable" >&2
	exit 2
fi

base=${CUENV_E2E_TIMEOUT:-120}
case $base in
'' | *[!0-9]* | 0)
	echo "run.sh: CUENV_E2E_TIMEOUT must be a whole number of seconds, not '$base'" >&2
	exit 2
	;;
esac
# Everything a run makes lives in its own folder: the tests' sandboxes
# (sb/), the fakes they share (cache/: fake libraries, the template venv,
# the wine prefix), nothing in /tmp beside it; all of it goes at the end.
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-e2e-run.XXXXXX") || exit 2
cleanup() {
	if [ -d "$work/cache/wine" ] && command -v wineserver >/dev/null 2>&1; then
		WINEPREFIX=$work/cache/wine wineserver -k 2>/dev/null
	fi
	chmod -R u+rwx "$work" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$work/cache" "$work/sb" || exit 2
# Searchable by others as /tmp is: a test that runs a command as another
# user (t0185, as nobody) opens its own sandbox to it, not this folder.
chmod 755 "$work" "$work/sb" || exit 2
CUENV_E2E_CACHE=$work/cache
export CUENV_BIN CUENV_E2E_CACHE

# The venv tests' wheels, fetched (or found in CUENV_CI_CACHE) and
# installed into a template once, before any test runs: no test waits on
# a download or on another run filling the cache.
if grep -l 'venv\.sh' "$here"/t[0-9]*.sh 2>/dev/null |
	grep -qF -e "${CUENV_E2E_FILTER-}"; then
	sh "$here/prepare-venv.sh" "${CUENV_CI_CACHE:-$work/cache}/venv-wheels" \
		"$work/cache/venv-template"
fi

passed=0
failed=0
skipped=0
failures=
start=$(date +%s)

for t in "$here"/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	case $name in
	*"${CUENV_E2E_FILTER-}"*) ;;
	*) continue ;;
	esac
	log=$work/$name.log
	n=$(sed -n 's/^# e2e-deadline: \([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	limit=$((base * ${n:-1}))
	t0=$(date +%s)
	TMPDIR=$work/sb timeout -k 5 "$limit" sh "$t" >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - t0))
	case $rc in
	0)
		passed=$((passed + 1))
		echo "PASS  $name (${secs}s)"
		[ "${CUENV_E2E_VERBOSE-}" = 1 ] && sed 's/^/    /' "$log"
		;;
	77)
		skipped=$((skipped + 1))
		why=$(sed -n 's/^SKIP: //p' "$log" | head -n 1)
		echo "SKIP  $name: ${why:-no reason given}"
		;;
	*)
		failed=$((failed + 1))
		failures="$failures $name"
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			echo "FAIL  $name: timed out after ${limit}s"
		else
			echo "FAIL  $name (exit $rc)"
		fi
		sed 's/^/    | /' "$log"
		;;
	esac
	# A test killed at its deadline could not remove its sandbox.
	if [ -n "$(ls -A "$work/sb")" ]; then
		if [ "${CUENV_E2E_KEEP-}" = 1 ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
			k=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-e2e-kept.XXXXXX") &&
				mv "$work/sb"/* "$k/" && echo "      kept: $k"
		fi
		chmod -R u+rwx "$work/sb" 2>/dev/null
		rm -rf "${work:?}/sb"/* "$work/sb"/.[!.]* 2>/dev/null
	fi
done

total=$(($(date +%s) - start))
[ -n "$failures" ] && echo "failed:$failures"
echo "(${total}s)"
if [ $((passed + failed + skipped)) -eq 0 ]; then
	echo "run.sh: no test matched '${CUENV_E2E_FILTER-}'" >&2
	failures=none
fi
echo "e2e: $passed passed, $failed failed, $skipped skipped"
# CUENV_E2E_HINTS=1: every command the tests' commands printed as a hint or
# a fix was run, as printed, in a copy of the sandbox where it was printed
# (lib.sh, _try_hints); each must have worked.
if [ "${CUENV_E2E_HINTS-}" = 1 ]; then
	h=$work/cache/hints.log
	[ -f "$h" ] || : >"$h"
	lines=$(cat "$work/cache/hints.lines" 2>/dev/null | wc -l)
	manual=$(grep -c '^manual' "$h")
	tmpl=$(grep -c '^template' "$h")
	ran=$(grep -cE '^(ok|offline|FAILED)' "$h")
	bad=$(grep -c '^FAILED' "$h")
	off=$(grep -c '^offline' "$h")
	echo "hints: $lines hint and fix lines collected ($manual manual," \
		"$tmpl templates), $ran commands run in a copy of their" \
		"test's state: $((ran - bad - off)) ok, $off offline (no mirror:" \
		"they got as far as the download), $bad failed"
	if [ "$bad" -gt 0 ]; then
		grep '^FAILED' "$h" | sort -u -t '	' -k3,3 |
			awk -F '\t' '{ print "  " $2 ": " $3 "\n      hint: " $4 }'
		[ -f "$work/cache/hints.out" ] && sed -n '1,300p' "$work/cache/hints.out"
		failures="$failures hints"
	fi
fi
[ -z "$failures" ]
