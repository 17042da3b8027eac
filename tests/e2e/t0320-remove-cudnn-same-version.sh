#!/bin/sh
# Two cuDNN builds of one version (for CUDA 11 and for CUDA 12): the bare
# version names both, so remove and uninstall must call it ambiguous, as
# they do for a prefix, and remove nothing; the full name picks one.
. "$(dirname "$0")/lib.sh"

a=$HOME/cudnn-8.9.7_cuda11-archive
b=$HOME/cudnn-8.9.7_cuda12-archive
make_fake_cudnn "$a" 8.9.7 11 &&
	make_fake_cudnn "$b" 8.9.7 12 &&
	cuenv add cudnn "$a" >/dev/null &&
	cuenv add cudnn "$b" >/dev/null &&
	listing="  cudnn  8.9.7 (cuda11)        $a  (registered)
  cudnn  8.9.7 (cuda12)        $b  (registered)" &&
	expect_code 2 cuenv remove cudnn 8.9 &&
	stderr_has "cudnn 8.9 is ambiguous: 8.9.7-cuda11, 8.9.7-cuda12" &&
	expect_code 2 cuenv remove cudnn 8.9.7 &&
	stdout_empty &&
	stderr_has "cudnn 8.9.7 is ambiguous: 8.9.7-cuda11, 8.9.7-cuda12" &&
	expect_stdout "$listing" cuenv versions &&
	expect_code 2 cuenv uninstall cudnn 8.9.7 &&
	stderr_has "ambiguous" &&
	expect_stdout "$listing" cuenv versions &&
	expect_stdout "removed cudnn 8.9.7-cuda12 ($b, left in place)" \
		cuenv remove cudnn 8.9.7-cuda12 &&
	expect_stdout "removed cudnn 8.9.7-cuda11 ($a, left in place)" \
		cuenv remove cudnn 8.9.7
