#!/bin/sh
# doctor --python on a venv shaped like the index's tensorflow[and-cuda]
# 2.16.1 (issue 21 item 4), built with cc: _pywrap_tensorflow_internal.so
# needs libtensorflow_framework.so.2, whose DT_RUNPATH names only
# nvidia/cuda_runtime/lib, and the framework library dlopens the wheels'
# libraries by name. The CUDA runtime is found (at import); cuFFT's wheel
# is not: a problem (exit 15) with no LD_LIBRARY_PATH, whose fix, checked
# by the model before it is printed, puts the wheels' folders on
# LD_LIBRARY_PATH; run as printed, it clears the problem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

v=$HOME/venv
s=$v/lib/python3.11/site-packages


need cc &&
	mkdir -p "$v/bin" "$s/nvidia/cuda_runtime/lib" "$s/nvidia/cufft/lib" "$s/tensorflow/python" &&
	touch "$v/pyvenv.cfg" && ln -s /bin/true "$v/bin/python" &&
	so "$s/nvidia/cuda_runtime/lib/libcudart.so.12" libcudart.so.12 'int rt(void){return 0;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN' &&
	record nvidia_cuda_runtime_cu12-12.3.101 nvidia/cuda_runtime/lib/libcudart.so.12 &&
	so "$s/nvidia/cufft/lib/libcufft.so.11" libcufft.so.11 'int ff(void){return 0;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN' &&
	record nvidia_cufft_cu12-11.0.12.1 nvidia/cufft/lib/libcufft.so.11 &&
	so "$s/tensorflow/libtensorflow_framework.so.2" libtensorflow_framework.so.2 'int fw(void){return 0;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN/:$ORIGIN/../nvidia/cuda_runtime/lib' &&
	so "$s/tensorflow/python/_pywrap_tensorflow_internal.so" _pywrap_tensorflow_internal.so \
		'int pw(void){return 0;}' -Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN/..' \
		-L"$s/tensorflow" -l:libtensorflow_framework.so.2 &&
	expect_code 15 env -u LD_LIBRARY_PATH cuenv doctor --python "$v/bin/python" &&
	said "[python-loads] tensorflow in $s" &&
	said "loads 1 CUDA libraries at import, 1 of them from that environment" &&
	said "[python-foreign] the loader's search breaks tensorflow in $s" &&
	said "libcufft.so.11: cannot open shared object file" &&
	said "fix: export LD_LIBRARY_PATH='$s/nvidia/cufft/lib'" &&
	expect_code 0 sh -c "export LD_LIBRARY_PATH='$s/nvidia/cufft/lib'; exec cuenv doctor --python '$v/bin/python'" &&
	said "1 more when it computes"

# ---- the next copy wrong once the first are found -----------------------
# The loader cache lists a folder of CUDA 13 (its libcudart.so.13), whose
# cuRAND is libcurand.so.10 too, as the machine's CUDA 13 is: a CUDA 12
# build takes it. The fix must put the wheel's cuRAND folder first as
# well (not print pip install for wheels that are there), and works as
# printed.
ldconfig=
for _p in /sbin/ldconfig /usr/sbin/ldconfig; do
	[ -x "$_p" ] && ldconfig=$_p && break
