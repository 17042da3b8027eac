#!/bin/sh
# doctor on Windows (issue 13): which cudart64_110.dll, cudnn64_8.dll,
# cupti64_*.dll and nvcuda.dll Windows' loader takes for a program started
# here (core/dllsearch's order: the application's folder, System32, the
# Windows folders, the current folder, PATH), the copies that shadow the
# selection's, each with a fix that is then run as printed, and the
# Python 3.8+ note. Wine's loader is the one checked here, not Windows'
# own (tests/windows/dllsearch.sh compares the model with wine's loader).
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh

machine
registered
sys32=$C/windows/system32
rm -f "$sys32/cudart64_110.dll" "$sys32/cudart64_110.dll.cuenv-moved"


# (1) Nothing wrong: the selection's DLLs are the ones loaded.
run "$proj" "$cuenv" doctor
expect "doctor with nothing wrong" 0
has_text "cudart64_110.dll is loaded from the selection" \
	"cudart64_110.dll is loaded from the selection ($WTK\\bin)"
has_text "cudnn64_8.dll is loaded from the selection" \
	"cudnn64_8.dll is loaded from the selection ($WDN\\bin)"
has_text "CUPTI's DLL is loaded from the selection" \
	"cupti64_2020.3.1.dll is loaded from the selection ($WTK\\extras\\CUPTI\\lib64)"
has "nvcuda.dll is looked for" o "nvcuda.dll"
lacks "no problem" o "[dll-shadowed]"
lacks "no Linux loader findings" o "[missing-soname]"
lacks "... nor Linux's driver files" o "/sys/module"

run "$proj" "$cuenv" doctor --json
expect "doctor --json" 0
has "--json: the same findings" o '"id": "dll-loaded"'
has "--json: the loaded copy in paths" o "$(printf '%s' "$WTK\\bin\\cudart64_110.dll" | sed 's/\\/\\\\/g')"

# (2) A stray cudart64_110.dll in System32, as old installers left them.
mingw_dll "$sys32/cudart64_110.dll" \
	'__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 11000; return 0; }'
run "$proj" "$cuenv" doctor
expect "a stray copy in System32 is a problem" 15
has "it is named as shadowing" o "[dll-shadowed]"
has_text "System32's copy is loaded instead" \
	"C:\\windows\\System32\\cudart64_110.dll is loaded instead of the selection's copy in $WTK\\bin"
fix=$(fix_of dll-shadowed)
case $fix in
ren\ *) ok "the fix is a cmd command: $fix" ;;
*) bad "the fix is a cmd command (got '$fix')" ;;
esac
printf '@echo off\r\n%s\r\n' "$fix" >"$C/cuenv-e2e/fix1.bat"
run cuenv-e2e cmd /c fix1.bat
expect "the fix runs under cmd as printed" 0
run "$proj" "$cuenv" doctor
expect "after the fix doctor is clean" 0
has_text "the selection's cudart64_110.dll again" \
	"cudart64_110.dll is loaded from the selection ($WTK\\bin)"
rm -f "$sys32/cudart64_110.dll" "$sys32/cudart64_110.dll.cuenv-moved"

# (3) Another program's folder before the selection's on PATH, in a cmd
# that took cuenv env --format cmd and then put that folder first.
mkdir -p "$C/cuenv-e2e/other/bin"
mingw_dll "$C/cuenv-e2e/other/bin/cudart64_110.dll" \
	'__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 11000; return 0; }'
setup=$(printf '@echo off\r\nfor /f "delims=" %%%%i in (%s) do set %%%%i\r\nset "PATH=C:\\cuenv-e2e\\other\\bin;%%PATH%%"\r\n_' \
	"'$cuenv env --format cmd'")
setup=${setup%_}
printf '%s%s\r\n' "$setup" "$cuenv doctor" >"$C/$proj/doc.bat"
run "$proj" cmd /c doc.bat
expect "a copy earlier on PATH is a problem" 15
has_text "PATH's copy is named as shadowing" \
	"C:\\cuenv-e2e\\other\\bin\\cudart64_110.dll is loaded instead of the selection's copy in $WTK\\bin"
has_text "why: it comes first on PATH" "C:\\cuenv-e2e\\other\\bin comes before it on PATH"
fix=$(fix_of dll-shadowed)
case $fix in
set\ \"PATH=*) ok "the fix sets PATH in cmd's syntax" ;;
*) bad "the fix sets PATH in cmd's syntax (got '$fix')" ;;
esac
printf '%s%s\r\n%s\r\n' "$setup" "$fix" "$cuenv doctor" >"$C/$proj/fix2.bat"
run "$proj" cmd /c fix2.bat
expect "with the fix pasted doctor is clean" 0
has_text "... and the selection's copy is loaded" \
	"cudart64_110.dll is loaded from the selection ($WTK\\bin)"
