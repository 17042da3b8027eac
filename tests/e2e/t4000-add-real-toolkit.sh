#!/bin/sh
# The machine's real CUDA toolkit (found as a user's set-up says: see
# need_real_cuda): `cuenv add cuda` detects its version (the release its
# own nvcc reports) and CUPTI, and registers a cuDNN found inside it;
# exec runs that nvcc; which finds its libcupti and libcudnn.
. "$(dirname "$0")/lib.sh"

need_real_cuda &&
	r=$REAL_CUDA &&
	echo "toolkit: $r" &&
	rel=$("$r/bin/nvcc" --version | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p') &&
	check "$r/bin/nvcc --version names no release" [ -n "$rel" ] &&
	echo "its nvcc says: release $rel" &&
	major=${rel%%.*} &&
	expect_code 0 cuenv add cuda "$r" &&
	cat "$E2E_OUT" &&
	stdout_has "registered cuda $rel" &&
	check "CUDA $rel with CUPTI was not detected: $(cat "$E2E_OUT")" grep -q "^registered cuda $rel\(\.[0-9.]*\)\? from $r (CUPTI [0-9][0-9.]*)$" "$E2E_OUT" &&
	cp "$E2E_OUT" "$HOME/add.out" &&
	dnn=$(ls "$r"/lib64/libcudnn.so.* "$r"/lib/libcudnn.so.* 2>/dev/null |
		sed -n 's|.*/libcudnn\.so\.\([0-9]*\)$|\1|p' | head -n 1) &&
	if [ -n "$dnn" ]; then
		echo "cuDNN $dnn inside" &&
			check "the cuDNN $dnn inside $r was not registered" grep -q "^registered cudnn $dnn\.[0-9.]* for CUDA $major from $r$" "$HOME/add.out"
	fi &&
	mkdir proj && cd proj &&
	expect_code 0 cuenv local "$rel" ${dnn:+--cudnn "$dnn"} &&
	expect_code 0 cuenv version &&
	stdout_has "set by $HOME/proj/.cuenv" &&
	expect_code 0 cuenv exec -- nvcc --version &&
	stdout_has "release $rel," &&
	expect_stdout "$r/bin/nvcc" cuenv exec -- sh -c 'command -v nvcc' &&
	expect_stdout "$r" cuenv exec -- sh -c 'echo "$CUDA_HOME"' &&
	expect_code 0 cuenv which "libcupti.so.$major" &&
	p=$(cat "$E2E_OUT") &&
	case $p in "$r"/*) ;; *) fail "libcupti.so.$major is $p, not in $r" ;; esac &&
	check "$p does not exist" [ -e "$p" ] &&
	if [ -n "$dnn" ]; then
		expect_code 0 cuenv which "libcudnn.so.$dnn" &&
			p=$(cat "$E2E_OUT") &&
			case $p in "$r"/*) ;; *) fail "libcudnn.so.$dnn is $p, not in $r" ;; esac &&
			check "$p does not exist" [ -e "$p" ]
	fi
