#!/bin/sh
# kill -9 in the middle of an install (an archive trickling in): the version
# is absent, not half made; the next install (served at full speed) cleans
# the dead install's staging folder, resumes the archive from what the
# dead one cached (a Range request), and succeeds with .staging/ empty.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
# Wait (up to 10 s) until FILE exists and is not empty.
wait_for() {
	_n=0
	while [ ! -s "$1" ] && [ "$_n" -lt 200 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	[ -s "$1" ] || fail "$1 did not appear"
}
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	serve_faults "{\"$p\": {\"trickle\": 200000}}" &&
	{ cuenv install 12.4.1 >"$HOME/out" 2>"$HOME/err" & pid=$!; } &&
	wait_for "$CUENV_ROOT/cache/$sha.part" &&
	sleep 0.3
kill9 "$pid"
assert_eq "$?" 137 "the install's status after kill -9" &&
	check "the version is there after kill -9" [ ! -e "$v" ] &&
	check "the killed install left no staging folder to clean" \
		[ -n "$(ls -A "$CUENV_ROOT/.staging")" ] &&
	kept=$(stat -c %s "$CUENV_ROOT/cache/$sha.part") &&
	serve_faults '{}' && : >"$SERVER_LOG" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	staging_empty &&
	expect_stdout "GET $p bytes=$kept- 206" grep -F "$p" "$SERVER_LOG" &&
	expect_stdout "$sha" sh -c "sha256sum '$CUENV_ROOT/cache/$sha' | cut -d' ' -f1" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcublasLt 12.4.5.8 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcublasLt.so.12)" &&
	expect_stdout "removed 0 unused components (0.0 MB)" cuenv gc
