#!/bin/sh
# cuenv needs: what it refuses, with which status and message. No PATH is
# a usage error (2), a file named that is not ELF too (2), a corrupt ELF
# file named is 3 (inside a folder it is only skipped), a missing PATH 7.
# Files that name no CUDA library, or only NCCL (which cuenv does not
# install), ask nothing of cuenv (0).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

stubs &&
	mkso "$HOME/lib/libok.so" libok.so 'int ok(void) { return 0; }' &&
	head -c 100 "$HOME/lib/libok.so" >"$HOME/broken.so" &&
	echo 'libcudart.so.12 is named here, in text' >"$HOME/notes.txt" &&
	expect_code 2 cuenv needs &&
	stderr_has "cuenv: error: needs: missing argument" &&
	expect_code 2 cuenv needs --bogus "$HOME/lib" &&
	stderr_has "cuenv: error: needs: unknown option '--bogus'" &&
	expect_code 2 cuenv needs "$HOME/notes.txt" &&
	stderr_has "cuenv: error: '$HOME/notes.txt' is not an ELF file" &&
	expect_code 3 cuenv needs "$HOME/broken.so" &&
	stderr_has "cuenv: error: corrupt ELF file '$HOME/broken.so': " &&
	expect_code 7 cuenv needs "$HOME/missing.so" &&
	stderr_has "cuenv: error: cannot read '$HOME/missing.so': No such file or directory" &&
	expect_code 2 cuenv needs /dev/null &&
	stderr_has "is not a file or a folder" &&
	expect_code 0 cuenv needs --help &&
	stdout_has "usage: cuenv needs [--python [PYTHON]] [--import] [--json] [--index URL]" &&
	# Nothing CUDA in them: nothing asked.
	expect_stdout "no CUDA library is named by these files (1 ELF file read)" \
		cuenv needs "$HOME/lib" &&
	mkdir "$HOME/empty" &&
	expect_stdout "no CUDA library is named by these files (0 ELF files read)" \
		cuenv needs "$HOME/empty" &&
	# NCCL is reported, not asked of cuenv.
	mkso "$HOME/nccl/libuser.so" libuser.so 'const char s[] = "libnccl.so.2";' &&
	expect_code 0 cuenv needs "$HOME/nccl" &&
	stdout_has "libnccl.so.2           NCCL (cuenv does not install it)" &&
	stdout_has "nothing here is asked of cuenv" &&
	# A folder that provides what its files name asks nothing either.
	cp "$HOME/stubs/libcudart.so.12" "$HOME/nccl/" &&
	mkso "$HOME/nccl/libapp.so" libapp.so 'int app(void) { return 0; }' libcudart.so.12 &&
	expect_code 0 cuenv needs "$HOME/nccl" &&
	stdout_has "    provided by $HOME/nccl/libcudart.so.12 (under PATH)" &&
	stdout_has "nothing here is asked of cuenv, which does not install libnccl.so.2: the files need it from elsewhere (NVIDIA's wheels on the index have it)" &&
	# Without NCCL, what is under PATH is all they need.
	rm "$HOME/nccl/libuser.so" &&
	expect_code 0 cuenv needs "$HOME/nccl" &&
	stdout_has "nothing here is asked of cuenv: the files under PATH provide every CUDA library they name"
