#!/bin/sh
# cuenv versions: sorted by version (not by text), the active ones marked
# with `*`, a note on stderr when the store is empty.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
expect_code 0 cuenv versions &&
	stdout_empty &&
	stderr_has "nothing installed yet" &&
	make_fake_cuda "$t/cuda-12.10" 12.10.0 &&
	make_fake_cuda "$t/cuda-12.9" 12.9.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cudnn "$t/cudnn_cuda12-archive" 9.1.0 12 &&
	make_fake_cudnn "$t/cudnn_cuda11-archive" 8.9.7 11 &&
	for d in cuda-12.10 cuda-12.9 cuda-11.8; do
		check "cannot add $d" cuenv add cuda "$t/$d" >/dev/null || break
	done &&
	cuenv add cudnn "$t/cudnn_cuda12-archive" >/dev/null &&
	cuenv add cudnn "$t/cudnn_cuda11-archive" >/dev/null &&
	expect_stdout "  cuda   11.8.0                $t/cuda-11.8  (registered)
  cuda   12.9.1                $t/cuda-12.9  (registered)
  cuda   12.10.0               $t/cuda-12.10  (registered)
  cudnn  8.9.7 (cuda11)        $t/cudnn_cuda11-archive  (registered)
  cudnn  9.1.0 (cuda12)        $t/cudnn_cuda12-archive  (registered)" cuenv versions &&
	stderr_empty &&
	mkdir proj && cd proj &&
	printf 'cuda = 12\ncudnn = 9\n' >.cuenv &&
	# "12" is the newest 12.x: 12.10.0, not 12.9.1.
	expect_stdout "  cuda   11.8.0                $t/cuda-11.8  (registered)
  cuda   12.9.1                $t/cuda-12.9  (registered)
* cuda   12.10.0               $t/cuda-12.10  (registered)
  cudnn  8.9.7 (cuda11)        $t/cudnn_cuda11-archive  (registered)
* cudnn  9.1.0 (cuda12)        $t/cudnn_cuda12-archive  (registered)" cuenv versions &&
	# A bad selection must not hide what is installed.
	printf 'cuda = 10.0\n' >.cuenv &&
	expect_code 0 cuenv versions &&
	stdout_has "  cuda   12.10.0" &&
	stdout_lacks "*" &&
	# An incomplete version (no receipt) is not listed.
	mkdir -p "$CUENV_ROOT/versions/cuda/13.0.0/bin" &&
	expect_code 0 cuenv versions &&
	stdout_lacks "13.0.0"
