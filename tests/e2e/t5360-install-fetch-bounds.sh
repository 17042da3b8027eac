#!/bin/sh
# Every download is bounded. An endless response (the file, then zeros
# for ever) is cut at the catalogue's size, or, for a download of unknown
# size (a runfile), at CUENV_FETCH_MAX_BYTES / --max-download: exit 4, a
# clear error, no .part left. A 2 B/s trickle is cut by the low-speed
# limit, and by the overall deadline (--timeout / CUENV_FETCH_TIMEOUT); a
# stalled server is given up on within the deadline. Values from the
# environment and flags are checked: "abc" is an error naming them.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

now() { date +%s; }
# within N: the last command took at most N seconds (since $t0), times
# the load factor (lib.sh's load_bound); unbounded, each would run on.
within() { took_at_most "$t0" "$1"; }
no_part() {
	check "a .part is left: $(ls "$CUENV_ROOT/cache" 2>/dev/null)" \
		sh -c '! ls "$1" 2>/dev/null | grep -q "\.part$"' sh "$CUENV_ROOT/cache"
}
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	size=$(comp 12.4.1 libcublas size) &&
	run=$(fxq "d['runfiles']['11.2.2']['path']") || exit 1

# endless, catalogue size known: cut there
serve_faults "{\"$p\": {\"endless\": true}}" &&
	t0=$(now) &&
	expect_code 4 cuenv install 12.4.1 --components libcublas &&
	within 20 &&
	stderr_has "cannot download '$SERVER_URL$p': more bytes than the $size the catalogue says" &&
	no_part && nothing_half_made cuda 12.4.1

# endless, no size known: the bound, from the environment and the flag
rm -rf "$CUENV_ROOT" &&
	serve_faults "{\"$run\": {\"endless\": true}}" &&
	t0=$(now) &&
	expect_code 4 env CUENV_FETCH_MAX_BYTES=3000000 cuenv install 11.2.2 &&
	within 20 &&
	stderr_has "cannot download '$SERVER_URL$run': larger than 3000000 bytes, the bound on a download of unknown size" &&
	stderr_has "hint: to allow more: --max-download BYTES, or CUENV_FETCH_MAX_BYTES" &&
	no_part && nothing_half_made cuda 11.2.2 &&
	expect_code 4 cuenv install 11.2.2 --max-download 2000000 &&
	stderr_has "larger than 2000000 bytes" &&
	no_part && nothing_half_made cuda 11.2.2 &&
	serve_faults '{}' &&
	expect_code 4 cuenv install 11.2.2 --max-download 1000 &&
	stderr_has "larger than 1000 bytes" &&
	expect_code 0 cuenv install 11.2.2 --max-download 20000

# 2 B/s: the low-speed limit (retried once), then the deadline
rm -rf "$CUENV_ROOT" &&
	serve_faults "{\"$p\": {\"trickle\": 2}}" &&
	t0=$(now) &&
	expect_code 4 env CUENV_FETCH_LOW_SPEED=100 CUENV_FETCH_STALL_SECONDS=1 \
		CUENV_FETCH_RETRIES=1 cuenv install 12.4.1 --components libcublas &&
	within 8 &&
	stderr_has "cannot download '$SERVER_URL$p': " &&
	stderr_has "(after 2 attempts)" &&
	nothing_half_made cuda 12.4.1 &&
	t0=$(now) &&
	expect_code 4 env CUENV_FETCH_LOW_SPEED=1 CUENV_FETCH_TIMEOUT=2 \
		cuenv install 12.4.1 --components libcublas &&
	within 6 &&
	stderr_has "cannot download '$SERVER_URL$p': not done after 2 s" &&
	stderr_has "hint: to allow longer: --timeout SECONDS, or CUENV_FETCH_TIMEOUT" &&
	nothing_half_made cuda 12.4.1

# stalled (headers, then nothing): given up on within the deadline
rm -rf "$CUENV_ROOT" &&
	serve_faults "{\"$p\": {\"trickle\": 0}}" &&
	t0=$(now) &&
	expect_code 4 cuenv install 12.4.1 --components libcublas --timeout 2 &&
	within 6 &&
	stderr_has "not done after 2 s" &&
	nothing_half_made cuda 12.4.1

# checked values
for var in CUENV_FETCH_TIMEOUT CUENV_FETCH_MAX_BYTES CUENV_FETCH_LOW_SPEED \
	CUENV_FETCH_RETRIES CUENV_FETCH_STALL_SECONDS CUENV_FETCH_BACKOFF_MS \
	CUENV_UNPACK_MAX_RATIO; do
	expect_code 2 env "$var=abc" cuenv install 12.4.1 &&
		stderr_has "cuenv: error: $var must be a whole number from 0 to " &&
		expect_code 2 env "$var=-1" cuenv install 12.4.1 || break
done
for flag in --timeout --max-download --max-expansion; do
	expect_code 2 cuenv install 12.4.1 "$flag" 12x &&
		stderr_has "install: $flag must be a whole number" || break
done
expect_code 2 env CUENV_FETCH_MAX_BYTES=99999999999999999999 cuenv install 12.4.1 &&
	stderr_has "CUENV_FETCH_MAX_BYTES must be a whole number"
