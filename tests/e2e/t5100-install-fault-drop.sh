#!/bin/sh
# A connection dropped in the middle of an archive's body is resumed with a
# Range request from the byte it reached, and the install succeeds with
# the right bytes. When every attempt drops, the install fails (exit 4,
# naming the URL) with nothing half made, keeps what it got, and the next
# run resumes from there.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	serve_faults "{\"$p\": {\"drop_after\": 65536, \"times\": 1}}" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "GET $p - 200
GET $p bytes=65536- 206" grep -F "$p" "$SERVER_LOG" &&
	expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcublasLt 12.4.5.8 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcublasLt.so.12)" &&
	staging_empty &&
	# Every attempt drops: three attempts, each resuming, then a failure.
	rm -rf "$CUENV_ROOT" && : >"$SERVER_LOG" &&
	serve_faults "{\"$p\": {\"drop_after\": 65536}}" &&
	expect_code 4 env CUENV_FETCH_RETRIES=2 cuenv install 12.4.1 &&
	stderr_has "cannot download '$SERVER_URL$p'" &&
	stderr_has "(after 3 attempts)" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "GET $p - 200
GET $p bytes=65536- 206
GET $p bytes=131072- 206" grep -F "$p" "$SERVER_LOG" &&
	# The next run goes on from the 196608 bytes it kept.
	: >"$SERVER_LOG" && serve_faults '{}' &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "GET $p bytes=196608- 206" grep -F "$p" "$SERVER_LOG" &&
	expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" &&
	staging_empty
