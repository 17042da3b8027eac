#!/bin/sh
# ONLINE (lib-venv.sh): a real venv with NVIDIA's wheels (cuSPARSE 12.1,
# whose libcusparse.so.12 has RUNPATH $ORIGIN/../../nvjitlink/lib, and
# nvJitLink 12.9) and CUDA 12.0 selected, whose lib64 holds an older
# libnvJitLink.so.12. glibc searches LD_LIBRARY_PATH before RUNPATH, so
# with the selection first the wheels' cuSPARSE would load CUDA 12.0's
# nvJitLink and fail ("undefined symbol: __nvJitLinkAddData_12_1",
# issue 21 item 1). `cuenv exec` and `cuenv env` in the venv (named by
# VIRTUAL_ENV, by its python3 first on PATH, or by the venv's python being
# what exec runs) keep the wheels' folders
# first: the loader maps the venv's own cuSPARSE and nvJitLink
# (/proc/self/maps), while nvcc, CUDA_HOME and CPATH are CUDA 12.0's.
# CUENV_OVER_VENV=1 puts the selection first, as before, with a warning;
# outside a venv nothing changes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-venv.sh"

c=$HOME/toolkits/cuda-12.0
v=$HOME/venv
need cc &&
	make_wheel_venv "$v" &&
	make_old_cuda12 "$c" &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.0\n' >proj/.cuenv && cd proj &&
	printf '%s\n' "$LOADS_PY" >"$HOME/loads.py" &&
	sp=$NV/cusparse/lib/libcusparse.so.12 &&
	own="$NV/cusparse/lib/libcusparse.so.12
$NV/nvjitlink/lib/libnvJitLink.so.12" &&
	# the venv active (VIRTUAL_ENV and its bin first, as activate does)
	expect_stdout "$own" env VIRTUAL_ENV="$v" PATH="$v/bin:$PATH" \
		cuenv exec python3 "$HOME/loads.py" "$sp" &&
	stderr_has "cuenv: the Python environment $v keeps its NVIDIA wheels' libcudart.so.12, libnvJitLink.so.12 ahead of cuda 12.0.1's on LD_LIBRARY_PATH" &&
	stderr_lacks "warning" &&
	expect_stdout "$c/bin/nvcc
$c
$c/include" env VIRTUAL_ENV="$v" \
		cuenv exec sh -c 'command -v nvcc; echo "$CUDA_HOME"; echo "$CPATH"' &&
	# its python run by path, nothing activated (issue 31 item 6): that
	# venv, absolute or relative to where cuenv runs
	expect_stdout "$own" cuenv exec "$v/bin/python" "$HOME/loads.py" "$sp" &&
	stderr_has "cuenv: the Python environment $v keeps its NVIDIA wheels'" &&
	expect_stdout "$own" cuenv exec ../venv/bin/python "$HOME/loads.py" "$sp" &&
	# its python3 first on PATH is enough (uv run, a venv's bin on PATH)
	expect_stdout "$own" env PATH="$v/bin:$PATH" \
		cuenv exec python3 "$HOME/loads.py" "$sp" &&
	expect_output 0 "$NV/cuda_runtime/lib:$NV/nvjitlink/lib:$c/lib64" \
		env PATH="$v/bin:$PATH" cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	# cuenv env says the same, for eval
	expect_code 0 env VIRTUAL_ENV="$v" cuenv env &&
	stdout_has "export LD_LIBRARY_PATH='$NV/cuda_runtime/lib:$NV/nvjitlink/lib:$c/lib64';" &&
	stdout_has "export CUDA_HOME='$c';" &&
	# asked for: the selection first, and the import fails as it would
	expect_code 1 env VIRTUAL_ENV="$v" PATH="$v/bin:$PATH" CUENV_OVER_VENV=1 \
		cuenv exec python3 "$HOME/loads.py" "$sp" &&
	stdout_has "FAIL" && stdout_has "__nvJitLinkAddData_12_1" &&
	stderr_has "cuenv: warning: cuda 12.0.1's libraries shadow the NVIDIA wheels of the Python environment $v (libcudart.so.12, libnvJitLink.so.12), as CUENV_OVER_VENV=1 asks" &&
	# no venv: the selection's folders only, nothing said
	expect_output 0 "$c/lib64" cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	stderr_empty
