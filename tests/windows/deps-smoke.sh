#!/bin/sh
# tests/windows/deps-smoke.sh: the cross-built Windows libraries, proven
# under wine (make test-windows-deps).
#
# Builds (or finds cached) the static libraries with tools/windows-deps.sh,
# cross-compiles tests/windows/deps_smoke.c and test_digest_bcrypt.c against
# them, checks that the .exe files import only Windows' own DLLs, then runs
# them with wine64: deps_smoke fetches a redistrib-style manifest and a
# .zip from a Python HTTP server on 127.0.0.1 (libcurl), parses the
# manifest (jansson), hashes (BCrypt) and reads the zip (libarchive); every
# value is checked against what Python's hashlib/zipfile/json computed.
#
#   BUILDROOT   object folder (default build): outputs in BUILDROOT/windows
#   CUENV_WINEPREFIX  the wine prefix (required; make makes one per run:
#                     tools/with-wine-prefix.sh)
set -eu

cd "$(dirname "$0")/../.."
HOST=x86_64-w64-mingw32
WINE=/usr/lib/wine/wine64
OUT=${BUILDROOT:-build}/windows
export WINEPREFIX="${CUENV_WINEPREFIX:?set CUENV_WINEPREFIX to a wine prefix of your own (make runs this through tools/with-wine-prefix.sh)}"
export WINEDEBUG=-all
# Windows' own DLLs, the only imports allowed (lowercase)
SYSTEM_DLLS=" kernel32.dll msvcrt.dll advapi32.dll bcrypt.dll crypt32.dll \
secur32.dll ws2_32.dll user32.dll "

fail() { echo "deps-smoke: FAIL: $*" >&2; exit 1; }

prefix=$(tools/windows-deps.sh)
[ -f "$prefix/cuenv-win.mk" ] || fail "no $prefix/cuenv-win.mk"
flag() { sed -n "s/^$1=//p" "$prefix/cuenv-win.mk"; }
CPPFLAGS_W=$(flag WIN_DEPS_CPPFLAGS)
LIBS_W=$(flag WIN_DEPS_LIBS)
WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
-Wno-format-nonliteral"

mkdir -p "$OUT"
objs=
for m in digest_bcrypt err buf plat_path xalloc; do
	src=$(find core -name "$m.c" | sed -n 1p)
	# shellcheck disable=SC2086
	$HOST-gcc -std=c11 -O2 $WARN -iquote core -c "$src" -o "$OUT/$m.o"
	objs="$objs $OUT/$m.o"
done
# shellcheck disable=SC2086
$HOST-gcc -std=c11 -O2 $WARN -iquote core $CPPFLAGS_W tests/windows/deps_smoke.c $objs \
	-static $LIBS_W -o "$OUT/deps_smoke.exe"
# shellcheck disable=SC2086
$HOST-gcc -std=c11 -O2 $WARN -iquote core tests/windows/test_digest_bcrypt.c $objs \
	-static -lbcrypt -o "$OUT/test_digest_bcrypt.exe"

for exe in "$OUT/deps_smoke.exe" "$OUT/test_digest_bcrypt.exe"; do
	dlls=$($HOST-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' |
		tr '[:upper:]' '[:lower:]' | sort -u)
	[ -n "$dlls" ] || fail "$exe: no imports found by objdump"
	for dll in $dlls; do
		case "$SYSTEM_DLLS" in
		*" $dll "*) ;;
		*) fail "$exe imports $dll, not one of Windows' own DLLs" ;;
		esac
	done
	echo "ok   $(basename "$exe") imports only:" "$(echo "$dlls" | tr '\n' ' ')"
done

if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "deps-smoke: creating wine prefix $WINEPREFIX"
	"$WINE" wineboot -i >/dev/null 2>&1 || true
	# the registry files are written when the wine server exits
	/usr/lib/wine/wineserver -w
fi
[ -f "$WINEPREFIX/system.reg" ] || fail "wineboot did not create $WINEPREFIX"

