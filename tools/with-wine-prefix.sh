#!/bin/sh
# tools/with-wine-prefix.sh CMD...: run CMD with CUENV_WINEPREFIX naming a
# wine prefix of this run's own, made in a new temporary folder and, with
# its wineserver, gone when CMD ends (failed or not). With
# CUENV_WINEPREFIX already set (make test-windows runs its three parts in
# one prefix), CMD runs in that one. Two runs at once never share a
# prefix, so neither's wineserver can stop the other's programs.
if [ -n "${CUENV_WINEPREFIX-}" ]; then
	exec "$@"
fi
d=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-wine.XXXXXX") || exit 2
CUENV_WINEPREFIX=$d/prefix
export CUENV_WINEPREFIX
"$@"
rc=$?
if [ -e "$CUENV_WINEPREFIX" ]; then
	WINEPREFIX=$CUENV_WINEPREFIX /usr/lib/wine/wineserver -k 2>/dev/null
	WINEPREFIX=$CUENV_WINEPREFIX /usr/lib/wine/wineserver -w 2>/dev/null
fi
rm -rf "$d"
exit "$rc"
