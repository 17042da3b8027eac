#!/bin/sh
# Server errors (5xx) are retried: two 500s then the file, and the install
# succeeds. A 503 that never ends fails after the retries (exit 4) naming
# the URL and the status, with nothing half made.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 cuda_cudart path) &&
	serve_faults "{\"$p\": {\"status\": 500, \"times\": 2}}" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "GET $p - 500
GET $p - 500
GET $p - 200" grep -F "$p" "$SERVER_LOG" &&
	staging_empty &&
	rm -rf "$CUENV_ROOT" && : >"$SERVER_LOG" &&
	serve_faults "{\"$p\": {\"status\": 503}}" &&
	expect_code 4 env CUENV_FETCH_RETRIES=2 cuenv install 12.4.1 &&
	stderr_has "cannot download '$SERVER_URL$p': HTTP 503 (after 3 attempts)" &&
	expect_stdout "GET $p - 503
GET $p - 503
GET $p - 503" grep -F "$p" "$SERVER_LOG" &&
	nothing_half_made cuda 12.4.1
