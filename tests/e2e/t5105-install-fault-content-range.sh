#!/bin/sh
# A resumed download whose 206 answers another range than the one asked
# for (its Content-Range starts elsewhere, is malformed or missing) is an
# error naming the URL (exit 4), for good: the bytes are never written as
# the ones asked for (which would end in a checksum error, or worse).
# What was received before stays to resume from, and an honest server then
# completes the same sha256.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need python3
v=$CUENV_ROOT/versions/cuda/12.4.1
drop='{"drop_after": 65536, "times": 1}'
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	size=$(wc -c <"$FX/mirror$p" | tr -d ' ') &&
	# the range 4096 bytes later than asked, its Content-Range honest
	serve_faults "{\"$p\": [$drop, {\"range_shift\": 4096}]}" &&
	expect_code 4 env CUENV_FETCH_RETRIES=2 cuenv install 12.4.1 &&
	stderr_has "cuenv: error: cannot download '$SERVER_URL$p': the server answered the request for bytes 65536- with Content-Range 'bytes 69632-$((size - 1))/$size': it does not start at the byte asked for" &&
	stderr_lacks "sha256" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "GET $p - 200
GET $p bytes=65536- 206" grep -F "$p" "$SERVER_LOG" &&
	check "the first 65536 bytes are not kept to resume from" \
		[ "$(wc -c <"$CUENV_ROOT/cache/$sha.part" | tr -d ' ')" = 65536 ] &&
	# malformed, or none at all
	: >"$SERVER_LOG" &&
	serve_faults "{\"$p\": {\"content_range\": \"bytes 65536-\"}}" &&
	expect_code 4 cuenv install 12.4.1 &&
	stderr_has "the server answered the request for bytes 65536- with Content-Range 'bytes 65536-': not \"bytes FIRST-LAST/LENGTH\"" &&
	serve_faults "{\"$p\": {\"content_range\": \"\"}}" &&
	expect_code 4 cuenv install 12.4.1 &&
	stderr_has "cannot download '$SERVER_URL$p': the server answered the request for bytes 65536- with 206 but no Content-Range" &&
	# the length is not the catalogue's size
	serve_faults "{\"$p\": {\"content_range\": \"bytes 65536-$size/$((size + 1))\"}}" &&
	expect_code 4 cuenv install 12.4.1 &&
	stderr_has "Content-Range 'bytes 65536-$size/$((size + 1))': the file's length is not the size the catalogue names" &&
	# honest again: it goes on from byte 65536 to the right sha256
	: >"$SERVER_LOG" && serve_faults '{}' &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "GET $p bytes=65536- 206" grep -F "$p" "$SERVER_LOG" &&
	expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" &&
	staging_empty
