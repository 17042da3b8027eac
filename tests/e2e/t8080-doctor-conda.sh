#!/bin/sh
# A conda environment whose lib/ holds CUDA 11 libraries (cudatoolkit),
# which conda's frameworks find through their RPATH, with CUDA 12.4
# selected: doctor names the package and the fix (conda remove, or select
# what it is built for).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
p=$HOME/miniconda3/envs/tf
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj "$p/lib" "$p/conda-meta" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libcudart.so.11.0 "$p/lib/libcudart.so.11.3.109" &&
	ln -s libcudart.so.11.3.109 "$p/lib/libcudart.so.11.0" &&
	fake_elf libcupti.so.11.3 "$p/lib/libcupti.so.11.3" &&
	cat >"$p/conda-meta/cudatoolkit-11.3.1-h2bc3f7f_2.json" <<JSON &&
{"name": "cudatoolkit", "version": "11.3.1", "build": "h2bc3f7f_2",
 "files": ["lib/libcudart.so.11.0", "lib/libcudart.so.11.3.109",
           "lib/libcupti.so.11.3"]}
JSON
	cd proj &&
	expect_code 15 env CONDA_PREFIX="$p" cuenv doctor &&
	said "[conda-prefix] the conda environment $p has CUDA 11 libraries in lib/" &&
	said "(from cudatoolkit 11.3.1)" &&
	said "RPATH (\$ORIGIN/../lib)" &&
	said "fix: conda remove cudatoolkit, or leave the environment: conda deactivate" &&
	said "or: select what they are built for: cuenv install 11.3 && cd $HOME/proj && cuenv local 11.3" &&
	expect_code 0 cuenv doctor &&
	stdout_lacks "conda"
