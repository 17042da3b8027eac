#!/bin/sh
# tests/windows/e2e.sh (make test-windows-e2e): cuenv.exe, cuenv-net.exe
# and cuenv-probe.exe run for real under Debian's wine64, one part at a
# time (tests/windows/e2e-*.sh, sharing lib-e2e.sh and the wine prefix).
# Ends with "windows-e2e: N passed, N failed"; exits 1 on any failure.
#
#   BUILDROOT  where make windows put the programs (default build)
#   CUENV_WINEPREFIX  the wine prefix (required; make makes one per run:
#                     tools/with-wine-prefix.sh)
#   CUENV_WIN_E2E_FILTER  run only the parts whose name contains it
cd "$(dirname "$0")/../.." || exit 2

passed=0
failed=0
for t in tests/windows/e2e-*.sh; do
	case $t in *"${CUENV_WIN_E2E_FILTER-}"*) ;; *) continue ;; esac
	log=$(sh "$t" 2>&1)
	code=$?
	printf '%s\n' "$log"
	line=$(printf '%s\n' "$log" | tail -n 1)
	p=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	# a part that stopped early, or failed without saying so
	if [ "$code" != 0 ] && [ "${f:-0}" = 0 ]; then
		echo "$t: exit $code"
		failed=$((failed + 1))
	fi
done
echo "windows-e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
