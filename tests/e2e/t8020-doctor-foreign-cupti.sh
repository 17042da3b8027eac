#!/bin/sh
# Field failure (b): "incompatible libcupti version". A foreign folder with
# its own libcupti.so.11.2 put first on LD_LIBRARY_PATH after cuenv
# activated CUDA 11.2 shadows the selection's copy: doctor names the
# folder, the soname, the cause and the fixes (isolate, or the exact
# export without it), and exits 15. After the selection it only warns.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-11.2
f=$HOME/old-cuda/extras/CUPTI/lib64
need cc &&
	doctor_cuda "$c" 11.2.2 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj "$f" && printf 'cuda = 11.2\n' >proj/.cuenv &&
	fake_elf libcupti.so.11.2 "$f/libcupti.so.11.2" &&
	cd proj &&
	eval "$(cuenv env)" &&
	assert_eq "$LD_LIBRARY_PATH" "$c/lib64" "activated LD_LIBRARY_PATH" &&
	LD_LIBRARY_PATH=$f:$LD_LIBRARY_PATH && export LD_LIBRARY_PATH &&
	expect_code 15 cuenv doctor &&
	said "[ld-library-path-shadow] LD_LIBRARY_PATH has $f before the" &&
	said "libcupti.so.11.2, which the selection (cuda 11.2.2) has too" &&
	said "incompatible libcupti version" &&
	said "fix: set 'isolate = true' in $HOME/proj/.cuenv" &&
	said "or: for one command: cuenv exec --isolate -- CMD" &&
	said "or: drop them: export LD_LIBRARY_PATH='$c/lib64'" &&
	stdout_lacks "[not-activated]" &&
	# The fix: isolate, then re-activate.
	printf 'cuda = 11.2\nisolate = true\n' >.cuenv &&
	eval "$(cuenv env)" &&
	assert_eq "$LD_LIBRARY_PATH" "$c/lib64" "isolated LD_LIBRARY_PATH" &&
	expect_code 0 cuenv doctor &&
	stdout_lacks "ld-library-path" &&
	# Not activated, the folder after the selection: a warning.
	printf 'cuda = 11.2\n' >.cuenv &&
	expect_code 0 env -u __CUENV_STATE -u CUENV_ACTIVE LD_LIBRARY_PATH="$f" cuenv doctor &&
	said "[foreign-ld-library-path] LD_LIBRARY_PATH entry $f holds CUDA libraries" &&
	said "0 problems, 1 warning"
