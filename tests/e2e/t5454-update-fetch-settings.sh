#!/bin/sh
# cuenv update fetches with the user's settings, as install does: against
# a server that trickles at 50 B/s, `update --frameworks` with
# CUENV_FETCH_RETRIES=1 (and a 1 s stall) asks for each project's page
# exactly twice, and `update --mirror` with CUENV_FETCH_TIMEOUT=3 gives
# up on the redist listing within seconds, naming the variable (exit 4
# both). Old cuenv used the compiled-in defaults (6 attempts, 30 s
# stalls): the time limit below stops it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
torch_index "$idx" &&
	mkdir -p "$idx/simple/tensorflow" "$idx/compute/cuda/redist" &&
	cp "$idx/simple/torch/index.json" "$idx/simple/tensorflow/" &&
	python3 -c 'import sys
open(sys.argv[1], "w").write("<html>%s</html>\n" % ("<!-- padding -->\n" * 200))' \
		"$idx/compute/cuda/redist/index.html" &&
	serve_start "$idx" PYPI &&
	serve_faults '{"/simple/*": {"trickle": 50}, "/compute/*": {"trickle": 50}}' PYPI &&
	expect_code 4 timeout "$(load_bound 20)" env CUENV_FETCH_RETRIES=1 \
		CUENV_FETCH_STALL_SECONDS=1 CUENV_FETCH_BACKOFF_MS=10 \
		cuenv update --frameworks --index "$PYPI_URL/simple" &&
	stderr_has "cuenv: error: no framework release read from '$PYPI_URL/simple'" &&
	expect_stdout "2" grep -c "^GET /simple/torch/ " "$PYPI_LOG" &&
	expect_stdout "2" grep -c "^GET /simple/tensorflow/ " "$PYPI_LOG" &&
	t0=$(date +%s) &&
	expect_code 4 timeout "$(load_bound 20)" env CUENV_FETCH_TIMEOUT=3 \
		cuenv update --mirror "$PYPI_URL" &&
	stderr_has "CUENV_FETCH_TIMEOUT" &&
	took_at_most "$t0" 8 &&
	expect_stdout "1" grep -c "^GET /compute/cuda/redist/ " "$PYPI_LOG"
