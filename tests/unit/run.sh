#!/bin/sh
# Run the cmocka unit test binaries given as arguments and add up their
# results. CUENV_TEST_FILTER (a cmocka glob such as '*dotfile_rejects*')
# reaches every binary through the environment.
#
#   sh tests/unit/run.sh build/std/tests/test_buf ...
#
# CUENV_UNIT_RUNNER, when set, is a program each binary is run with (make
# test-aarch64: qemu-aarch64-static). CUENV_UNIT_KNOWN, when set, is a
# file of test names (one a line, # comments) whose failures are the
# emulator's: a binary whose only failures are those passes, and they are
# counted apart ("unit: N known failures ..." before the last line).
#
# The last line is always "unit: N passed, N failed". The exit status is
# non-zero when any test failed or any binary crashed, leaked (sanitizer
# builds) or could not be run; such a binary counts as one failure on top
# of the tests it reported.

passed=0
failed=0
known=0
bad_bins=

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-unit-run.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# The tests start shells (fish makes ~/.config/fish and ~/.local/share/fish
# even with --no-config): they get a HOME of their own, not the user's.
mkdir "$tmp/home" || exit 2
HOME=$tmp/home
XDG_CONFIG_HOME=$tmp/home/.config
XDG_DATA_HOME=$tmp/home/.local/share
XDG_CACHE_HOME=$tmp/home/.cache
export HOME XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME

for bin in "$@"; do
	name=${bin##*/}
	if [ ! -x "$bin" ]; then
		echo "unit: $name: not an executable: $bin" >&2
		failed=$((failed + 1))
		bad_bins="$bad_bins $name"
		continue
	fi
	# Separate files: a buffered stdout flushed into the middle of
	# stderr's lines would hide the summary from the patterns below.
	${CUENV_UNIT_RUNNER:+"$CUENV_UNIT_RUNNER"} "$bin" >"$tmp/out" \
		2>"$tmp/err"
	rc=$?
	cat "$tmp/out" "$tmp/err" >"$tmp/all"
	# cmocka: "[  PASSED  ] N test(s)." and, on failure,
	# "[  FAILED  ] N test(s), listed below:" then " N FAILED TEST(S)";
	# the last counts tests whose setup failed too.
	p=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\.$/\1/p' \
		"$tmp/all" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test(s).*/\1/p' \
		"$tmp/all" | tail -n 1)
	f_all=$(sed -n 's/^ \([0-9][0-9]*\) FAILED TEST(S)$/\1/p' \
		"$tmp/all" | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ -n "$f_all" ] && [ "$f_all" -gt "$f" ]; then
		f=$f_all
	fi
	# Only known failures, and cmocka's status is their count (no crash).
	if [ -n "${CUENV_UNIT_KNOWN-}" ] && [ "$f" -gt 0 ] && [ "$rc" -eq "$f" ]; then
		sed -n 's/^\[  FAILED  \] \(test_[A-Za-z0-9_]*\)$/\1/p' \
			"$tmp/all" | sort -u >"$tmp/names"
		if [ "$(wc -l <"$tmp/names")" -eq "$f" ] &&
			! grep -v '^#' "$CUENV_UNIT_KNOWN" |
			grep -qvxFf - "$tmp/names"; then
			echo "  ok  $name ($p; known under emulation:" \
				$(cat "$tmp/names")")"
			passed=$((passed + p))
			known=$((known + f))
			continue
		fi
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
		cat "$tmp/all"
		if [ "$f" -eq 0 ]; then
			# Crashed, killed, or failed after its tests (a leak).
			if [ "$rc" -gt 128 ]; then
				why="killed by signal $((rc - 128))"
			else
				why="exit status $rc"
			fi
			echo "unit: $name: $why after $p passed test(s)" >&2
			failed=$((failed + 1))
		fi
		bad_bins="$bad_bins $name"
	else
		echo "  ok  $name ($p)"
	fi
done

if [ -n "$bad_bins" ]; then
	echo "unit: failing:$bad_bins" >&2
fi
if [ "$known" -gt 0 ]; then
	echo "unit: $known known failures under emulation ($CUENV_UNIT_KNOWN)"
fi
echo "unit: $passed passed, $failed failed"
[ -z "$bad_bins" ]
