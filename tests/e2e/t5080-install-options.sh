#!/bin/sh
# Install options: --runtime-only takes only the shared libraries of the
# runtime archives (no compiler, no headers; their own pool trees), with
# --jobs 1 one archive at a time; bad option values are usage errors
# (exit 2) that fetch and write nothing.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	expect_code 2 cuenv install 12.4.1 --jobs 0 &&
	stderr_has "install: --jobs must be a whole number from 1 to 64, not '0'" &&
	expect_code 2 cuenv install 12.4.1 --jobs 65 &&
	expect_code 2 cuenv install 12.4.1 --components cuda_cudart,libfoo &&
	stderr_has "cuda 12.4.1 has no component 'libfoo'" &&
	# the hint names what exists (list-remote has no --components)
	stderr_has "hint: its components: cuda_cccl, cuda_cudart, cuda_cupti, cuda_nvcc, cuda_nvrtc, libcublas" &&
	stderr_lacks "list-remote" &&
	expect_code 2 cuenv install 12.4.1 --components 'cuda_cudart,../x' &&
	expect_code 2 cuenv install 12.4.1 --runtime-only --components cuda_cudart &&
	stderr_has "--components and --runtime-only do not go together" &&
	expect_code 2 cuenv install 12.4.1 --source tarball &&
	expect_code 2 cuenv install 12.4.1 --mirror ftp://127.0.0.1/ &&
	expect_code 17 cuenv install 12.3 &&
	stderr_has "no CUDA 12.3 in the catalogue" &&
	expect_code 17 cuenv install 12.4 --cudnn 8 &&
	stderr_has "no cuDNN 8 for CUDA 12 in the catalogue" &&
	expect_stdout "" cat "$SERVER_LOG" &&
	check "a usage error made a version" [ ! -e "$v" ] &&
	expect_code 0 cuenv install 12.4.1 --runtime-only --jobs 1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	# cudart, cupti, nvrtc and cublas: not nvcc nor cccl.
	expect_stdout 4 sh -c "grep -c ' 200\$' '$SERVER_LOG'" &&
	check "--runtime-only installed nvcc" [ ! -e "$v/bin" ] &&
	check "--runtime-only installed headers" [ ! -e "$v/include" ] &&
	check "--runtime-only left out libcudart" [ -f "$v/lib/libcudart.so.12.4.127" ] &&
	check "--runtime-only left out libcublasLt" [ -f "$v/lib/libcublasLt.so.12.4.5.8" ] &&
	check "--runtime-only installed static libraries" \
		[ -z "$(find "$v" -name '*.a')" ] &&
	expect_stdout 4 sh -c "ls '$CUENV_ROOT/pool' | grep -c -- '-rt\$'" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_code 1 cuenv which nvcc &&
	expect_stdout "cuenv-fixture libcudart 12.4.127 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcudart.so.12)" &&
	staging_empty
