#!/bin/sh
# A .part as long as the catalogue says (a download killed after its last
# byte, before the rename) is hashed and promoted without a request for
# that archive. A complete .part with the wrong bytes is a sha256 mismatch
# (exit 5, expected and actual named) and is discarded: the next install
# downloads it afresh and succeeds. A .part longer than the archive can be
# is dropped and downloaded again. A complete .part of a runfile (the
# catalogue gives no size) is asked for from its end: the 416 that answers
# means it is whole, and it is hashed and promoted.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	size=$(comp 12.4.1 libcublas size) &&
	part=$CUENV_ROOT/cache/$sha.part &&
	mkdir -p "$CUENV_ROOT/cache" &&
	cp "$FX/mirror$p" "$part" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	check "the complete .part was asked for: $(grep -F "$p" "$SERVER_LOG")" \
		sh -c '! grep -qF "$1" "$2"' sh "$p" "$SERVER_LOG" &&
	check "the .part was not promoted" [ -f "$CUENV_ROOT/cache/$sha" ] &&
	check "a .part is left" [ ! -e "$part" ] &&
	staging_empty &&
	# the same size, other bytes: a mismatch, and the .part goes
	rm -rf "$CUENV_ROOT" && mkdir -p "$CUENV_ROOT/cache" &&
	head -c "$size" /dev/zero >"$part" &&
	: >"$SERVER_LOG" &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "sha256 mismatch for '$SERVER_URL$p': expected $sha, got " &&
	check "the bad .part was kept" [ ! -e "$part" ] &&
	nothing_half_made cuda 12.4.1 &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "GET $p - 200" grep -F "$p" "$SERVER_LOG" &&
	# longer than the catalogue's size: nothing in it is kept
	rm -rf "$CUENV_ROOT" && mkdir -p "$CUENV_ROOT/cache" &&
	head -c "$((size + 100))" /dev/zero >"$part" &&
	: >"$SERVER_LOG" &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "GET $p - 200" grep -F "$p" "$SERVER_LOG" &&
	check "a .part is left" [ ! -e "$part" ] &&
	staging_empty &&
	# a runfile: no size known, the server's 416 says the .part is whole
	run=$(fxq "d['runfiles']['11.2.2']['path']") &&
	rsha=$(fxq "d['runfiles']['11.2.2']['sha256']") &&
	rsize=$(stat -c %s "$FX/mirror$run") &&
	rm -rf "$CUENV_ROOT" && mkdir -p "$CUENV_ROOT/cache" &&
	cp "$FX/mirror$run" "$CUENV_ROOT/cache/$rsha.part" &&
	: >"$SERVER_LOG" &&
	expect_code 0 cuenv install 11.2.2 &&
	stdout_has "installed cuda 11.2.2 in " &&
	expect_stdout "GET $run bytes=$rsize- 416" grep -F "$run" "$SERVER_LOG" &&
	check "the runfile's .part was not promoted" [ -f "$CUENV_ROOT/cache/$rsha" ] &&
	staging_empty
