#!/bin/sh
# tools/windows-core.sh: cross-compile the core modules that are already
# portable into a static library for Windows (make windows-core), and
# with `test`, a check program run under wine64 (make test-windows-core).
#
# Compiler: Debian's x86_64-w64-mingw32-gcc, the same warnings as the
# Linux build (-Werror) except -Wformat: mingw's GCC checks
# format(printf) against msvcrt's printf, which has no %zu, while the
# code runs mingw's own C99 printf (__USE_MINGW_ANSI_STDIO=1, which does);
# the Linux build keeps every format check. Headers of the cross-built
# libraries come from tools/windows-deps.sh's cached prefix.
#
#   WIN_CORE   the modules' sources (the Makefile's WIN_SRC: every .c below
#              core/ but the POSIX side's); a bare name is found below core/
#   BUILDROOT  object folder (default build): outputs in BUILDROOT/windows/core
#   CUENV_WINEPREFIX  the wine prefix (required; make makes one per run:
#                     tools/with-wine-prefix.sh)
set -eu

cd "$(dirname "$0")/.."
HOST=x86_64-w64-mingw32
WINE=/usr/lib/wine/wine64
OUT=${BUILDROOT:-build}/windows/core
MODULES=${WIN_CORE:-buf err xalloc version nvlib kit shell plat_path envmap digest_bcrypt}

fail() { echo "windows-core: FAIL: $*" >&2; exit 1; }

command -v $HOST-gcc >/dev/null 2>&1 ||
	fail "$HOST-gcc not found: apt-get install gcc-mingw-w64-x86-64"
prefix=$(sh tools/windows-deps.sh)
[ -f "$prefix/cuenv-win.mk" ] || fail "no $prefix/cuenv-win.mk"
CPPFLAGS_W=$(sed -n 's/^WIN_DEPS_CPPFLAGS=//p' "$prefix/cuenv-win.mk")
LIBS_W=$(sed -n 's/^WIN_DEPS_LIBS=//p' "$prefix/cuenv-win.mk")
CFLAGS_W="-std=c11 -D_GNU_SOURCE -D__USE_MINGW_ANSI_STDIO=1 -O2 -g
-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
-Wvla -Wno-format -iquote core"

# core/<folder>/<name>.c for a bare module name, in either layout.
src_of() {
	case $1 in
	*.c) echo "$1" ;;
	*) find core -name "$1.c" | sed -n 1p ;;
	esac
}

mkdir -p "$OUT"
objs=
for m in $MODULES; do
	src=$(src_of "$m")
	[ -n "$src" ] || fail "no source for module $m below core/"
	o=$OUT/$(basename "$src" .c).o
	echo "  CC      $o"
	# shellcheck disable=SC2086
	$HOST-gcc $CFLAGS_W $CPPFLAGS_W -c "$src" -o "$o"
	objs="$objs $o"
done
rm -f "$OUT/libcuenv-core.a"
# shellcheck disable=SC2086
$HOST-ar rcs "$OUT/libcuenv-core.a" $objs
echo "  AR      $OUT/libcuenv-core.a"

[ "${1-}" = test ] || exit 0

# shellcheck disable=SC2086
$HOST-gcc $CFLAGS_W $CPPFLAGS_W tests/windows/test_core.c \
	"$OUT/libcuenv-core.a" -static $LIBS_W -lshell32 -lpthread \
	-o "$OUT/test_core.exe"
echo "  LD      $OUT/test_core.exe"
# detect_checks.h's DLLs, beside test_core.exe: cuDNN 8's
# cudnn_ops_infer64_8.dll importing the toolkit's cublas64_11.dll
printf 'int cublasCreate_v2(void **h) { (void)h; return 0; }\n' \
	>"$OUT/cublas.c"
printf '%s\n' 'int cublasCreate_v2(void **h);' \
	'int ops(void) { void *h; return cublasCreate_v2(&h); }' >"$OUT/ops.c"
$HOST-gcc -shared -o "$OUT/cublas64_11.dll" "$OUT/cublas.c"
$HOST-gcc -shared -o "$OUT/cudnn_ops_infer64_8.dll" "$OUT/ops.c" \
	"$OUT/cublas64_11.dll"
echo "  LD      $OUT/cudnn_ops_infer64_8.dll"
# the child test_core's proc checks run, beside it
# shellcheck disable=SC2086
$HOST-gcc $CFLAGS_W tests/windows/proc_child.c "$OUT/libcuenv-core.a" \
	-static -o "$OUT/proc_child.exe"
echo "  LD      $OUT/proc_child.exe"
[ -x "$WINE" ] || fail "wine64 is not installed ($WINE): apt-get install wine64"
export WINEPREFIX="${CUENV_WINEPREFIX:?set CUENV_WINEPREFIX to a wine prefix of your own (make runs this through tools/with-wine-prefix.sh)}"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "windows-core: creating wine prefix $WINEPREFIX"
	"$WINE" wineboot -i >/dev/null 2>&1 || true
	/usr/lib/wine/wineserver -w
fi
"$WINE" "$OUT/test_core.exe" || fail "test_core.exe"
