#!/bin/sh
# tests/windows/e2e.sh (make test-windows-e2e): the README's Windows
# walk-through, run for real with cuenv.exe under Debian's wine64.
#
# A CUDA 11.2 toolkit laid out as NVIDIA's installer lays it out (C:\Program
# Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2, CUDA_PATH_V11_2 naming it)
# and cuDNN 8.1's zip, with DLLs built by mingw; `cuenv add --discover`,
# `cuenv add cudnn`, `cuenv local 11.2 --cudnn 8.1` in a project whose
# path has a space, `cuenv exec` from a folder below it (the .cuenv walk-up
# on drive-letter paths) running a program that loads cudart64_110.dll as
# TensorFlow does, its exit code passed through; `cuenv env --format cmd`
# read by wine's cmd.exe in a batch file; doctor and explain on the
# message TensorFlow prints when cudart64_110.dll is missing; the install
# of a windows-x86_64 zip from a local HTTP server.
#
#   BUILDROOT  where make windows put the programs (default build)
#   CUENV_WINEPREFIX  wine prefix, reused (default /tmp/cuenv-wine-UID)
set -u

cd "$(dirname "$0")/../.."
HOST=x86_64-w64-mingw32
WINE=/usr/lib/wine/wine64
BIN=$(pwd)/${BUILDROOT:-build}/windows

die() { echo "windows-e2e: FAIL: $*" >&2; exit 1; }
[ -x "$WINE" ] || die "wine64 is not installed ($WINE): apt-get install wine64"
[ -f "$BIN/cuenv.exe" ] || die "no $BIN/cuenv.exe: make windows"
export WINEPREFIX="${CUENV_WINEPREFIX:-/tmp/cuenv-wine-$(id -u)}"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "windows-e2e: creating wine prefix $WINEPREFIX"
	"$WINE" wineboot -i >/dev/null 2>&1 || true
	/usr/lib/wine/wineserver -w
fi

passed=0
failed=0
out=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-win-e2e.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT

# run WINDOWS-CWD CMD...: CMD under wine in that folder (a C: path, made
# under the prefix's drive_c); stdout in $out/o, stderr in $out/e, the
# exit code in $rc. Carriage returns of text-mode output are dropped.
C=$WINEPREFIX/drive_c
run() {
	dir=$1
	shift
	(cd "$C/$dir" && "$WINE" "$@") >"$out/o.raw" 2>"$out/e.raw"
	rc=$?
	tr -d '\r' <"$out/o.raw" >"$out/o"
	tr -d '\r' <"$out/e.raw" >"$out/e"
}
ok() {
	passed=$((passed + 1))
	echo "  ok  $1"
}
bad() {
	failed=$((failed + 1))
	echo "  FAIL $1"
	sed 's/^/    stdout: /' "$out/o"
	sed 's/^/    stderr: /' "$out/e"
}
# expect NAME CODE: the last run's exit code
expect() { if [ "$rc" = "$2" ]; then ok "$1"; else bad "$1 (exit $rc, wanted $2)"; fi; }
# has NAME FILE TEXT: the last run's stdout (o) or stderr (e) holds TEXT
has() {
	if grep -qF -- "$3" "$out/$2"; then ok "$1"; else bad "$1 (no '$3')"; fi
}

# ---- the machine: a toolkit, cuDNN's zip, a program that loads them -----
rm -rf "$C/cuenv-e2e" "$C/Program Files/NVIDIA GPU Computing Toolkit"
tk='Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2'
dn='cuenv-e2e/tools/cudnn-11.2-windows-x64-v8.1.1.33/cuda'
proj='cuenv-e2e/Users/me/my proj'
mkdir -p "$C/$tk/bin" "$C/$tk/include" "$C/$tk/lib/x64" \
	"$C/$tk/extras/CUPTI/lib64" "$C/$dn/bin" "$C/$dn/include" \
	"$C/$dn/lib/x64" "$C/$proj/src" "$C/cuenv-e2e/app" "$C/cuenv-e2e/src"
s=$C/cuenv-e2e/src
printf '__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 11020; return 0; }\n' >"$s/cudart.c"
printf '__declspec(dllexport) int cublasCreate_v2(void **h) { *h = 0; return 0; }\n' >"$s/cublas.c"
printf '__declspec(dllexport) int cudnnGetVersion(void) { return 8101; }\n' >"$s/cudnn.c"
printf 'int cublasCreate_v2(void **h);\n__declspec(dllexport) int ops(void) { void *h; return cublasCreate_v2(&h); }\n' >"$s/ops.c"
printf '__declspec(dllexport) int cuptiGetVersion(unsigned *v) { *v = 14; return 0; }\n' >"$s/cupti.c"
$HOST-gcc -shared -o "$C/$tk/bin/cudart64_110.dll" "$s/cudart.c" &&
	$HOST-gcc -shared -o "$C/$tk/bin/cublas64_11.dll" "$s/cublas.c" &&
	$HOST-gcc -shared -o "$C/$tk/extras/CUPTI/lib64/cupti64_2020.3.1.dll" "$s/cupti.c" &&
	$HOST-gcc -shared -o "$C/$dn/bin/cudnn64_8.dll" "$s/cudnn.c" &&
	$HOST-gcc -shared -o "$C/$dn/bin/cudnn_ops_infer64_8.dll" "$s/ops.c" \
		"$C/$tk/bin/cublas64_11.dll" &&
	$HOST-gcc -O2 -o "$C/cuenv-e2e/app/loadcheck.exe" tests/windows/loadcheck.c ||
	die "cannot build the fake DLLs and loadcheck.exe"
