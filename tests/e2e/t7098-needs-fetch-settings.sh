#!/bin/sh
# cuenv needs NAME==VERSION fetches with the user's settings, as install
# does: against an index whose project page trickles at 50 B/s,
# CUENV_FETCH_RETRIES=1 (with a 1 s stall) makes exactly 2 requests, and
# CUENV_FETCH_TIMEOUT=3 gives up within seconds, naming the variable
# (exit 4 both). Old cuenv used the compiled-in defaults: 6 attempts of
# 30 s each (the time limit below stops it).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
torch_index "$idx" &&
	serve_start "$idx" PYPI &&
	serve_faults '{"/simple/torch/": {"trickle": 50}}' PYPI &&
	expect_code 4 timeout "$(load_bound 20)" env CUENV_FETCH_RETRIES=1 \
		CUENV_FETCH_STALL_SECONDS=1 CUENV_FETCH_BACKOFF_MS=10 \
		cuenv needs --index "$PYPI_URL/simple" torch==2.1.2 &&
	stderr_has "cannot download '$PYPI_URL/simple/torch/'" &&
	expect_stdout "2" grep -c "^GET /simple/torch/ " "$PYPI_LOG" &&
	: >"$PYPI_LOG" &&
	t0=$(date +%s) &&
	expect_code 4 timeout "$(load_bound 20)" env CUENV_FETCH_TIMEOUT=3 \
		cuenv needs --index "$PYPI_URL/simple" torch==2.1.2 &&
	stderr_has "CUENV_FETCH_TIMEOUT" &&
	took_at_most "$t0" 8 &&
	expect_stdout "1" grep -c "^GET /simple/torch/ " "$PYPI_LOG"
