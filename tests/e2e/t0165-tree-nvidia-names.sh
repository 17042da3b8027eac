#!/bin/sh
# tools/nvidia-names-check (make layers, CI) passes on the tree as it is,
# and fails on a copy with an NVIDIA library's name planted as a string
# outside core/nvidia (a Linux soname or a Windows DLL), or with an
# allow-list entry that matches nothing; a name in a comment, or in
# core/nvidia, is no finding.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
need python3
t=$HOME/tree
fresh() {
	rm -rf "$t" && mkdir -p "$t/tools" &&
		cp -R "$src/core" "$src/cmd" "$t/" &&
		cp "$src/tools/nvidia-names-check" \
			"$src/tools/nvidia-names-allow.txt" "$t/tools/"
}
nc() { python3 "$t/tools/nvidia-names-check" --root "$t"; }

fresh &&
	expect_code 0 nc &&
	stdout_has " 0 library names outside core/nvidia," || exit 1

fresh &&
	printf 'static const char planted[] = "libcublasLt.so.12";\n' \
		>>"$t/core/select/env.c" &&
	expect_code 1 nc &&
	stdout_has 'core/select/env.c:' &&
	stdout_has '"libcublasLt.so.12"' &&
	stdout_has " 1 library names outside core/nvidia," || exit 1

fresh &&
	printf 'static const char planted[] = "cudart64_12.dll";\n' \
		>>"$t/cmd/use.c" &&
	expect_code 1 nc &&
	stdout_has 'cmd/use.c:' || exit 1

# comments are not read; core/nvidia is the names' home
fresh &&
	printf '/* "libcudart.so.12" */\n// "cudnn64_9.dll"\n' \
		>>"$t/core/select/env.c" &&
	printf 'static const char here[] = "libcudart.so.12";\n' \
		>>"$t/core/nvidia/nvlib.c" &&
	expect_code 0 nc || exit 1

# an entry the tree no longer needs is an error
fresh &&
	printf 'core/base/buf.c  "libcudart.so"  # stale\n' \
		>>"$t/tools/nvidia-names-allow.txt" &&
	expect_code 1 nc &&
	stdout_has 'core/base/buf.c: allowed "libcudart.so", but no longer there' ||
	exit 1
