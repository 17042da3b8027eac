#!/bin/sh
# doctor --python on a venv shaped like the index's torch (issue 21 items
# 1, 2, 3 and 4), built with cc: torch's libtorch_cuda.so with DT_RPATH
# into nvidia/*/lib, the wheels' libcusparse.so.12 with DT_RUNPATH and a
# versioned need of libnvJitLink.so.12, cuDNN's front library with
# DT_RUNPATH $ORIGIN. An older nvJitLink on LD_LIBRARY_PATH, or in the
# selected toolkit, replaces the wheel's and leaves the symbol unsatisfied:
# a problem (exit 15), whose printed fix, run as printed, clears it. cuDNN's
# graph library from another folder is a mixed cuDNN. A newer complete
# copy is no problem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

v=$HOME/venv
s=$v/lib/python3.11/site-packages


need cc &&
	mkdir -p "$v/bin" "$s/nvidia/nvjitlink/lib" "$s/nvidia/cusparse/lib" \
		"$s/nvidia/cudnn/lib" "$s/torch/lib" "$HOME/old" "$HOME/c13" "$HOME/new" proj &&
	touch "$v/pyvenv.cfg" && ln -s /bin/true "$v/bin/python" &&
	jit "$s/nvidia/nvjitlink/lib/libnvJitLink.so.12" 1 &&
	record nvidia_nvjitlink_cu12-12.9.86 nvidia/nvjitlink/lib/libnvJitLink.so.12 &&
	so "$s/nvidia/cusparse/lib/libcusparse.so.12" libcusparse.so.12 \
		'int jit_12_1(void); int sp(void){return jit_12_1();}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN:$ORIGIN/../../nvjitlink/lib' \
		-L"$s/nvidia/nvjitlink/lib" -l:libnvJitLink.so.12 &&
	so "$s/nvidia/cudnn/lib/libcudnn.so.9" libcudnn.so.9 'int cudnnGetVersion(void){return 90100;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN' &&
	so "$s/nvidia/cudnn/lib/libcudnn_graph.so.9" libcudnn_graph.so.9 'int g(void){return 0;}' &&
	record nvidia_cudnn_cu12-9.1.0.70 nvidia/cudnn/lib/libcudnn.so.9 &&
	so "$s/torch/lib/libtorch_cuda.so" libtorch_cuda.so 'int tc(void){return 0;}' \
		-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/../../nvidia/cusparse/lib:$ORIGIN/../../nvidia/cudnn/lib' \
		-L"$s/nvidia/cusparse/lib" -L"$s/nvidia/cudnn/lib" -l:libcusparse.so.12 -l:libcudnn.so.9 \
		-Wl,-rpath-link,"$s/nvidia/nvjitlink/lib" &&
	so "$s/torch/lib/libtorch_global_deps.so" libtorch_global_deps.so 'int gd(void){return 0;}' &&
	so "$s/torch/_C.cpython-311-x86_64-linux-gnu.so" _C.so 'int c(void){return 0;}' \
		-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/lib' -L"$s/torch/lib" -l:libtorch_cuda.so \
		-Wl,-rpath-link,"$s/nvidia/nvjitlink/lib" &&
	jit "$HOME/old/libnvJitLink.so.12.0.140" 0 &&
	ln -s libnvJitLink.so.12.0.140 "$HOME/old/libnvJitLink.so.12" &&
	jit "$HOME/new/libnvJitLink.so.12.9.90" 1 &&
	ln -s libnvJitLink.so.12.9.90 "$HOME/new/libnvJitLink.so.12" &&
	so "$HOME/c13/libcudnn_graph.so.9" libcudnn_graph.so.9 'int g(void){return 0;}' &&
	# the whole environment: what torch loads, no problem
	expect_code 0 cuenv doctor --python "$v/bin/python" &&
	said "[python-loads] torch in $s" &&
	said "loads 4 CUDA libraries at import, 4 of them from that environment" &&
	# item 1: an older nvJitLink on LD_LIBRARY_PATH
	expect_code 15 env LD_LIBRARY_PATH="$HOME/old" cuenv doctor --python "$v/bin/python" &&
	said "[python-foreign] LD_LIBRARY_PATH breaks torch in $s" &&
	said "undefined symbol: jit_12_1, version libnvJitLink.so.12" &&
	said "libnvJitLink.so.12 12.0.140 is older than the wheel's 12.9.86" &&
	said "DT_RUNPATH" &&
	said "fix: unset LD_LIBRARY_PATH" &&
	expect_code 0 sh -c "LD_LIBRARY_PATH='$HOME/old'; export LD_LIBRARY_PATH; unset LD_LIBRARY_PATH; exec cuenv doctor --python '$v/bin/python'" &&
	# a newer, complete copy: no problem
	expect_code 0 env LD_LIBRARY_PATH="$HOME/new" cuenv doctor --python "$v/bin/python" &&
	stdout_lacks "python-foreign" &&
	# item 4: cuDNN's graph library from another folder, a kept folder
	expect_code 15 env LD_LIBRARY_PATH="$HOME/c13:$HOME/new" cuenv doctor --python "$v/bin/python" &&
	said "cuDNN's libcudnn_graph.so.9 from $HOME/c13 (LD_LIBRARY_PATH) under its front library from $s/nvidia/cudnn/lib: a mixed cuDNN" &&
	said "fix: export LD_LIBRARY_PATH='$HOME/new'" &&
	expect_code 0 sh -c "export LD_LIBRARY_PATH='$HOME/new'; exec cuenv doctor --python '$v/bin/python'" &&
	# items 1 and 3: a selection whose toolkit has the older nvJitLink;
	# its fix turns cuenv off, never uninstalls a wheel
	doctor_cuda "$HOME/tk/cuda-12.0" 12.0.1 &&
	cp -P "$HOME/old/libnvJitLink.so.12" "$HOME/old/libnvJitLink.so.12.0.140" "$HOME/tk/cuda-12.0/lib64/" &&
	cuenv add cuda "$HOME/tk/cuda-12.0" >/dev/null &&
	printf 'cuda = 12.0\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 cuenv doctor --python "$v/bin/python" &&
	said "[python-selection] the selection (cuda 12.0.1) breaks torch in $s" &&
	said "undefined symbol: jit_12_1, version libnvJitLink.so.12" &&
	said "fix: cd $HOME/proj && cuenv local system" &&
	stdout_lacks "pip uninstall" &&
	cd "$HOME/proj" && cuenv local system >/dev/null &&
	expect_code 0 cuenv doctor --python "$v/bin/python" &&
	stdout_lacks "python-selection"
