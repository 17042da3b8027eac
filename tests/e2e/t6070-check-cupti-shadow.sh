#!/bin/sh
# A foreign libcupti shadowing the selection: the report names the exact
# file the loader picked, which is not the selection's, and the cupti
# layer fails (exit 14). First a copy on LD_LIBRARY_PATH standing in for
# the one the selection lacks (--isolate strips it, and the real problem
# shows); then a copy preloaded ahead of the selection's own.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"
need jq

other=$HOME/cuda-11.2/extras/CUPTI/lib64
check_driver 460.32.03 11020 &&
	check_cuda 11.2.2 nocupti &&
	fake_cuda_lib libcupti libcupti.so.11.2 "$other/libcupti.so.11.2" 15 &&
	LD_LIBRARY_PATH=$HOME/driver:$other &&
	mkdir proj && cd proj &&
	printf 'cuda = 11.2\n' >.cuenv &&
	expect_code 14 cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	check "cupti line names the foreign file" grep -q "^cupti    FAIL  15 .* ms  $other/libcupti\.so\.11\.2  (not the selection's)\$" "$E2E_OUT" &&
	stderr_has "cuenv: error: cupti: the selection (cuda 11.2.2) has no libcupti.so.11.2, and the loader found a foreign copy: $other/libcupti.so.11.2" &&
	stderr_has "hint: take $other off LD_LIBRARY_PATH, or let cuenv strip foreign CUDA folders: cuenv local 11.2.2 --isolate" &&
	expect_code 14 cuenv check --json &&
	assert_eq "$(jq -r '.layers[4].file' "$E2E_OUT")" "$other/libcupti.so.11.2" "the file loaded" &&
	assert_eq "$(jq -r '.layers[4].foreign' "$E2E_OUT")" true "foreign" &&
	# isolated, the foreign folder is gone: the selection lacks CUPTI
	printf 'cuda = 11.2\nisolate = true\n' >.cuenv &&
	expect_code 14 cuenv check &&
	stderr_has "could not load dynamic library 'libcupti.so.11.2': the selection (cuda 11.2.2) does not provide it" &&
	# a CUDA 12.4.1 selection that has its own libcupti.so.12, and a
	# foreign one loaded before it (LD_PRELOAD)
	cd .. && mkdir p12 && cd p12 &&
	check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	fake_cuda_lib libcupti libcupti.so.12 "$HOME/old/libcupti.so.12" 19 &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv check &&
	expect_code 14 env LD_PRELOAD="$HOME/old/libcupti.so.12" \
		ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" cuenv check &&
	cat "$E2E_OUT" "$E2E_ERR" &&
	check "cupti line names the preloaded file" grep -q "^cupti    FAIL  19 .* ms  $HOME/old/libcupti\.so\.12  (not the selection's)\$" "$E2E_OUT" &&
	stderr_has "cupti: libcupti.so.12 was loaded from $HOME/old/libcupti.so.12, not from the selection's $CUENV_ROOT/versions/cuda/12.4.1/lib64/libcupti.so.12: a foreign copy shadows it" &&
	stderr_has "hint: $HOME/old/libcupti.so.12 comes from LD_PRELOAD"
