#!/bin/sh
# The download cache: install, uninstall, gc, stop the server, and install
# again: every archive comes from $CUENV_ROOT/cache (verified again), no
# network needed. --no-cache neither reads nor fills it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	sums=$(fxq '"\n".join(sorted(c["sha256"] for c in d["cuda"]["12.4.1"]["components"].values()))') &&
	expect_code 0 cuenv install 12.4.1 &&
	# The cache holds each archive under its sha256, complete.
	expect_stdout "$sums" ls "$CUENV_ROOT/cache" &&
	expect_stdout "uninstalled cuda 12.4.1" cuenv uninstall 12.4.1 &&
	expect_code 0 cuenv gc &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool" &&
	serve_stop &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	stderr_has "cuenv: libcublas from the cache (1.6 MB)" &&
	stderr_lacks " done (" &&
	check "no receipt after the offline install" [ -f "$v/.cuenv-receipt" ] &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcudart 12.4.127 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcudart.so.12)" &&
	cuenv uninstall --force 12.4.1 >/dev/null &&
	# --no-cache: everything from the network, nothing kept.
	rm -rf "$CUENV_ROOT" &&
	use_mirror &&
	: >"$SERVER_LOG" &&
	expect_code 0 cuenv install 12.4.1 --no-cache &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "" ls -A "$CUENV_ROOT/cache" &&
	expect_stdout 6 sh -c "grep -c ' 200\$' '$SERVER_LOG'" &&
	staging_empty
