#!/bin/sh
# Field failure (a): "Could not load dynamic library 'libcupti.so.11.2'".
# A CUDA 11.2 selection without CUPTI: doctor names the soname, the cause
# and the command that adds CUPTI, and exits 15.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-11.2
need cc &&
	doctor_cuda "$c" 11.2.2 &&
	no_cupti "$c" &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 11.2\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 cuenv doctor &&
	stderr_empty &&
	said "problems:" &&
	said "[missing-soname] the selection (cuda 11.2.2) has no libcupti.so.11.2" &&
	said "Could not load dynamic library 'libcupti.so.11.2'" &&
	said "incompatible libcupti version" &&
	said "fix: cuenv install 11.2.2 --cupti 11.2 && cd $HOME/proj && cuenv local 11.2 --cupti 11.2" &&
	said "1 problem, 0 warnings" &&
	expect_code 15 cuenv doctor --json &&
	said '"id": "missing-soname"' &&
	said '"severity": "problem"' &&
	said '"problems": 1' &&
	# CUPTI of that release, installed beside it, is what the fix gives.
	mkdir -p "$CUENV_ROOT/versions/cupti/11.2.2/lib64" &&
	fake_elf libcupti.so.11.2 "$CUENV_ROOT/versions/cupti/11.2.2/lib64/libcupti.so.11.2" &&
	cat >"$CUENV_ROOT/versions/cupti/11.2.2/.cuenv-receipt" <<JSON &&
{"schema": 1, "kind": "cupti", "version": "11.2.2", "cuda_major": 11,
 "registered": false, "bin": [], "lib": ["lib64"], "include": [],
 "cupti": ["lib64"]}
JSON
	printf 'cuda = 11.2\ncupti = 11.2\n' >.cuenv &&
	expect_code 0 cuenv doctor &&
	stdout_lacks "missing-soname"
