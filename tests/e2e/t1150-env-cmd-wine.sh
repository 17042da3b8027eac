#!/bin/sh
# cuenv env --format cmd, run by a real cmd.exe: wine's. A batch file
# reads the lines with the documented idiom
#   for /f "delims=" %%i in ('cuenv env --format cmd') do set %%i
# (here 'type' of the Linux cuenv's output: wine cannot run a Linux
# program from cmd), then prints every variable back with `set`; each
# value must equal the one `env --format json` gives, for paths with
# spaces, %, ^, &, |, quotes, parentheses and non-ASCII, with delayed
# expansion off (the default) and on. A value holding '!' is refused.
# Skips when wine64 is not installed (Debian: apt-get install wine64).
# PowerShell is not available here: --format powershell has unit tests
# only (tests/unit/plat/test_shell.c).
. "$(dirname "$0")/lib.sh"

WINE=/usr/lib/wine/wine64
[ -x "$WINE" ] || skip "wine64 is not installed ($WINE): apt-get install wine64"
need jq
# The run's own prefix (run.sh stops its wineserver and removes it).
export WINEPREFIX="$E2E_CACHE/wine"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	"$WINE" wineboot -i >/dev/null 2>&1
	/usr/lib/wine/wineserver -w
fi
[ -f "$WINEPREFIX/system.reg" ] || fail "wineboot did not create $WINEPREFIX"

t=$HOME/toolkits
c=$t/'cu 100% %PATH% ^&|<>"q" (x86) caf'$(printf '\303\251')
n=$t/cudnn_cuda12-archive
# values, the batch file's output, and the batch file itself
batch() { # FILE: CRLF lines, one per argument after it
	_f=$1
	shift
	: >"$_f"
	for _l; do printf '%s\r\n' "$_l" >>"$_f"; done
}
compare() { # WINE_OUTPUT: every json value is there as NAME=value
	tr -d '\r' <"$1" >"$1.lf"
	jq -r 'to_entries[] | select(.value != null) | "\(.key)=\(.value)"' \
		"$HOME/env.json" >"$HOME/want"
	[ "$(wc -l <"$HOME/want")" -ge 8 ] || fail "json has too few values"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$1.lf" ||
			fail "cmd.exe does not have [$line]; it has: $(grep -F -- "${line%%=*}=" "$1.lf")"
	done <"$HOME/want"
}

make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format json &&
	cp "$E2E_OUT" "$HOME/env.json" &&
	expect_code 0 cuenv env --format cmd &&
	cp "$E2E_OUT" out.txt &&
	stdout_lacks __CUENV_STATE &&
	expect_stdout "\"CUDA_PATH=$c\"" grep "^.CUDA_PATH=" out.txt &&
	batch off.bat '@echo off' 'chcp 65001 >nul' \
		"for /f \"delims=\" %%i in ('type out.txt') do set %%i" \
		'set' &&
	"$WINE" cmd /c off.bat >off.out 2>off.err &&
	compare off.out &&
	batch on.bat '@echo off' 'chcp 65001 >nul' \
		'setlocal EnableDelayedExpansion' \
		"for /f \"delims=\" %%i in ('type out.txt') do set %%i" \
		'set' &&
	"$WINE" cmd /c on.bat >on.out 2>on.err &&
	compare on.out &&
	PATH="$PATH:/opt/bang!dir" expect_code 2 cuenv env --format cmd &&
	stdout_empty &&
	stderr_has "env: PATH holds '!' (delayed expansion would expand it), which cmd's set cannot carry" &&
	PATH="$PATH:/opt/line
break" expect_code 2 cuenv env --format cmd &&
	stdout_empty &&
	stderr_has "env: PATH holds a line break, which cmd's set cannot carry" &&
	cd "$HOME" &&
	expect_code 1 cuenv env --format cmd &&
	stderr_has "nothing selected here"
