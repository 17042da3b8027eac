#!/bin/sh
# The README's Windows walk-through: a CUDA 11.2 toolkit as NVIDIA's
# installer lays it out and cuDNN 8.1's zip; `cuenv add --discover`,
# `cuenv add cudnn`, `cuenv local 11.2 --cudnn 8.1` in a project whose path
# has a space, `cuenv exec` from a folder below it (the .cuenv walk-up on
# drive-letter paths) running a program that loads cudart64_110.dll as
# TensorFlow does, its exit code passed through; `cuenv env --format cmd`
# read by wine's cmd.exe in a batch file; explain on the message
# TensorFlow prints when cudart64_110.dll is missing.
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh

machine
echo "$part: cuenv.exe under wine ($("$WINE" --version 2>/dev/null))"

run cuenv-e2e "$cuenv" --version
expect "cuenv.exe --version" 0
has "--version names cuenv" o "cuenv"

# The catalogue shipped in the zip, read for windows-x86_64.
run cuenv-e2e "$cuenv" list-remote cuda
expect "list-remote reads the shipped catalogue" 0
has "CUDA 12.4.1 has Windows archives" o "12.4.1"
run cuenv-e2e "$cuenv" install 12.4 --cudnn 9.1 --dry-run
expect "install --dry-run plans NVIDIA's Windows archives" 0
has "the plan names the release" o "would install cuda 12.4.1 + cudnn"

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

run "$proj/src" "$cuenv" env --format cmd
expect "env --format cmd" 0
has "PATH: bin, cuDNN's bin, CUPTI's folder first, in Windows' syntax" o \
	"\"PATH=$WTK\\bin;$WDN\\bin;$WTK\\extras\\CUPTI\\lib64;"

# The .cuenv as Notepad saves it: CRLF line ends.
printf 'cuda = 11.2\r\ncudnn = 8.1\r\n' >"$C/$proj/.cuenv"
run "$proj/src" "$cuenv" exec -- "$loadcheck" -e CUENV_ACTIVE cudart64_110.dll
expect "a .cuenv with CRLF line ends" 0
has "... selects the same" o "CUENV_ACTIVE=11.2+cudnn8.1.1"

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

finish
