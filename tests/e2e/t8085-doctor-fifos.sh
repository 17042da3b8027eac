#!/bin/sh
# doctor reads files of a conda environment and a venv that cuenv did
# not write (conda-meta/<package>.json, a wheel's dist-info RECORD): a
# FIFO among them is passed over at once, never waited on, and the files
# beside it are still read. Each run is under timeout, so a hang fails
# the test (124) instead of the suite.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

need cc
need mkfifo
c=$HOME/toolkits/cuda-12.4
p=$HOME/miniconda3/envs/tf
s=$HOME/venv/lib/python3.11/site-packages
doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj "$p/lib" "$p/conda-meta" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libcudart.so.11.0 "$p/lib/libcudart.so.11.3.109" &&
	ln -s libcudart.so.11.3.109 "$p/lib/libcudart.so.11.0" &&
	mkfifo "$p/conda-meta/aaa-0.1-0.json" &&
	cat >"$p/conda-meta/cudatoolkit-11.3.1-h2bc3f7f_2.json" <<JSON &&
{"name": "cudatoolkit", "version": "11.3.1", "build": "h2bc3f7f_2",
 "files": ["lib/libcudart.so.11.0", "lib/libcudart.so.11.3.109"]}
JSON
	cd proj &&
	expect_code 15 timeout "$(load_bound 10)" env CONDA_PREFIX="$p" cuenv doctor &&
	said "[conda-prefix] the conda environment $p has CUDA 11 libraries in lib/" &&
	said "(from cudatoolkit 11.3.1)" || exit 1

mkdir -p "$s/nvidia/cudnn/lib" "$s/nvidia/cuda_runtime/lib" \
	"$s/nvidia_cudnn_cu11-8.9.2.26.dist-info" \
	"$s/nvidia_cuda_runtime_cu11-11.8.89.dist-info" &&
	fake_elf libcudnn.so.8 "$s/nvidia/cudnn/lib/libcudnn.so.8" &&
	fake_elf libcudart.so.11.0 "$s/nvidia/cuda_runtime/lib/libcudart.so.11.0" &&
	mkfifo "$s/nvidia_cudnn_cu11-8.9.2.26.dist-info/RECORD" &&
	printf 'nvidia/cuda_runtime/lib/libcudart.so.11.0,sha256=x,1\n' \
		>"$s/nvidia_cuda_runtime_cu11-11.8.89.dist-info/RECORD" &&
	expect_code 15 timeout "$(load_bound 10)" env VIRTUAL_ENV="$HOME/venv" cuenv doctor &&
	said "[pip-wheels] Python's $s ($HOME/bin/python3) holds NVIDIA's CUDA 11 wheels:" &&
	said "nvidia-cuda-runtime-cu11 11.8.89"
