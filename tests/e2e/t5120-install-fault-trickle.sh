#!/bin/sh
# A slow server: an archive trickling at 1 MB/s still installs. A transfer
# that stalls (headers, then not a byte) is abandoned after
# CUENV_FETCH_STALL_SECONDS, retried, and then fails cleanly (exit 4,
# naming the URL) with nothing half made.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	serve_faults "{\"$p\": {\"trickle\": 1000000}}" &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart,libcublas &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "GET $p - 200" grep -F "$p" "$SERVER_LOG" &&
	staging_empty &&
	rm -rf "$CUENV_ROOT" && : >"$SERVER_LOG" &&
	serve_faults "{\"$p\": {\"trickle\": 0}}" &&
	expect_code 4 env CUENV_FETCH_STALL_SECONDS=1 CUENV_FETCH_RETRIES=1 \
		cuenv install 12.4.1 --components cuda_cudart,libcublas &&
	stderr_has "cannot download '$SERVER_URL$p'" &&
	stderr_has "(after 2 attempts)" &&
	expect_stdout "GET $p - 200
GET $p - 200" grep -F "$p" "$SERVER_LOG" &&
	nothing_half_made cuda 12.4.1
