#!/bin/sh
# A library with a version of its own is read by it, never as a CUDA
# release: libcudnn.so.9 is cuDNN 9 (built for CUDA 11, 12 or 13),
# libnccl.so.2 NCCL 2, libcudnn_ops.so.9.1.0 cuDNN 9; libcudart.so.11.0
# is CUDA 11. With only a cuDNN named, the CUDA cannot be known from the
# text, and explain says so, with what the user can give when no
# framework installed here decides it.
. "$(dirname "$0")/lib.sh"

expect_code 0 cuenv explain "libcudnn.so.9: cannot open shared object file: No such file or directory" &&
	stdout_has "libcudnn.so.9: libcudnn of cuDNN 9.x" &&
	stdout_lacks "CUDA 9" &&
	stdout_has "CUDA: cannot be known from this text" &&
	# no framework in python3's sys.path: nothing here decides it
	stdout_has "nothing installed here decides it: no package in the" &&
	stdout_has "cuenv needs onnxruntime-gpu==1.18.0" &&
	stdout_lacks "decide:" &&
	expect_code 0 cuenv explain "libnccl.so.2: cannot open shared object file" &&
	stdout_has "NCCL 2" &&
	stdout_lacks "CUDA 2" &&
	expect_code 0 cuenv explain "OSError: libcudnn_ops.so.9.1.0: cannot open shared object file" &&
	stdout_has "cuDNN 9.x" &&
	stdout_lacks "CUDA 9" &&
	expect_code 0 cuenv explain "libcudart.so.11.0: cannot open shared object file" &&
	stdout_has "libcudart.so.11.0: libcudart of CUDA 11"
