#!/bin/sh
# tests/windows/dllsearch.sh (make test-windows-dllsearch): core/dllsearch's
# model of Windows' DLL search order checked against wine64's loader, which
# implements Microsoft's documented order: a fake DLL built with mingw is
# copied into the application's folder, System32, the current folder and
# two PATH folders in turn, and the copy LoadLibrary takes must be the one
# the model names (tests/windows/dllsearch_check.c).
set -eu

cd "$(dirname "$0")/../.."
HOST=x86_64-w64-mingw32
WINE=/usr/lib/wine/wine64
OUT=${BUILDROOT:-build}/windows/core

fail() { echo "dllsearch: FAIL: $*" >&2; exit 1; }

[ -x "$WINE" ] || fail "wine64 is not installed ($WINE): apt-get install wine64"
[ -f "$OUT/libcuenv-core.a" ] || fail "no $OUT/libcuenv-core.a: make windows-core"
export WINEPREFIX="${CUENV_WINEPREFIX:?set CUENV_WINEPREFIX to a wine prefix of your own (make runs this through tools/with-wine-prefix.sh)}"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	"$WINE" wineboot -i >/dev/null 2>&1 || true
	/usr/lib/wine/wineserver -w
fi

base=$WINEPREFIX/drive_c/cuenv-dlltest
rm -rf "$base"
mkdir -p "$base/app" "$base/cwd" "$base/p1" "$base/p2"
printf 'int __declspec(dllexport) cuenv_fake(void) { return 110; }\n' >"$base/fake.c"
$HOST-gcc -shared -o "$base/fake.dll" "$base/fake.c"
$HOST-gcc -std=c11 -D_GNU_SOURCE -D__USE_MINGW_ANSI_STDIO=1 -O2 \
	-Wall -Wextra -Werror -Wno-format -iquote core tests/windows/dllsearch_check.c \
	"$OUT/libcuenv-core.a" -static -o "$base/app/dllsearch_check.exe"
"$WINE" "$base/app/dllsearch_check.exe" 'C:\cuenv-dlltest' \
	'C:\cuenv-dlltest\fake.dll' || fail "the model and the loader differ"
rm -rf "$base"