printf '%s%s\r\n' "$setup" "$cuenv exec -- $cuenv doctor" >"$C/$proj/fix3.bat"
run "$proj" cmd /c fix3.bat
expect "or for one command: cuenv exec -- cuenv doctor is clean" 0
lacks "... nothing shadowed under cuenv exec" o "[dll-shadowed]"

# (4) Python: a stand-in python.exe on PATH that answers the version
# question (sys.version_info) as Python 3.10 and 3.7 do; doctor runs it.
mkdir -p "$C/cuenv-e2e/py310" "$C/cuenv-e2e/py37"
cat >"$out/py.c" <<'EOF_C'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strstr(argv[i], "version_info"))
			puts(VERSION);
	return 0;
}
EOF_C
$HOST-gcc -DVERSION='"3.10"' -o "$C/cuenv-e2e/py310/python.exe" "$out/py.c" ||
	die "cannot build python.exe"
$HOST-gcc -DVERSION='"3.7"' -o "$C/cuenv-e2e/py37/python.exe" "$out/py.c" ||
	die "cannot build python.exe"
printf '@echo off\r\nset "PATH=C:\\cuenv-e2e\\py310;%%PATH%%"\r\n%s\r\n' \
	"$cuenv doctor" >"$C/$proj/py.bat"
run "$proj" cmd /c py.bat
expect "Python 3.10 on PATH: a note, not a problem" 0
has "the note names Python 3.8+" o "[python-dll-directories]"
has_text "... the version asked" "C:\\cuenv-e2e\\py310\\python.exe is Python 3.10"
has "... and the line that adds the folder" o "os.add_dll_directory(r\"$WTK\\bin\")"
printf '@echo off\r\nset "PATH=C:\\cuenv-e2e\\py37;%%PATH%%"\r\n%s\r\n' \
	"$cuenv doctor" >"$C/$proj/py.bat"
run "$proj" cmd /c py.bat
expect "Python 3.7 on PATH" 0
lacks "no Python 3.8 note for 3.7 (it searches PATH)" o "[python-dll-directories]"

# A copy in python.exe's own folder (the application's) comes first.
mingw_dll "$C/cuenv-e2e/py310/cudart64_110.dll" \
	'__declspec(dllexport) int cudaRuntimeGetVersion(int *v) { *v = 11000; return 0; }'
printf '@echo off\r\nset "PATH=C:\\cuenv-e2e\\py310;%%PATH%%"\r\n%s\r\n' \
	"$cuenv doctor" >"$C/$proj/py.bat"
run "$proj" cmd /c py.bat
expect "a copy in python.exe's folder is a problem" 15
has_text "... named with its place" "C:\\cuenv-e2e\\py310 (the application's folder) is searched before PATH"

# (5) The README's case: the selection's cudart64_110.dll is gone (a
# toolkit half removed): TensorFlow's "Could not load dynamic library
# 'cudart64_110.dll'", explained.
rm -f "$C/$proj/py.bat"
mv "$C/$tk/bin/cudart64_110.dll" "$C/$tk/bin/cudart64_110.dll.away"
run "$proj" "$cuenv" doctor
expect "doctor: cudart64_110.dll missing from the selection is a problem" 15
has "... as dll-missing" o "[dll-missing]"
has "... naming the DLL" o "cudart64_110.dll in its folders"
has "... with TensorFlow's message and error 126" o "error 126"
has "no-driver: Windows' minimum for 11.2 (NVIDIA's table: 461.33)" o "needs driver 461.33 or newer"
has "no-driver: a fix cmd runs" o 'set "CUENV_DRIVER_VERSION=<version>" && cuenv doctor'
# that fix, pasted into cmd with a version filled in
printf '@echo off\r\nset "CUENV_DRIVER_VERSION=472.12" && %s doctor\r\n' \
	"$cuenv" >"$C/$proj/drv.bat"
run "$proj" cmd /c drv.bat
lacks "the pasted no-driver fix runs: the driver is taken" o "[no-driver]"
rm -f "$C/$proj/drv.bat"
run "$proj" "$loadcheck" cudart64_110.dll
has "and indeed the loader finds none (error 126)" o "cudart64_110.dll: error 126"
mv "$C/$tk/bin/cudart64_110.dll.away" "$C/$tk/bin/cudart64_110.dll"

finish