echo "== test_digest_bcrypt.exe"
"$WINE" "$OUT/test_digest_bcrypt.exe" || fail "test_digest_bcrypt.exe"

tmp=$(mktemp -d)
server=
cleanup() {
	[ -z "$server" ] || kill "$server" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Fixtures and the expected values, all from Python's own modules.
python3 - "$tmp" <<'EOF'
import hashlib, json, os, random, sys, zipfile
d = sys.argv[1]
top = "cuda_cudart-windows-x86_64-11.2.152-archive"
rng = random.Random(13)
files = [
    (top + "/bin/cudart64_110.dll", bytes(rng.getrandbits(8) for _ in range(300000)), zipfile.ZIP_DEFLATED),
    (top + "/LICENSE", b"NVIDIA license text\r\n" * 500, zipfile.ZIP_DEFLATED),
    (top + "/include/cuda_runtime.h", b"#pragma once\n", zipfile.ZIP_STORED),
    (top + "/doc/r\u00e9sum\u00e9 \u00fcber.txt", "caf\u00e9\n".encode(), zipfile.ZIP_DEFLATED),
]
zpath = os.path.join(d, top + ".zip")
with zipfile.ZipFile(zpath, "w") as z:
    z.writestr(zipfile.ZipInfo(top + "/bin/"), b"")
    for name, data, how in files:
        z.writestr(name, data, compress_type=how)
zdata = open(zpath, "rb").read()
manifest = {
    "release_date": "2021-02-25", "release_label": "11.2.2",
    "cuda_cudart": {
        "name": "CUDA Runtime (cudart)", "version": "11.2.152",
        "windows-x86_64": {
            "relative_path": "cuda_cudart/windows-x86_64/" + top + ".zip",
            "sha256": hashlib.sha256(zdata).hexdigest(),
            "md5": hashlib.md5(zdata).hexdigest(),
            "size": str(len(zdata))}}}
mdata = json.dumps(manifest, indent=2).encode()
open(os.path.join(d, "redistrib.json"), "wb").write(mdata)
os.makedirs(os.path.join(d, "cuda_cudart/windows-x86_64"))
os.rename(zpath, os.path.join(d, "cuda_cudart/windows-x86_64", top + ".zip"))
with open(os.path.join(d, "expect.txt"), "w", encoding="utf-8") as e:
    e.write("manifest_sha256 %s\n" % hashlib.sha256(mdata).hexdigest())
    e.write("version 11.2.152\n")
    e.write("relative_path %s\n" % manifest["cuda_cudart"]["windows-x86_64"]["relative_path"])
    e.write("zip_size %d\n" % len(zdata))
    e.write("zip_sha256 %s\n" % hashlib.sha256(zdata).hexdigest())
    with zipfile.ZipFile(os.path.join(d, "cuda_cudart/windows-x86_64", top + ".zip")) as z:
        for i in z.infolist():
            data = z.read(i)
            e.write("entry %s %d %s %s\n" % ("dir" if i.is_dir() else "file",
                    len(data), hashlib.sha256(data).hexdigest(), i.filename))
EOF
mkdir "$tmp/work"

python3 - "$tmp" >"$tmp/server.log" 2>&1 <<'EOF' &
import functools, http.server, sys
d = sys.argv[1]
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=d)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
open(d + "/port.tmp", "w").write(str(s.server_address[1]))
__import__("os").rename(d + "/port.tmp", d + "/port")
s.serve_forever()
EOF
server=$!
i=0
while [ ! -f "$tmp/port" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the HTTP server did not start"
	sleep 0.1
done
port=$(cat "$tmp/port")

echo "== deps_smoke.exe"
winpath() { printf 'Z:%s' "$1" | sed 's|/|\\|g'; }
"$WINE" "$OUT/deps_smoke.exe" "http://127.0.0.1:$port" \
	"$(winpath "$tmp/expect.txt")" "$(winpath "$tmp/work")" ||
	fail "deps_smoke.exe (server log: $(tail -n 5 "$tmp/server.log"))"
echo "deps-smoke: ok (prefix $prefix)"
