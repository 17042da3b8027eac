#!/bin/sh
# Field failure (c): cuDNN 8 built for CUDA 11 with a CUDA 12 runtime
# ("libcudnn.so.8: cannot open shared object file", or libcublasLt.so.11
# missing). From the receipts: the .cuenv asks for cuDNN 8.9 under CUDA
# 12.4 and the only 8.9 is a CUDA 11 build. From the files: the same build
# registered by mistake as a CUDA 12 one (add cudnn --cuda 12).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
d=$HOME/cudnn-8.9
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$d" 8.9.7 11 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$d" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\ncudnn = 8.9\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 cuenv doctor &&
	said "[cudnn-cuda-mismatch] cudnn 8.9.7 is installed only for CUDA 11" &&
	said "the selected runtime is cuda 12.4.1, CUDA 12" &&
	said "libcublasLt.so.11" &&
	said "libcudnn.so.8: cannot open shared object file" &&
	said "fix: the cuDNN build for CUDA 12: cuenv install 12.4.1 --cudnn 8.9" &&
	stdout_lacks "selection-not-installed" &&
	# With a CUDA 11 toolkit there, pairing it is offered too.
	doctor_cuda "$HOME/toolkits/cuda-11.8" 11.8.0 &&
	cuenv add cuda "$HOME/toolkits/cuda-11.8" >/dev/null &&
	expect_code 15 cuenv doctor &&
	said "or: pair it with CUDA 11: cd $HOME/proj && cuenv local 11.8.0 --cudnn 8.9" &&
	# Registered as a CUDA 12 build: its own libraries say otherwise.
	cuenv add cudnn "$d" --cuda 12 >/dev/null &&
	expect_code 15 cuenv doctor --json &&
	said '"id": "cudnn-cuda-mismatch"' &&
	said 'load CUDA 11 libraries' &&
	said 'cuenv remove cudnn 8.9.7-cuda12 && cuenv add cudnn' &&
	said '--cuda 11'
