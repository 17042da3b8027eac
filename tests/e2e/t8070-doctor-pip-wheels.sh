#!/bin/sh
# NVIDIA's pip wheels that a framework loads through its RPATH before, or
# instead of, the selection (never a fix that uninstalls them): CUDA 11 wheels (nvidia-cudnn-cu11,
# nvidia-cuda-runtime-cu11) in a site-packages the python3 on PATH
# searches, with CUDA 12.4 selected. Found by asking the machine's python3
# (PYTHONPATH), and from VIRTUAL_ENV when python cannot answer.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
s=$HOME/venv/lib/python3.11/site-packages
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj "$s/nvidia/cudnn/lib" "$s/nvidia/cuda_runtime/lib" \
		"$s/nvidia_cudnn_cu11-8.9.2.26.dist-info" \
		"$s/nvidia_cuda_runtime_cu11-11.8.89.dist-info" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libcudnn.so.8 "$s/nvidia/cudnn/lib/libcudnn.so.8" &&
	fake_elf libcudart.so.11.0 "$s/nvidia/cuda_runtime/lib/libcudart.so.11.0" &&
	printf 'nvidia/cudnn/lib/libcudnn.so.8,sha256=x,1\n' \
		>"$s/nvidia_cudnn_cu11-8.9.2.26.dist-info/RECORD" &&
	printf 'nvidia/cuda_runtime/lib/libcudart.so.11.0,sha256=x,1\n' \
		>"$s/nvidia_cuda_runtime_cu11-11.8.89.dist-info/RECORD" &&
	cd proj &&
	expect_code 0 cuenv doctor &&
	stdout_lacks "pip-wheels" &&
	# VIRTUAL_ENV, with a python3 that says nothing.
	expect_code 15 env VIRTUAL_ENV="$HOME/venv" cuenv doctor &&
	said "[pip-wheels] Python's $s ($HOME/bin/python3) holds NVIDIA's CUDA 11 wheels:" &&
	said "nvidia-cudnn-cu11 8.9.2.26" &&
	said "nvidia-cuda-runtime-cu11 11.8.89" &&
	said "RPATH" &&
	said "not on the selection's CUDA 12" &&
	said "libcudnn.so.N: cannot open shared object file" &&
	# never uninstall a framework's wheels (issue 21 item 3)
	stdout_lacks "pip uninstall" &&
	said "nvidia-cudnn-cu11" &&
	# 11.8 is not installed: the fix installs it first (issue 10 item 8)
	said "or: select what they are built for: cuenv install 11.8 --cudnn 8.9 && cd $HOME/proj && cuenv local 11.8 --cudnn 8.9" &&
	real_python &&
	expect_code 15 env PYTHONPATH="$s" cuenv doctor --json &&
	said '"id": "pip-wheels"' &&
	said "\"$s/nvidia/cudnn/lib\"" &&
	stdout_lacks "pip uninstall" &&
	# Wheels of the selected CUDA major: information.
	doctor_cuda "$HOME/toolkits/cuda-11.8" 11.8.0 &&
	cuenv add cuda "$HOME/toolkits/cuda-11.8" >/dev/null &&
	printf 'cuda = 11.8\n' >.cuenv &&
	expect_code 0 env PYTHONPATH="$s" cuenv doctor &&
	said "[pip-wheels]" &&
	stdout_lacks "pip uninstall"
