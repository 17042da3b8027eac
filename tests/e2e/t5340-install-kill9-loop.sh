#!/bin/sh
# kill -9 at random points, 20 rounds: during the download (an archive
# trickling in, killed after a random delay) and right after its last byte
# (the server sends every byte, then holds the connection: the .part is
# complete but not yet renamed into the cache). Each kill is followed by a
# plain install that must succeed, with .staging empty and no .part left;
# the kills after the last byte must not make a request for that archive
# at all (the complete .part is hashed and promoted).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror || exit 1
p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	size=$(comp 12.4.1 libcublas size) || exit 1
part=$CUENV_ROOT/cache/$sha.part
rate=$size # the archive takes a second

# Wait (up to 10 s) until the .part holds at least $1 bytes.
wait_part() {
	_n=0
	while [ "$(stat -c %s "$part" 2>/dev/null || echo 0)" -lt "$1" ] &&
		[ "$_n" -lt 1000 ]; do
		sleep 0.01
		_n=$((_n + 1))
	done
}

r=0
while [ "$r" -lt 20 ]; do
	r=$((r + 1))
	rm -rf "$CUENV_ROOT"
	: >"$SERVER_LOG"
	delay=$(awk -v r="$r" 'BEGIN { srand(r * 7919); printf "%.2f", rand() * 0.5 }')
	if [ $((r % 2)) -eq 1 ]; then
		how="during the download, after ${delay}s"
		serve_faults "{\"$p\": {\"trickle\": $rate}}"
	else
		how="after the last byte, ${delay}s later"
		serve_faults "{\"$p\": {\"hold_end\": 10}}"
	fi
	cuenv install 12.4.1 >"$HOME/kill.out" 2>"$HOME/kill.err" &
	pid=$!
	if [ $((r % 2)) -eq 1 ]; then
		wait_part 1
	else
		wait_part "$size"
	fi
	sleep "$delay"
	kill9 "$pid"
	got=$(stat -c %s "$part" 2>/dev/null || echo none)
	serve_faults '{}'
	: >"$SERVER_LOG"
	expect_code 0 cuenv install 12.4.1 || {
		fail "round $r (kill $how, .part: $got bytes): the next install failed"
		break
	}
	stdout_has "installed cuda 12.4.1 in $v (" &&
		staging_empty &&
		check "round $r: a .part is left" [ ! -e "$part" ] &&
		expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" || break
	if [ "$got" = "$size" ]; then
		check "round $r: a complete .part was asked for again: $(grep -F "$p" "$SERVER_LOG")" \
			sh -c '! grep -qF "$1" "$2"' sh "$p" "$SERVER_LOG" || break
	fi
done