: >"$C/$tk/bin/nvcc.exe"
: >"$C/$tk/lib/x64/cudart.lib"
: >"$C/$dn/lib/x64/cudnn.lib"
printf '#define CUDART_VERSION 11020\r\n' >"$C/$tk/include/cuda_runtime_api.h"
printf '#define CUDNN_MAJOR 8\r\n#define CUDNN_MINOR 1\r\n#define CUDNN_PATCHLEVEL 1\r\n' \
	>"$C/$dn/include/cudnn_version.h"
cp "$BIN/cuenv.exe" "$BIN/cuenv-net.exe" "$BIN/cuenv-probe.exe" "$C/cuenv-e2e/app/"
rm -rf "$C/cuenv-e2e/manifests"
cp -R "$BIN/manifests" "$C/cuenv-e2e/manifests"
cuenv='C:\cuenv-e2e\app\cuenv.exe'
loadcheck='C:\cuenv-e2e\app\loadcheck.exe'
WTK='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2'
WDN='C:\cuenv-e2e\tools\cudnn-11.2-windows-x64-v8.1.1.33\cuda'
# The store in the default place, %LOCALAPPDATA%\cuenv: wine's
# C:\users\USER\AppData\Local. Nothing of the Linux side leaks in.
unset CUENV_ROOT CUDA_PATH CUDA_HOME HOME
export CUDA_PATH_V11_2="$WTK"

echo "windows-e2e: cuenv.exe under wine ($("$WINE" --version 2>/dev/null))"

run cuenv-e2e "$cuenv" --version
expect "cuenv.exe --version" 0
has "--version names cuenv" o "cuenv"

run cuenv-e2e "$cuenv" add --discover
expect "add --discover registers CUDA_PATH_V11_2's toolkit" 0
has "the toolkit is CUDA 11.2" o "registered cuda 11.2"

run cuenv-e2e "$cuenv" add cudnn "$WDN"
expect "add cudnn (8.1's zip layout)" 0
has "cuDNN 8.1.1 for CUDA 11, from its DLLs' imports" o "registered cudnn 8.1.1 for CUDA 11"

run cuenv-e2e "$cuenv" versions
expect "versions" 0
has "versions lists 11.2" o "11.2"

run "$proj" "$cuenv" local 11.2 --cudnn 8.1
expect "local 11.2 --cudnn 8.1 in a folder with a space" 0
if [ -f "$C/$proj/.cuenv" ]; then ok ".cuenv written"; else bad ".cuenv written"; fi

# From a folder below the project: the walk-up finds its .cuenv.
run "$proj/src" "$cuenv" exec -- "$loadcheck" -e CUDA_PATH -e CUENV_ACTIVE \
	-x 7 cudart64_110.dll cudnn64_8.dll cupti64_2020.3.1.dll
expect "exec passes the program's exit code through" 7
has "cudart64_110.dll is the selection's" o "cudart64_110.dll -> $WTK\\bin\\cudart64_110.dll"
has "cudnn64_8.dll is the selection's" o "cudnn64_8.dll -> $WDN\\bin\\cudnn64_8.dll"
has "CUPTI's DLL is found" o "cupti64_2020.3.1.dll -> $WTK\\extras\\CUPTI\\lib64\\cupti64_2020.3.1.dll"
has "CUDA_PATH is the toolkit" o "CUDA_PATH=$WTK"
has "CUENV_ACTIVE names the selection" o "CUENV_ACTIVE=11.2+cudnn8.1.1"

# Without cuenv: TensorFlow's failure, error 126.
run "$proj/src" "$loadcheck" cudart64_110.dll
expect "without cuenv cudart64_110.dll is not found" 1
has "error 126, as TensorFlow meets it" o "cudart64_110.dll: error 126"

# cuenv env --format cmd, read by cmd.exe's for /f in a batch file.
cat >"$C/$proj/src/run.bat" <<EOF_BAT
@echo off
for /f "delims=" %%i in ('$cuenv env --format cmd') do set %%i
$loadcheck -e CUDA_PATH cudart64_110.dll
EOF_BAT
run "$proj/src" cmd /c run.bat
expect "a batch file sets the environment with for /f" 0
has "the batch file's program loads the selection's cudart" o "cudart64_110.dll -> $WTK\\bin\\cudart64_110.dll"
has "the batch file's CUDA_PATH" o "CUDA_PATH=$WTK"

# explain: TensorFlow's message, pasted.
run "$proj" "$cuenv" explain "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
expect "explain TensorFlow's cudart64_110.dll message" 0
has "explain names CUDA 11" o "11."

echo "windows-e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
