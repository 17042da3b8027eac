#!/bin/sh
# tools/windows-build.sh: cross-build cuenv.exe, cuenv-net.exe and
# cuenv-probe.exe for Windows (make windows), static: they need no DLL
# beside them but Windows' own.
#
# The core library comes from tools/windows-core.sh (WIN_CORE: every core
# module with its *_win.c platform siblings); the commands are cmd/ as on
# Linux: cuenv.exe links all of them, cuenv-net.exe the downloading ones
# (-DCUENV_NET), cuenv-probe.exe only the probe and the loader.
#
#   WIN_CORE   the core modules (the Makefile's list)
#   WIN_CMDS, WIN_NET_CMDS  the commands of cuenv.exe and cuenv-net.exe
#   BUILDROOT  object folder (default build): outputs in BUILDROOT/windows
#   CUENV_VERSION_STRING  what cuenv --version prints
set -eu

cd "$(dirname "$0")/.."
HOST=x86_64-w64-mingw32
OUT=${BUILDROOT:-build}/windows

fail() { echo "windows-build: FAIL: $*" >&2; exit 1; }

[ -n "${WIN_CMDS-}" ] || fail "WIN_CMDS is empty (run it as make windows)"
sh tools/windows-core.sh
prefix=$(sh tools/windows-deps.sh)
CPPFLAGS_W=$(sed -n 's/^WIN_DEPS_CPPFLAGS=//p' "$prefix/cuenv-win.mk")
LIBS_W=$(sed -n 's/^WIN_DEPS_LIBS=//p' "$prefix/cuenv-win.mk")
CFLAGS_W="-std=c11 -D_GNU_SOURCE -D__USE_MINGW_ANSI_STDIO=1 -O2 -g
-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
-Wvla -Wno-format -iquote core"
VERSION_DEF="-DCUENV_VERSION_STRING=\"${CUENV_VERSION_STRING:-$(cat VERSION)}\""
LIB="$OUT/core/libcuenv-core.a"

mkdir -p "$OUT/cmd"
cc_cmd() { # source object [flags]
	echo "  CC      $2"
	# shellcheck disable=SC2086
	$HOST-gcc $CFLAGS_W $CPPFLAGS_W -Ibuild/std -I. $3 "$VERSION_DEF" \
		-c "$1" -o "$2"
}
link() { # exe objects...
	exe=$1
	shift
	echo "  LD      $exe"
	# shellcheck disable=SC2086
	$HOST-gcc -static -o "$exe" "$@" "$LIB" $LIBS_W -lshell32 -lpthread
}

# The hook scripts and the command line's tables (docs/cli.txt, with the
# commands' cli/<name>.h), generated as on Linux by host programs.
make -s build/std/shells.c build/std/cli.c >/dev/null
cc_cmd build/std/shells.c "$OUT/cmd/shells.o" ""
cc_cmd build/std/cli.c "$OUT/cmd/cli.o" ""

objs="$OUT/cmd/shells.o $OUT/cmd/cli.o"
for c in $WIN_CMDS; do
	cc_cmd "cmd/$c.c" "$OUT/cmd/$c.o" ""
	objs="$objs $OUT/cmd/$c.o"
done
net_objs=
for c in $WIN_NET_CMDS; do
	src=${c%_net}
	cc_cmd "cmd/$src.c" "$OUT/cmd/$c.o" "-DCUENV_NET"
	net_objs="$net_objs $OUT/cmd/$c.o"
done
net_objs="$net_objs $OUT/cmd/cli.o"
cc_cmd cmd/probe_main.c "$OUT/cmd/probe_main.o" ""

# shellcheck disable=SC2086
link "$OUT/cuenv.exe" $objs
# shellcheck disable=SC2086
link "$OUT/cuenv-net.exe" $net_objs
link "$OUT/cuenv-probe.exe" "$OUT/cmd/probe_main.o"
# Each finds the catalogue beside itself, as the Linux build does.
rm -rf "$OUT/manifests"
cp -R manifests "$OUT/manifests"

# What a Windows user unpacks: cuenv\ with the three programs and the
# catalogue (README, Windows).
python3 - "$OUT" <<'EOF_ZIP'
import os, sys, zipfile

out = sys.argv[1]
dist = os.path.join(out, "cuenv-windows-x86_64.zip")
with zipfile.ZipFile(dist + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for exe in ("cuenv.exe", "cuenv-net.exe", "cuenv-probe.exe"):
        z.write(os.path.join(out, exe), "cuenv/" + exe)
    for top, dirs, files in os.walk(os.path.join(out, "manifests")):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(top, f)
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            z.write(path, "cuenv/" + rel)
os.replace(dist + ".tmp", dist)
EOF_ZIP
echo "  ZIP     $OUT/cuenv-windows-x86_64.zip"
