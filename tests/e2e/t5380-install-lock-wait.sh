#!/bin/sh
# While an install holds the store's lock (an archive trickling in), `cuenv
# global` and `cuenv gc` wait for it, and each says once on stderr what it
# waits for: the install's version and pid. Both then complete, after the
# install did.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	size=$(comp 12.4.1 libcublas size) &&
	serve_faults "{\"$p\": {\"trickle\": $((size / 2))}}" || exit 1
cuenv install 12.4.1 >"$HOME/i.out" 2>"$HOME/i.err" &
pid=$!
n=0
while [ -z "$(ls "$CUENV_ROOT/.staging" 2>/dev/null)" ] && [ "$n" -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
cuenv global 12.4.1 --force >"$HOME/g.out" 2>"$HOME/g.err" &
g=$!
cuenv gc >"$HOME/c.out" 2>"$HOME/c.err" &
c=$!
wait "$pid"
ri=$?
wait "$g"
rg=$?
wait "$c"
rc=$?
line="cuenv: waiting for the store's lock, held by cuenv install cuda 12.4.1 (pid $pid)"
assert_eq "$ri" 0 "the install's status: $(cat "$HOME/i.err")" &&
	assert_eq "$rg" 0 "global's status: $(cat "$HOME/g.err")" &&
	assert_eq "$rc" 0 "gc's status: $(cat "$HOME/c.err")" &&
	expect_stdout "$line" grep -F waiting "$HOME/g.err" &&
	expect_stdout "$line" grep -F waiting "$HOME/c.err" &&
	expect_stdout "cuenv: wrote $CUENV_ROOT/version" grep -v -F waiting "$HOME/g.err" &&
	file_is "$HOME/c.err" "$line" &&
	expect_stdout "cuda = 12.4.1" grep -F cuda "$CUENV_ROOT/version" &&
	check "the install did not finish first" \
		grep -q "^installed cuda 12.4.1 in " "$HOME/i.out"
