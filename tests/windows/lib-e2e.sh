# shellcheck shell=sh
# tests/windows/lib-e2e.sh: what every part of the Windows end-to-end
# suite (tests/windows/e2e-*.sh, run by e2e.sh) shares: wine, the
# programs, run/expect/has, and a machine with NVIDIA's Windows layouts.
#
# A part sources this, calls `machine` for a fresh store and toolkit,
# runs its checks and ends with `finish`.
#
#   BUILDROOT  where make windows put the programs (default build)
#   CUENV_WINEPREFIX  the wine prefix (required; make makes one per run:
#                     tools/with-wine-prefix.sh)

HOST=x86_64-w64-mingw32
WINE=/usr/lib/wine/wine64
BIN=$(pwd)/${BUILDROOT:-build}/windows
part=$(basename "$0" .sh)

die() { echo "$part: FAIL: $*" >&2; exit 1; }
[ -x "$WINE" ] || die "wine64 is not installed ($WINE): apt-get install wine64"
[ -f "$BIN/cuenv-windows-x86_64.zip" ] ||
	die "no $BIN/cuenv-windows-x86_64.zip: make windows"
export WINEPREFIX="${CUENV_WINEPREFIX:?set CUENV_WINEPREFIX to a wine prefix of your own (make runs this through tools/with-wine-prefix.sh)}"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "$part: creating wine prefix $WINEPREFIX"
	"$WINE" wineboot -i >/dev/null 2>&1 || true
	/usr/lib/wine/wineserver -w
fi

passed=0
failed=0
out=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-win-e2e.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT

# run WINDOWS-CWD CMD...: CMD under wine in that folder (below C:\, the
# prefix's drive_c); stdout in $out/o, stderr in $out/e, the exit code in
# $rc. Carriage returns of text-mode output are dropped.
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
# has NAME o|e TEXT: the last run's stdout (o) or stderr (e) holds TEXT
has() {
	if grep -qF -- "$3" "$out/$2"; then ok "$1"; else bad "$1 (no '$3')"; fi
}
# lacks NAME o|e TEXT: ... does not
lacks() {
	if grep -qF -- "$3" "$out/$2"; then bad "$1 (has '$3')"; else ok "$1"; fi
}
finish() {
	echo "$part: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}

# mingw_dll OUT C-SOURCE [LIBS...]: a real DLL.
mingw_dll() {
	o=$1
	printf '%s\n' "$2" >"$out/dll.c"
	shift 2
	$HOST-gcc -shared -o "$o" "$out/dll.c" "$@" ||
		die "cannot build $o"
}

# The machine: CUDA 11.2 as NVIDIA's installer lays it out (CUDA_PATH_V11_2
# names it), cuDNN 8.1's zip, DLLs built by mingw, loadcheck.exe
# (tests/windows/loadcheck.c) and cuenv's programs in C:\cuenv-e2e\app, an
# empty store in the default place (%LOCALAPPDATA%\cuenv) and a project
# folder with a space in its name. Nothing of the Linux side leaks in.
# shellcheck disable=SC2034 # the parts use them
tk='Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2'
dn='cuenv-e2e/tools/cudnn-11.2-windows-x64-v8.1.1.33/cuda'
proj='cuenv-e2e/Users/me/my proj'
cuenv='C:\cuenv-e2e\app\cuenv.exe'
loadcheck='C:\cuenv-e2e\app\loadcheck.exe'
WTK='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2'
WDN='C:\cuenv-e2e\tools\cudnn-11.2-windows-x64-v8.1.1.33\cuda'
machine() {
	rm -rf "$C/cuenv-e2e" "$C/Program Files/NVIDIA GPU Computing Toolkit" \
		"$C"/users/*/AppData/Local/cuenv
	mkdir -p "$C/$tk/bin" "$C/$tk/include" "$C/$tk/lib/x64" \
		"$C/$tk/extras/CUPTI/lib64" "$C/$dn/bin" "$C/$dn/include" \
		"$C/$dn/lib/x64" "$C/$proj/src" "$C/cuenv-e2e/app"
	mingw_dll "$C/$tk/bin/cudart64_110.dll" \
		'__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 11020; return 0; }'
	mingw_dll "$C/$tk/bin/cublas64_11.dll" \
		'__declspec(dllexport) int cublasCreate_v2(void **h) { *h = 0; return 0; }'
	mingw_dll "$C/$tk/extras/CUPTI/lib64/cupti64_2020.3.1.dll" \
		'__declspec(dllexport) int cuptiGetVersion(unsigned *v) { *v = 14; return 0; }'
	mingw_dll "$C/$dn/bin/cudnn64_8.dll" \
		'__declspec(dllexport) int cudnnGetVersion(void) { return 8101; }'
	# cuDNN's sub-library imports cuBLAS 11: cuDNN for CUDA 11
	mingw_dll "$C/$dn/bin/cudnn_ops_infer64_8.dll" \
		'int cublasCreate_v2(void **h); __declspec(dllexport) int ops(void) { void *h; return cublasCreate_v2(&h); }' \
		"$C/$tk/bin/cublas64_11.dll"
	$HOST-gcc -O2 -o "$C/cuenv-e2e/app/loadcheck.exe" \
		tests/windows/loadcheck.c || die "cannot build loadcheck.exe"
	: >"$C/$tk/bin/nvcc.exe"
	: >"$C/$tk/lib/x64/cudart.lib"
	: >"$C/$dn/lib/x64/cudnn.lib"
	printf '#define CUDART_VERSION 11020\r\n' \
		>"$C/$tk/include/cuda_runtime_api.h"
	printf '#define CUDNN_MAJOR 8\r\n#define CUDNN_MINOR 1\r\n#define CUDNN_PATCHLEVEL 1\r\n' \
		>"$C/$dn/include/cudnn_version.h"
	# cuenv as a user installs it: the release zip unpacked (cuenv\
	# holds the programs and the catalogue), in C:\cuenv-e2e\app.
	python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
		"$BIN/cuenv-windows-x86_64.zip" "$C/cuenv-e2e" &&
		mv "$C/cuenv-e2e/cuenv/"* "$C/cuenv-e2e/app/" ||
		die "cannot unpack cuenv-windows-x86_64.zip"
	unset CUENV_ROOT CUDA_PATH CUDA_HOME HOME
	CUDA_PATH_V11_2=$WTK
	export CUDA_PATH_V11_2
}

# registered: the machine's toolkit and cuDNN registered, and the project
# set to them.
registered() {
	run cuenv-e2e "$cuenv" add cuda "$WTK"
	[ "$rc" = 0 ] || die "cannot register the toolkit: $(cat "$out/e")"
	run cuenv-e2e "$cuenv" add cudnn "$WDN"
	[ "$rc" = 0 ] || die "cannot register cuDNN: $(cat "$out/e")"
	run "$proj" "$cuenv" local 11.2 --cudnn 8.1
	[ "$rc" = 0 ] || die "cannot select them: $(cat "$out/e")"
}

# has_text NAME TEXT: the last run's stdout holds TEXT once its wrapped
# lines are joined (doctor's report wraps at 79 columns).
has_text() {
	if tr '\n' ' ' <"$out/o" | sed 's/  */ /g' | grep -qF -- "$2"; then
		ok "$1"
	else
		bad "$1 (no '$2')"
	fi
}
# fix_of ID: the first "fix:" line of the last run's finding [ID], as
# printed (one line, not wrapped).
fix_of() {
	sed -n "/\\[$1\\]/,/^    fix: /s/^    fix: //p" "$out/o" | head -n 1
}
