#!/bin/sh
# 404 is final: one request, no retry, exit 4 at once naming the URL and
# the status; nothing half made.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	serve_faults "{\"$p\": {\"status\": 404}}" &&
	# One request in the server's log: no retry, so no pause between
	# attempts (counted, not timed).
	expect_code 4 env CUENV_FETCH_BACKOFF_MS=2000 cuenv install 12.4.1 &&
	stderr_has "cannot download '$SERVER_URL$p': HTTP 404" &&
	stderr_lacks "attempts" &&
	expect_stdout "GET $p - 404" grep -F "$p" "$SERVER_LOG" &&
	nothing_half_made cuda 12.4.1
