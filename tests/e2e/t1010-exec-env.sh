#!/bin/sh
# cuenv exec runs the command in the activated environment (the
# selection's nvcc first on PATH); with nothing selected, in the plain one.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	cat >"$HOME/show.sh" <<'SH' &&
for v in PATH LD_LIBRARY_PATH LIBRARY_PATH CPATH CUDA_HOME CUDA_PATH CUDNN_PATH CUENV_ACTIVE; do
	eval "printf '%s=%s\n' $v \"\${$v-<unset>}\""
done
SH
	expect_stdout "PATH=$PATH
LD_LIBRARY_PATH=<unset>
LIBRARY_PATH=<unset>
CPATH=<unset>
CUDA_HOME=<unset>
CUDA_PATH=<unset>
CUDNN_PATH=<unset>
CUENV_ACTIVE=<unset>" cuenv exec sh "$HOME/show.sh" &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_stdout "PATH=$c/bin:$PATH
LD_LIBRARY_PATH=$n/lib:$c/lib64
LIBRARY_PATH=$n/lib:$c/lib64
CPATH=$n/include:$c/include
CUDA_HOME=$c
CUDA_PATH=$c
CUDNN_PATH=$n
CUENV_ACTIVE=12.4.1+cudnn9.1.0" cuenv exec sh "$HOME/show.sh" &&
	expect_stdout "nvcc: NVIDIA (R) Cuda compiler driver
Cuda compilation tools, release 12.4, V12.4.1
fake nvcc at $c/bin/nvcc" cuenv exec nvcc --version &&
	# The user's values are kept after cuenv's; CUDA_HOME is replaced.
	expect_stdout "PATH=$c/bin:/opt/x/bin:$PATH
LD_LIBRARY_PATH=$n/lib:$c/lib64:/opt/x/lib
LIBRARY_PATH=$n/lib:$c/lib64
CPATH=$n/include:$c/include
CUDA_HOME=$c
CUDA_PATH=$c
CUDNN_PATH=$n
CUENV_ACTIVE=12.4.1+cudnn9.1.0" env PATH="/opt/x/bin:$PATH" LD_LIBRARY_PATH=/opt/x/lib \
		CUDA_HOME=/user/value cuenv exec sh "$HOME/show.sh" &&
	# An activation already in the environment is undone first: no
	# stacking when exec runs inside an activated shell.
	eval "$(cuenv env)" &&
	expect_stdout "PATH=$t/cuda-11.8/bin:$(echo "$PATH" | sed "s|^$c/bin:||")
LD_LIBRARY_PATH=$t/cuda-11.8/lib64
LIBRARY_PATH=$t/cuda-11.8/lib64
CPATH=$t/cuda-11.8/include
CUDA_HOME=$t/cuda-11.8
CUDA_PATH=$t/cuda-11.8
CUDNN_PATH=<unset>
CUENV_ACTIVE=11.8.0" env CUENV_VERSION=11.8 cuenv exec sh "$HOME/show.sh"