done
[ -n "$ldconfig" ] || skip "no ldconfig"
o=$HOME/opt/cuda-13/lib
mkdir -p "$o" "$s/nvidia/curand/lib" &&
	so "$s/nvidia/curand/lib/libcurand.so.10" libcurand.so.10 'int rn(void){return 0;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN' &&
	record nvidia_curand_cu12-10.3.4.107 nvidia/curand/lib/libcurand.so.10 &&
	so "$o/libcurand.so.10.4.0.35" libcurand.so.10 'int rn(void){return 0;}' &&
	ln -s libcurand.so.10.4.0.35 "$o/libcurand.so.10" &&
	so "$o/libcudart.so.13" libcudart.so.13 'int rt(void){return 0;}' &&
	printf '%s\n' "$o" >"$HOME/ld.so.conf" &&
	"$ldconfig" -X -C "$HOME/ld.so.cache" -f "$HOME/ld.so.conf" 2>/dev/null &&
	CUENV_LD_SO_CACHE=$HOME/ld.so.cache && export CUENV_LD_SO_CACHE &&
	expect_code 15 env -u LD_LIBRARY_PATH cuenv doctor --python "$v/bin/python" &&
	said "libcurand.so.10 is CUDA 13's" &&
	stdout_lacks "pip install" &&
	expect_code 15 env -u LD_LIBRARY_PATH cuenv doctor --json --python "$v/bin/python" &&
	fix=$(fix_of python-foreign) &&
	case $fix in
	*"$s/nvidia/cufft/lib"*"$s/nvidia/curand/lib"* | *"$s/nvidia/curand/lib"*"$s/nvidia/cufft/lib"*) ;;
	*) fail "the fix does not put both wheels' folders first: $fix" ;;
	esac &&
	expect_code 0 env -u LD_LIBRARY_PATH sh -c "$fix; exec cuenv doctor --python '$v/bin/python'"

# ---- a selection over it, and what breaks without it too ---------------
# A project selects CUDA 12.0.1, whose older runtime replaces the
# wheel's: python-selection. Without the selection cuFFT and cuRAND
# still break (above): turning cuenv off alone would not do, so the fix
# is both, as checked, and works as printed.
c=$HOME/toolkits/cuda-12.0.1
mkdir -p "$HOME/proj" &&
	doctor_cuda "$c" 12.0.1 &&
	cuenv add cuda "$c" >/dev/null &&
	printf 'cuda = 12.0\n' >"$HOME/proj/.cuenv" &&
	cd "$HOME/proj" &&
	expect_code 15 env -u LD_LIBRARY_PATH cuenv doctor --json --python "$v/bin/python" &&
	fix=$(fix_of python-selection) &&
	case $fix in
	"cd $HOME/proj && cuenv local system && export LD_LIBRARY_PATH="*"$s/nvidia/curand/lib"*) ;;
	*) fail "the selection's fix is not cuenv off and the wheels first: $fix" ;;
	esac &&
	expect_code 0 env -u LD_LIBRARY_PATH sh -c "$fix; exec cuenv doctor --python '$v/bin/python'" &&
	cd "$HOME" && cuenv remove cuda 12.0.1 >/dev/null || exit 1

# ---- a wheel gone, and nothing pins it --------------------------------
# The extension links cuFFT now, whose wheel is gone, and no metadata
# pins it: no LD_LIBRARY_PATH can find it, so the fix is the command
# that decides what to install (cuenv needs on the package's folder),
# which works as printed: exit 1 (not satisfied here), naming the
# library and the install line.
mkdir -p "$HOME/stub" &&
	so "$HOME/stub/libcufft.so.11" libcufft.so.11 'int ff(void){return 0;}' &&
	so "$s/tensorflow/python/_pywrap_tensorflow_internal.so" _pywrap_tensorflow_internal.so \
		'int pw(void){return 0;}' -Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN/..' \
		-L"$s/tensorflow" -l:libtensorflow_framework.so.2 -L"$HOME/stub" -l:libcufft.so.11 &&
	rm -rf "$HOME/stub" "$s/nvidia/cufft" "$s/nvidia_cufft_cu12-11.0.12.1.dist-info" &&
	expect_code 15 env -u LD_LIBRARY_PATH cuenv doctor --python "$v/bin/python" &&
	said "fix: cuenv needs '$s/tensorflow'" &&
	stdout_lacks "pip install" &&
	expect_code 1 cuenv needs "$s/tensorflow" &&
	said "libcufft.so.11 CUDA 12.x" &&
	said "install them with: cuenv install 12."
