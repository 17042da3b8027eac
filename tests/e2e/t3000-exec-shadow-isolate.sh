#!/bin/sh
# A foreign folder on LD_LIBRARY_PATH holding CUDA libraries (here an old
# libcupti.so.11.2) can shadow the selection: activation warns about it;
# --isolate, or `isolate = true` in .cuenv, strips it instead.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
f=$HOME/foreign/lib
need cc &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p "$f" proj && printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libcupti.so.11.2 "$f/libcupti.so.11.2" &&
	cd proj &&
	export LD_LIBRARY_PATH="/user/lib:$f:/user/last" &&
	warning="cuenv: warning: LD_LIBRARY_PATH entry $f (libcupti.so.11.2) holds CUDA libraries that can shadow cuda 12.4.1 (strip it with 'isolate = true' in .cuenv or --isolate)" &&
	expect_stdout "$c/lib64:/user/lib:$f:/user/last" cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	stderr_has "$warning" &&
	expect_stdout "$c/lib64:/user/lib:/user/last" cuenv exec --isolate sh -c 'echo "$LD_LIBRARY_PATH"' &&
	stderr_empty &&
	expect_code 0 cuenv env &&
	stdout_has "export LD_LIBRARY_PATH='$c/lib64:/user/lib:$f:/user/last';" &&
	stderr_has "$warning" &&
	expect_code 0 cuenv env --isolate &&
	stdout_has "export LD_LIBRARY_PATH='$c/lib64:/user/lib:/user/last';" &&
	stderr_empty &&
	# Undoing the isolated environment puts the entry back where it was.
	expect_stdout "/user/lib:$f:/user/last" \
		sh -c 'eval "$(cuenv env --isolate)" && cd / && cuenv exec sh -c "echo \"\$LD_LIBRARY_PATH\""' &&
	printf 'cuda = 12.4\nisolate = true\n' >.cuenv &&
	expect_stdout "$c/lib64:/user/lib:/user/last" cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	stderr_empty &&
	expect_stdout "12.4.1 (set by $HOME/proj/.cuenv)" cuenv version &&
	# A folder of the user's without CUDA libraries is never touched.
	printf 'cuda = 12.4\n' >.cuenv &&
	fake_elf libfoo.so.1 /user/lib/libfoo.so.1 2>/dev/null; : &&
	expect_stdout "$c/lib64:/user/lib:/user/last" env LD_LIBRARY_PATH=/user/lib:/user/last \
		cuenv exec --isolate sh -c 'echo "$LD_LIBRARY_PATH"'
