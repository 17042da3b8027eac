#!/bin/sh
# A mirror that does not do ranges, after an interrupted first attempt
# left a .part: a server that answers the range request with 200 and the
# whole file, one that answers 416, and a real `python3 -m http.server`
# (which ignores Range). Each time the install reads that archive again
# from the start, says so once on stderr, and succeeds (never libcurl's
# "Cannot resume").
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
# interrupted: the first attempt at libcublas breaks after 4096 bytes and
# is not retried, so that a .part is left for the next install.
interrupted() {
	rm -rf "$CUENV_ROOT" &&
		serve_faults "{\"$p\": {\"drop_after\": 4096, \"times\": 1}}" &&
		expect_code 4 env CUENV_FETCH_RETRIES=0 cuenv install 12.4.1 &&
		check "no .part after the interrupted attempt" [ -s "$part" ] &&
		: >"$SERVER_LOG"
}
# said_once HOW: the note is on stderr exactly once.
said_once() {
	expect_stdout 1 grep -c "^cuenv: server $1 the range request; downloading again from the start" "$HOME/err"
}
installed() {
	cp "$E2E_ERR" "$HOME/err" &&
		stdout_has "installed cuda 12.4.1 in $v (" &&
		stderr_lacks "Cannot resume" &&
		stderr_lacks "cuenv: warning" &&
		check "a .part is left" [ ! -e "$part" ] &&
		expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" &&
		staging_empty
}
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	part=$CUENV_ROOT/cache/$sha.part || exit 1

# 200 and the whole file
interrupted &&
	serve_faults "{\"$p\": {\"ignore_range\": true}}" &&
	expect_code 0 cuenv install 12.4.1 &&
	installed && said_once ignored &&
	expect_stdout "GET $p bytes=4096- 200" grep -F "$p" "$SERVER_LOG"

# 416 to the range request, then the whole file
interrupted &&
	serve_faults "{\"$p\": {\"status\": 416, \"times\": 1}}" &&
	expect_code 0 cuenv install 12.4.1 &&
	installed && said_once refused &&
	expect_stdout "GET $p bytes=4096- 416
GET $p - 200" grep -F "$p" "$SERVER_LOG"

# python3 -m http.server as the mirror
interrupted || exit 1
: >"$HOME/http.log"
(cd "$FX/mirror" && exec python3 -u -m http.server --bind 127.0.0.1 0) \
	>"$HOME/http.log" 2>&1 &
hs=$!
trap 'kill "$hs" 2>/dev/null; _inst_cleanup' EXIT
n=0
while ! port=$(sed -n 's/.* port \([0-9][0-9]*\) .*/\1/p' "$HOME/http.log") ||
	[ -z "$port" ]; do
	n=$((n + 1))
	[ "$n" -lt 100 ] || { fail "python3 -m http.server did not start: $(cat "$HOME/http.log")"; exit 1; }
	sleep 0.05
done
expect_code 0 env CUENV_MIRROR="http://127.0.0.1:$port" cuenv install 12.4.1 &&
	installed && said_once ignored
kill "$hs"
