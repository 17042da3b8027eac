#!/bin/sh
# A file in the download cache that went bad (a flipped byte) is caught by
# its sha256 when it is read again: the install fails with an integrity
# error naming the file and both hashes, installs nothing, drops the bad
# file, and the next install fetches the archive again and succeeds.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	sha=$(fxq 'd["cuda"]["12.4.1"]["components"]["libcublas"]["sha256"]') &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "uninstalled cuda 12.4.1" cuenv uninstall 12.4.1 &&
	expect_code 0 cuenv gc &&
	cublas=$CUENV_ROOT/cache/$sha &&
	chmod u+w "$cublas" &&
	printf 'X' | dd of="$cublas" bs=1 seek=1000000 conv=notrunc 2>/dev/null &&
	actual=$(sha256sum "$cublas" | cut -d' ' -f1) &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "sha256 mismatch" &&
	stderr_has "libcublas-linux-x86_64-12.4.5.8-archive.tar.xz" &&
	stderr_has "expected $sha, got $actual" &&
	nothing_half_made cuda 12.4.1 &&
	check "the bad file is still in the cache" [ ! -e "$cublas" ] &&
	: >"$SERVER_LOG" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout 1 sh -c "grep -c 'libcublas.* 200\$' '$SERVER_LOG'" &&
	expect_stdout "$sha" sh -c "sha256sum '$cublas' | cut -d' ' -f1"
