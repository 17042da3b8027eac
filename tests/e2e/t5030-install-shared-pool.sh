#!/bin/sh
# Components two releases share byte for byte are stored once: 12.4.0 and
# 12.4.1 list the same cuda_cccl, cuda_cupti, cuda_nvrtc and libcublas
# archives, so those files are hard links between the pool and both
# versions, and each archive is downloaded once. `cuenv gc` after
# uninstalling one keeps what the other uses; after both, it empties pool/.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

a=$CUENV_ROOT/versions/cuda/12.4.0
b=$CUENV_ROOT/versions/cuda/12.4.1
shared="lib/libcublasLt.so.12.4.5.8 lib/libcublas.so.12.4.5.8 include/cupti.h lib/libnvrtc.so.12.4.127 include/thrust/version.h"
links() {
	for f in $shared; do
		printf '%s %s %s\n' "$f" "$(nlink "$a/$f" 2>/dev/null)" "$(nlink "$b/$f" 2>/dev/null)"
	done
}
use_mirror &&
	expect_code 0 cuenv install 12.4.0 &&
	expect_code 0 cuenv install 12.4.1 &&
	# 12 archives listed, 8 different: each fetched once.
	expect_stdout 8 sh -c "grep -c ' 200\$' '$SERVER_LOG'" &&
	expect_stdout 8 sh -c "ls '$CUENV_ROOT/pool' | wc -l" &&
	expect_stdout "lib/libcublasLt.so.12.4.5.8 3 3
lib/libcublas.so.12.4.5.8 3 3
include/cupti.h 3 3
lib/libnvrtc.so.12.4.127 3 3
include/thrust/version.h 3 3" links &&
	check "12.4.0 and 12.4.1 do not share libcublasLt's inode" \
		[ "$(stat -c %i "$a/lib/libcublasLt.so.12.4.5.8")" = "$(stat -c %i "$b/lib/libcublasLt.so.12.4.5.8")" ] &&
	# Their own runtimes differ.
	expect_stdout "2 2" sh -c "echo \$(stat -c %h '$a/lib/libcudart.so.12.4.99' '$b/lib/libcudart.so.12.4.127')" &&
	expect_stdout "uninstalled cuda 12.4.0" cuenv uninstall 12.4.0 &&
	# 12.4.0's own cudart and nvcc go; what 12.4.1 uses stays.
	expect_stdout "removed 2 unused components (0.0 MB)" cuenv gc &&
	expect_stdout 6 sh -c "ls '$CUENV_ROOT/pool' | wc -l" &&
	expect_stdout "2" nlink "$b/lib/libcublasLt.so.12.4.5.8" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcublasLt 12.4.5.8 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcublasLt.so.12)" &&
	expect_stdout "uninstalled cuda 12.4.1" cuenv uninstall --force 12.4.1 &&
	expect_stdout "removed 6 unused components (1.7 MB)" cuenv gc &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool" &&
	expect_stdout "removed 0 unused components (0.0 MB)" cuenv gc
