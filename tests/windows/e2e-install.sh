#!/bin/sh
# cuenv install on Windows: cuenv.exe hands `install` to cuenv-net.exe,
# which downloads NVIDIA's windows-x86_64 .zip archives from a mirror (the
# tests' HTTP server, tests/fixtures/server.py, on 127.0.0.1 and a free
# port), checks their sha256 and unpacks them into the store
# (%LOCALAPPDATA%\cuenv), with the guarantees it has on Linux:
#  - cuda_cudart 12.4.1's zip installs: bin\cudart64_12.dll, listed by
#    versions, loaded by a program cuenv exec runs; cuDNN 9.1's Windows
#    archive (cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip) beside it;
#  - an archive whose bytes are not the catalogue's sha256 is refused in
#    one line, nothing installed;
#  - hostile zip entries (..\x, C:\x, \\srv\share\x, file:stream, CON,
#    NUL.dll, a trailing dot or space), each alone in the zip or below its
#    top folder, refused with nothing written outside the store;
#  - two installs of one version at once both end well, one copy made
#    (the store's locks are LockFileEx);
#  - an install killed half-way (every process of the wine prefix, as a
#    power cut: wineserver -k) leaves nothing half-made, and the next one
#    succeeds.
# The catalogue is made here: NVIDIA's redistrib JSON format, with the
# zips' own sha256 and size, and their pins in redistrib-json-sha256.tsv.
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh
CUENV_FIXTURES=$(pwd)/tests/fixtures
export CUENV_FIXTURES
. tests/fixtures/serve.sh
trap 'serve_stop; rm -rf "$out"' EXIT

machine
cat="$C/cuenv-e2e/catalogue"
cuda_v=12.4.1
cudart_top=cuda_cudart-windows-x86_64-12.4.127-archive
cudart_rel=cuda_cudart/windows-x86_64/$cudart_top.zip
cudnn_top=cudnn-windows-x86_64-9.1.0.70_cuda12-archive
cudnn_rel=cudnn/windows-x86_64/$cudnn_top.zip

# The DLLs the archives carry, built by mingw.
mkdir -p "$out/dll"
mingw_dll "$out/dll/cudart64_12.dll" \
	'__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 12040; return 0; }'
mingw_dll "$out/dll/cublas64_12.dll" \
	'__declspec(dllexport) int cublasCreate_v2(void **h) { *h = 0; return 0; }'
mingw_dll "$out/dll/cudnn64_9.dll" \
	'__declspec(dllexport) unsigned long long cudnnGetVersion(void) { return 90100; }'
# cuDNN's sub-library imports cuBLAS 12: cuDNN for CUDA 12
mingw_dll "$out/dll/cudnn_ops64_9.dll" \
	'int cublasCreate_v2(void **h); __declspec(dllexport) int ops(void) { void *h; return cublasCreate_v2(&h); }' \
	"$out/dll/cublas64_12.dll"

