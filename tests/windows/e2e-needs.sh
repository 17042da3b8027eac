#!/bin/sh
# cuenv.exe needs on a real TensorFlow for Windows: the members of
# tensorflow-2.10.1-cp39-cp39-win_amd64.whl that the real-artifact corpus
# keeps (make realworld: its METADATA and tensorflow/python/platform/
# build_info.py, checked against tests/realworld/pins.tsv), copied below
# C:\. The expected answer is TensorFlow's, written here by hand: its
# tested-build table (tensorflow.org/install/source_windows: 2.10.0, CUDA
# 11.2, cuDNN 8.1) and the wheel's own build_info.py (cudart_dll_name
# 'cudart64_112.dll', cudnn_dll_name 'cudnn64_8.dll'). Skipped (0 checks)
# when the corpus has not been fetched.
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh

corpus=${CUENV_CORPUS:-${CUENV_CI_CACHE:-$HOME/.cache}/corpus}/tf-2.10.1-win
if [ ! -f "$corpus/.done" ]; then
	echo "$part: skipped: no $corpus (make realworld fetches it)"
	finish
	exit
fi
machine
cp -R "$corpus" "$C/cuenv-e2e/tf-2.10.1-win"
run cuenv-e2e "$cuenv" needs 'C:\cuenv-e2e\tf-2.10.1-win'
expect "needs reads TensorFlow 2.10.1's Windows wheel (nothing installed: exit 1)" 1
has "CUDA 11.2, as TensorFlow's table says" o "built for CUDA 11.2"
has "cuDNN 8, as TensorFlow's table says (8.1)" o "cuDNN 8"
has "the cudart DLL its build_info.py names" o "cudart64_112.dll"
has "the cuDNN DLL its build_info.py names" o "cudnn64_8.dll"
has "read from build_info.py" o 'tensorflow\python\platform\build_info.py'

# With the machine's CUDA 11.2 and cuDNN 8.1 registered, they provide it.
registered
run "$proj" "$cuenv" needs 'C:\cuenv-e2e\tf-2.10.1-win'
expect "needs: the registered 11.2 + cuDNN 8.1 provide it" 0
has "the registered toolkit is named" o "11.2"
finish
