#!/bin/sh
# cuenv add cudnn: version from cudnn_version.h, the CUDA major from the
# archive's folder name, from the CUDA libraries it links, or --cuda.
. "$(dirname "$0")/lib.sh"

d=$HOME/dl
a=$d/cudnn-linux-x86_64-9.1.0.70_cuda12-archive
make_fake_cudnn "$a" 9.1.0 12 &&
	expect_stdout "registered cudnn 9.1.0 for CUDA 12 from $a" \
		cuenv add cudnn "$a" &&
	# The library names its CUDA (libcublasLt.so.11): the folder does not.
	make_fake_cudnn "$d/cudnn-old" 8.9.7 11 &&
	expect_stdout "registered cudnn 8.9.7 for CUDA 11 from $d/cudnn-old" \
		cuenv add cudnn "$d/cudnn-old" &&
	# Nothing says which CUDA: an error with the way out.
	mkdir -p "$d/plain/include" "$d/plain/lib" &&
	cp "$d/cudnn-old/include/cudnn_version.h" "$d/plain/include/" &&
	fake_elf libcudnn.so.9 "$d/plain/lib/libcudnn.so.9" &&
	expect_code 3 cuenv add cudnn "$d/plain" &&
	stdout_empty &&
	stderr_has "cannot tell which CUDA major" &&
	stderr_has "hint: name it: cuenv add cudnn $d/plain --cuda MAJOR" &&
	expect_stdout "registered cudnn 8.9.7 for CUDA 13 from $d/plain" \
		cuenv add cudnn "$d/plain" --cuda 13 &&
	expect_stdout "  cudnn  8.9.7 (cuda11)        $d/cudnn-old  (registered)
  cudnn  8.9.7 (cuda13)        $d/plain  (registered)
  cudnn  9.1.0 (cuda12)        $a  (registered)" cuenv versions &&
	check "no receipt at versions/cudnn/9.1.0-cuda12" [ -f "$CUENV_ROOT/versions/cudnn/9.1.0-cuda12/.cuenv-receipt" ]