# catalogue [CUDART_EXTRA...]: the mirror and the catalogue in $cat:
# cuda_cudart 12.4.1's zip (its top folder, bin\cudart64_12.dll,
# lib\x64\cudart.lib, include\) with each CUDART_EXTRA as one more entry
# (named as given: "-" writes none), libcublas's (bin\cublas64_12.dll),
# cuDNN 9.1.0.70's zip for CUDA 12, and
# the redistrib JSONs naming their sha256 and size, pinned in
# redistrib-json-sha256.tsv. With CORRUPT=1, the cudart zip's bytes
# change after the catalogue is written (same size).
catalogue() {
	rm -rf "$cat"
	python3 - "$cat" "$out/dll" "$@" <<'EOF_CAT' || die "cannot make the catalogue"
import hashlib, json, os, sys, zipfile

cat, dll = sys.argv[1:3]
extra = [e for e in sys.argv[3:] if e != "-"]
corrupt = os.environ.get("CORRUPT") == "1"
mirror = os.path.join(cat, "mirror")
man = os.path.join(cat, "manifests")


def dllbytes(name):
    return open(os.path.join(dll, name), "rb").read()


def mkzip(base, rel, top, files, extra=()):
    path = os.path.join(mirror, base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(top + "/" + name, data)
        for name in extra:
            z.writestr(zipfile.ZipInfo(name), b"cuenv-evil\n")
    data = open(path, "rb").read()
    entry = {"relative_path": rel,
             "sha256": hashlib.sha256(data).hexdigest(),
             "md5": hashlib.md5(data).hexdigest(),
             "size": str(len(data))}
    return path, entry


cudart_top = "cuda_cudart-windows-x86_64-12.4.127-archive"
zpath, cudart = mkzip("compute/cuda/redist",
                      "cuda_cudart/windows-x86_64/%s.zip" % cudart_top,
                      cudart_top, {
                          "bin/cudart64_12.dll": dllbytes("cudart64_12.dll"),
                          "lib/x64/cudart.lib": b"!<arch>\n",
                          "include/cuda_runtime_api.h":
                              b"#define CUDART_VERSION 12040\r\n",
                          "LICENSE": b"fixture\n"}, extra)
if corrupt:
    data = bytearray(open(zpath, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(zpath, "wb").write(bytes(data))
cublas_top = "libcublas-windows-x86_64-12.4.5.8-archive"
_, cublas = mkzip("compute/cuda/redist",
                  "libcublas/windows-x86_64/%s.zip" % cublas_top,
                  cublas_top, {
                      "bin/cublas64_12.dll": dllbytes("cublas64_12.dll"),
                      "lib/x64/cublas.lib": b"!<arch>\n",
                      "LICENSE": b"fixture\n"})
cudnn_top = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive"
_, cudnn = mkzip("compute/cudnn/redist",
                 "cudnn/windows-x86_64/%s.zip" % cudnn_top, cudnn_top, {
                     "bin/cudnn64_9.dll": dllbytes("cudnn64_9.dll"),
                     "bin/cudnn_ops64_9.dll": dllbytes("cudnn_ops64_9.dll"),
                     "include/cudnn_version.h":
                         b"#define CUDNN_MAJOR 9\r\n#define CUDNN_MINOR 1\r\n"
                         b"#define CUDNN_PATCHLEVEL 0\r\n",
                     "include/cudnn.h": b"#include \"cudnn_version.h\"\r\n",
                     "lib/x64/cudnn.lib": b"!<arch>\n",
                     "LICENSE": b"fixture\n"})

docs = {
    ("cuda", "12.4.1"): {
        "release_date": "2024-04-12", "release_label": "12.4.1",
        "release_product": "cuda",
        "cuda_cudart": {"name": "CUDA Runtime (cudart)",
                        "license": "CUDA Toolkit",
                        "license_path": "cuda_cudart/LICENSE.txt",
                        "version": "12.4.127", "windows-x86_64": cudart},
        "libcublas": {"name": "CUDA cuBLAS", "license": "CUDA Toolkit",
                      "license_path": "libcublas/LICENSE.txt",
                      "version": "12.4.5.8", "windows-x86_64": cublas}},
    ("cudnn", "9.1.0"): {
        "release_date": "2024-04-12", "release_label": "9.1.0",
        "release_product": "cudnn",
        "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library",
                  "license": "cudnn", "license_path": "cudnn/LICENSE.txt",
                  "version": "9.1.0.70", "cuda_variant": ["12"],
                  "windows-x86_64": {"cuda12": cudnn}}},
}
pins = ["product\tversion\turl\tsha256_of_json\tsource\tlocal_copy_check"]
for (product, ver), d in docs.items():
    js = json.dumps(d, indent=2).encode()
    os.makedirs(os.path.join(man, product), exist_ok=True)
    open(os.path.join(man, product, "redistrib_%s.json" % ver), "wb").write(js)
    pins.append("\t".join([
        product, ver,
        "https://developer.download.nvidia.com/compute/%s/redist/"
        "redistrib_%s.json" % (product, ver),
        hashlib.sha256(js).hexdigest(), "tests/windows/e2e-install.sh",
        "MATCH redistrib_%s.json" % ver]))
open(os.path.join(man, "redistrib-json-sha256.tsv"), "w").write(
    "\n".join(pins) + "\n")
EOF_CAT
}

# The store, as cuenv.exe finds it (%LOCALAPPDATA%\cuenv), seen from here.
store=$C/users/$(id -un)/AppData/Local/cuenv
vdir=$store/versions/cuda/$cuda_v
WV="C:\\users\\$(id -un)\\AppData\\Local\\cuenv\\versions\\cuda\\$cuda_v"

# nothing_half_made: no version folder, nothing in .staging, no pool tree.
nothing_half_made() {
	if [ -e "$vdir" ]; then
		bad "$1: versions/cuda/$cuda_v exists"
	elif [ -n "$(ls -A "$store/.staging" 2>/dev/null)" ]; then
		bad "$1: .staging holds $(ls -A "$store/.staging")"
	else
		ok "$1"
	fi
}

# outside_clean NAME: no file that holds cuenv-evil anywhere on the
# prefix's drive C: but in the mirror (nor in the store's cache).
outside_clean() {
	found=$(grep -rlF cuenv-evil "$C" 2>/dev/null |
		grep -vF "$cat/mirror/")
	if [ -z "$found" ]; then ok "$1"; else
		echo "$found" >"$out/o"
		bad "$1"
	fi
}

catalogue -
serve_start "$cat/mirror" || die "cannot start the mirror's server"
CUENV_MANIFESTS='C:\cuenv-e2e\catalogue\manifests'
CUENV_MIRROR=$SERVER_URL
CUENV_FETCH_BACKOFF_MS=10
export CUENV_MANIFESTS CUENV_MIRROR CUENV_FETCH_BACKOFF_MS
echo "$part: mirror $SERVER_URL, store $store"

# (1) NVIDIA's cudart zip.
run cuenv-e2e "$cuenv" install 12.4
expect "install 12.4 (cuda_cudart's windows-x86_64 zip)" 0
has "it says where" o "installed cuda $cuda_v in $WV ("
if cmp -s "$vdir/bin/cudart64_12.dll" "$out/dll/cudart64_12.dll"; then
	ok "bin/cudart64_12.dll is the zip's"
else bad "bin/cudart64_12.dll is the zip's"; fi
if [ -f "$vdir/lib/x64/cudart.lib" ] && [ -f "$vdir/include/cuda_runtime_api.h" ] &&
	[ ! -e "$vdir/$cudart_top" ]; then
	ok "lib/x64 and include, the top folder stripped"
else bad "lib/x64 and include, the top folder stripped"; fi
if grep -q "GET /compute/cuda/redist/$cudart_rel - 200" "$SERVER_LOG"; then
	ok "the zip came from the mirror"
else bad "the zip came from the mirror"; fi

run cuenv-e2e "$cuenv" versions
expect "versions" 0
has "versions lists it" o "$cuda_v"

mkdir -p "$C/$proj"
run "$proj" "$cuenv" local 12.4
expect "local 12.4" 0
run "$proj" "$cuenv" exec -- "$loadcheck" -e CUDA_PATH cudart64_12.dll cublas64_12.dll
expect "exec loads the DLLs" 0
has "cudart64_12.dll is the installed one" o "cudart64_12.dll -> $WV\\bin\\cudart64_12.dll"
has "cublas64_12.dll too (libcublas's zip)" o "cublas64_12.dll -> $WV\\bin\\cublas64_12.dll"
has "CUDA_PATH is the installed version" o "CUDA_PATH=$WV"

run cuenv-e2e "$cuenv" install 12.4
expect "install 12.4 again" 0
has "it is already there" o "already installed"

# (2) cuDNN's Windows archive, for the selected CUDA 12.
WDV="C:\\users\\$(id -un)\\AppData\\Local\\cuenv\\versions\\cudnn"
run "$proj" "$cuenv" install cudnn 9.1
expect "install cudnn 9.1 (cuDNN's windows-x86_64 zip)" 0
has "installed cuDNN 9.1.0.70" o "installed cudnn 9.1.0.70"
if grep -q "GET /compute/cudnn/redist/$cudnn_rel - 200" "$SERVER_LOG"; then
	ok "cuDNN's zip came from the mirror"
else bad "cuDNN's zip came from the mirror"; fi
run "$proj" "$cuenv" local 12.4 --cudnn 9.1
expect "local 12.4 --cudnn 9.1" 0
run "$proj" "$cuenv" exec -- "$loadcheck" -e CUENV_ACTIVE cudart64_12.dll cudnn64_9.dll cudnn_ops64_9.dll
expect "exec loads cudart and cuDNN" 0
has "cudnn64_9.dll is the installed one" o "cudnn64_9.dll -> $WDV\\"
has "cudnn_ops64_9.dll (it imports cublas64_12.dll: the zip's bin is on PATH)" o "cudnn_ops64_9.dll -> $WDV\\"
has "CUENV_ACTIVE names both" o "CUENV_ACTIVE=12.4.1+cudnn9.1.0"

# (3) A corrupted archive: the mirror's cudart zip is not the catalogue's.
rm -rf "$store"
CORRUPT=1 catalogue -
run cuenv-e2e "$cuenv" install 12.4
expect "a corrupted zip is refused (exit 5)" 5
has "sha256 mismatch, the archive named" e \
	"cuenv: error: sha256 mismatch for '$SERVER_URL/compute/cuda/redist/$cudart_rel': expected "
if [ "$(grep -c "error" "$out/e")" = 1 ]; then ok "one line of error"; else
	bad "one line of error"; fi
nothing_half_made "nothing installed from it"
run cuenv-e2e "$cuenv" versions
lacks "versions does not list it" o "$cuda_v"
kept=
for f in "$store"/cache/*; do
	if cmp -s "$f" "$cat/mirror/compute/cuda/redist/$cudart_rel"; then kept=$f; fi
done
if [ -z "$kept" ]; then ok "the corrupted zip is not kept in the cache"; else
	echo "$kept" >"$out/o"
	bad "the corrupted zip is not kept in the cache"
fi

# (4) Hostile entries: each one more entry in the cudart zip, listed with
# its true sha256, so only the unpacking can stop it; alone as the zip
# holds it (no '/': libarchive reads '\' as a separator there, so what
# arrives is ../x, C:/x, //srv/share/x) and below the top folder.
top=$cudart_top
for name in '..\cuenv-evil.dll' 'C:\cuenv-evil.dll' '\\srv\share\cuenv-evil.dll' \
	'bin\cuenv-evil.dll:stream' 'CON' 'NUL.dll' 'cuenv-evil.' 'cuenv-evil ' \
	"$top/bin\\..\\..\\cuenv-evil.dll" "$top/C:\\cuenv-evil.dll" \
	"$top/\\\\srv\\share\\cuenv-evil.dll" "$top/bin/cuenv-evil.dll:stream" \
	"$top/bin/CON" "$top/bin/NUL.dll" "$top/bin/con.txt" "$top/bin/cuenv-evil." \
	"$top/bin/cuenv-evil " "$top/../cuenv-evil.dll" "/cuenv-evil.dll"; do
	# shown as cuenv shows it (echo would read a backslash)
	n=$(printf '%s' "$name" | sed 's/\\/\\x5c/g')
	rm -rf "$store"
	catalogue "$name"
	run cuenv-e2e "$cuenv" install 12.4
	expect "entry '$n': refused (exit 6)" 6
	has "entry '$n': named" e "cuenv: error: refused archive entry '"
	printf '    %s\n' "$(grep 'error:' "$out/e")"
	nothing_half_made "entry '$n': nothing installed"
	outside_clean "entry '$n': nothing written outside the store"
done

# bg NAME CMD...: CMD under wine in C:\cuenv-e2e, in the background:
# $out/NAME.o, $out/NAME.e, $out/NAME.rc once it ends.
bg() {
	b=$1
	shift
	(
		cd "$C/cuenv-e2e" && "$WINE" "$@" >"$out/$b.raw" 2>"$out/$b.eraw"
		echo $? >"$out/$b.rc"
		tr -d '\r' <"$out/$b.raw" >"$out/$b.o"
		tr -d '\r' <"$out/$b.eraw" >"$out/$b.e"
	) &
}
# wait_for TEST: up to 30 s until the shell test TEST holds.
wait_for() {
	n=0
	until eval "$1"; do
		[ "$n" -lt 600 ] || return 1
		sleep 0.05
		n=$((n + 1))
	done
}
# show NAME: make bg job NAME's output the last run's, for has/lacks.
show() {
	cp "$out/$1.o" "$out/o"
	cp "$out/$1.e" "$out/e"
	rc=$(cat "$out/$1.rc")
}
cudart_zip=/compute/cuda/redist/$cudart_rel

# (5) Two installs of one version started at once (the cudart zip
# trickling in, so that they overlap): both end well, each zip is
# downloaded once, one copy of the version, nothing left in .staging.
rm -rf "$store"
catalogue -
: >"$SERVER_LOG"
serve_faults "{\"$cudart_zip\": {\"trickle\": 15000}}"
bg a "$cuenv" install 12.4
bg b "$cuenv" install 12.4
wait
show a
expect "the first of two installs at once" 0
show b
expect "the second of two installs at once" 0
if [ "$(cat "$out/a.o" "$out/b.o" | grep -c "^installed cuda $cuda_v in ")" = 1 ] &&
	[ "$(cat "$out/a.o" "$out/b.o" | grep -c "already installed")" = 1 ]; then
	ok "one installed it, the other found it installed"
else
	cat "$out/a.o" "$out/b.o" >"$out/o"
	cat "$out/a.e" "$out/b.e" >"$out/e"
	bad "one installed it, the other found it installed"
fi
cat "$out/a.e" "$out/b.e" >"$out/e"
has "the later one waited for the first" e "another install of $cuda_v is running; waiting for it"
if [ "$(grep -c "GET $cudart_zip - 200" "$SERVER_LOG")" = 1 ]; then
	ok "the cudart zip was downloaded once"
else
	cp "$SERVER_LOG" "$out/o"
	bad "the cudart zip was downloaded once"
fi
# shellcheck disable=SC2012 # pool trees are named by sha256
if cmp -s "$vdir/bin/cudart64_12.dll" "$out/dll/cudart64_12.dll" &&
	[ -f "$vdir/.cuenv-receipt" ] && [ "$(ls "$store/pool" | wc -l)" = 2 ] &&
	[ -z "$(ls -A "$store/.staging")" ]; then
	ok "one whole copy: receipt, the DLL, two pool trees, .staging empty"
else
	ls -R "$store" >"$out/o"
	bad "one whole copy: receipt, the DLL, two pool trees, .staging empty"
fi
run cuenv-e2e "$cuenv" versions
expect "versions after the two installs" 0
has "versions lists it" o "$cuda_v"

# (6) An install killed half-way, with every process of the prefix
# (wineserver -k: cuenv.exe and the cuenv-net.exe it runs, as a power
# cut would): no version, half-made or not; the next install resumes the
# zip from the cache (a Range request) and succeeds, .staging emptied.
rm -rf "$store"
serve_faults "{\"$cudart_zip\": {\"trickle\": 4000}}"
: >"$SERVER_LOG"
bg k "$cuenv" install 12.4
# shellcheck disable=SC2016 # wait_for evaluates it
if wait_for '[ -n "$(find "$store/cache" -name "*.part" -size +4k 2>/dev/null)" ]'; then
	ok "the killed install was downloading"
else bad "the killed install was downloading"; fi
/usr/lib/wine/wineserver -k
wait
if [ "$(cat "$out/k.rc")" != 0 ] && ! grep -q "^installed" "$out/k.o"; then
	ok "it was killed before it finished"
else
	show k
	bad "it was killed before it finished"
fi
if [ ! -e "$vdir" ]; then ok "no version folder after the kill"; else
	ls -R "$vdir" >"$out/o"
	bad "no version folder after the kill"
fi
run cuenv-e2e "$cuenv" versions
lacks "versions does not list it" o "$cuda_v"
serve_faults '{}'
: >"$SERVER_LOG"
run cuenv-e2e "$cuenv" install 12.4
expect "the next install" 0
has "it installs" o "installed cuda $cuda_v in $WV ("
if grep -q "^GET $cudart_zip bytes=[1-9][0-9]*- 206$" "$SERVER_LOG"; then
	ok "it resumed the zip from the killed one's bytes"
else
	cp "$SERVER_LOG" "$out/o"
	bad "it resumed the zip from the killed one's bytes"
fi
if cmp -s "$vdir/bin/cudart64_12.dll" "$out/dll/cudart64_12.dll" &&
	[ -z "$(ls -A "$store/.staging")" ]; then
	ok "the DLL whole, .staging empty"
else
	ls -R "$store" >"$out/o"
	bad "the DLL whole, .staging empty"
fi
rm -f "$C/$proj/.cuenv"
run "$proj" "$cuenv" local 12.4
run "$proj" "$cuenv" exec -- "$loadcheck" cudart64_12.dll
has "exec loads it" o "cudart64_12.dll -> $WV\\bin\\cudart64_12.dll"

finish
