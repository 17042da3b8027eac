#!/bin/sh
# doctor --python judges the state the user is in (issue 31 items 3, 7):
#  - torch's libtorch_cuda.so asks for the driver's libcuda.so.1, which a
#    machine without a driver (a login node, a build container) lacks:
#    that is no problem of the environment (exit 0, info: its GPU path
#    cannot be checked here); with a driver whose library the loader
#    cannot find, it is one (exit 15);
#  - an older nvJitLink on the LD_LIBRARY_PATH the shell had before the
#    selection, which the selected toolkit's complete one now comes
#    before: what would break without the selection is information, not
#    exit 15; the selection on LD_LIBRARY_PATH's side (it leaves the old
#    copy first) is a problem as before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

v=$HOME/venv
s=$v/lib/python3.11/site-packages

need cc &&
	mkdir -p "$v/bin" "$s/nvidia/nvjitlink/lib" "$s/nvidia/cusparse/lib" \
		"$s/torch/lib" "$HOME/old" "$HOME/drv" proj &&
	touch "$v/pyvenv.cfg" && ln -s /bin/true "$v/bin/python" &&
	jit "$s/nvidia/nvjitlink/lib/libnvJitLink.so.12" 1 &&
	record nvidia_nvjitlink_cu12-12.9.86 nvidia/nvjitlink/lib/libnvJitLink.so.12 &&
	so "$s/nvidia/cusparse/lib/libcusparse.so.12" libcusparse.so.12 \
		'int jit_12_1(void); int sp(void){return jit_12_1();}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN:$ORIGIN/../../nvjitlink/lib' \
		-L"$s/nvidia/nvjitlink/lib" -l:libnvJitLink.so.12 &&
	so "$HOME/drv/libcuda.so.1" libcuda.so.1 'int cuInit(int f){return f;}' &&
	so "$s/torch/lib/libtorch_cuda.so" libtorch_cuda.so 'int cuInit(int); int tc(void){return cuInit(0);}' \
		-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/../../nvidia/cusparse/lib' \
		-L"$s/nvidia/cusparse/lib" -L"$HOME/drv" -l:libcusparse.so.12 -l:libcuda.so.1 \
		-Wl,-rpath-link,"$s/nvidia/nvjitlink/lib" &&
	so "$s/torch/lib/libtorch_global_deps.so" libtorch_global_deps.so 'int gd(void){return 0;}' &&
	so "$s/torch/_C.cpython-311-x86_64-linux-gnu.so" _C.so 'int c(void){return 0;}' \
		-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/lib' -L"$s/torch/lib" -l:libtorch_cuda.so \
		-Wl,-rpath-link,"$s/nvidia/nvjitlink/lib" -Wl,-rpath-link,"$HOME/drv" &&
	jit "$HOME/old/libnvJitLink.so.12" 0 || exit 1

# no driver: information, exit 0, and the rest still judged
expect_code 0 env CUENV_DRIVER_VERSION= cuenv doctor --python "$v/bin/python" &&
	said "[python-no-driver] the GPU path of torch in $s cannot be checked here: no driver" &&
	said "[python-loads] torch in $s" &&
	stdout_lacks "force-reinstall" &&
	stdout_lacks "python-foreign" &&
	# ... and a real fault beside it is still a problem
	expect_code 15 env CUENV_DRIVER_VERSION= LD_LIBRARY_PATH="$HOME/old" \
		cuenv doctor --python "$v/bin/python" &&
	said "[python-foreign] LD_LIBRARY_PATH breaks torch in $s" &&
	said "[python-no-driver]" &&
	# a driver whose library the loader does not find: a problem
	expect_code 15 env CUENV_DRIVER_VERSION=550.54.15 cuenv doctor --python "$v/bin/python" &&
	said "torch in $s cannot load the driver 550.54.15's libcuda.so.1" &&
	said "fix: ldconfig -p | grep libcuda.so.1" &&
	# found on LD_LIBRARY_PATH: nothing to say
	expect_code 0 env CUENV_DRIVER_VERSION=550.54.15 LD_LIBRARY_PATH="$HOME/drv" \
		cuenv doctor --python "$v/bin/python" &&
	stdout_lacks "python-no-driver" || exit 1

# the old nvJitLink only in the state without the selection
doctor_cuda "$HOME/tk/cuda-12.9" 12.9.1 &&
	jit "$HOME/tk/cuda-12.9/lib64/libnvJitLink.so.12" 1 &&
	cuenv add cuda "$HOME/tk/cuda-12.9" >/dev/null &&
	printf 'cuda = 12.9\n' >proj/.cuenv && cd proj &&
	expect_code 0 env CUENV_DRIVER_VERSION= LD_LIBRARY_PATH="$HOME/old" \
		cuenv doctor --python "$v/bin/python" &&
	said "[python-foreign] LD_LIBRARY_PATH (without the selection) breaks torch in $s" &&
	stdout_lacks "python-selection" &&
	# the same old copy ahead of the selection's: the state now breaks
	rm "$HOME/tk/cuda-12.9/lib64/libnvJitLink.so.12" &&
	expect_code 15 env CUENV_DRIVER_VERSION= LD_LIBRARY_PATH="$HOME/old" \
		cuenv doctor --python "$v/bin/python" &&
	said "undefined symbol: jit_12_1, version libnvJitLink.so.12"
