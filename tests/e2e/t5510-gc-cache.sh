#!/bin/sh
# cuenv gc and the download cache: a plain gc keeps the cached archives
# (a version installs again offline) but removes partial downloads
# untouched for a day (as a download that died on a full disk leaves
# them); gc --cache empties the cache and says how much it freed, except
# an archive a running install holds (its .locks/<sha>.lock); an install
# afterwards downloads again.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

c=$CUENV_ROOT/cache
# MB of the cache files named on the command line, as gc prints them.
mb() {
	python3 -c 'import os, sys
print("%.1f" % (sum(os.stat(f).st_size for f in sys.argv[1:]) / 1e6))' "$@"
}
wait_for() {
	_n=0
	while [ ! -e "$1" ] && [ "$_n" -lt 200 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	[ -e "$1" ] || fail "$1 did not appear"
}
stale=$c/$(printf '%064d' 1).part
fresh=$c/$(printf '%064d' 2).part
holder=
use_mirror &&
	sums=$(fxq '"\n".join(sorted(c["sha256"] for c in d["cuda"]["12.4.1"]["components"].values()))') &&
	held=$(comp 12.4.1 libcublas sha256) &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "$sums" ls "$c" &&
	# 3 MB a dead download left two days ago, and one in progress.
	# (Their downloads' records, .locks/<sha>.lock, as installs leave.)
	: >"$CUENV_ROOT/.locks/$(printf '%064d' 1).lock" &&
	: >"$CUENV_ROOT/.locks/$(printf '%064d' 2).lock" &&
	dd if=/dev/zero of="$stale" bs=1000 count=3000 2>/dev/null &&
	touch -d '2 days ago' "$stale" &&
	echo partial >"$fresh" &&
	: >"$c/notes.txt" &&
	expect_stdout "removed 0 unused components (0.0 MB)
removed 1 partial download (3.0 MB)" cuenv gc &&
	check "gc removed a partial download from today" [ -f "$fresh" ] &&
	check "gc removed a file that is not its own" [ -f "$c/notes.txt" ] &&
	expect_stdout "$(basename "$fresh")
$sums
notes.txt" ls "$c" &&
	freed=$(cd "$c" && mb $(echo "$sums" | grep -v "$held")) &&
	{
		python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' "$CUENV_ROOT/.locks/$held.lock" "$HOME/locked" &
		holder=$!
	} &&
	wait_for "$HOME/locked" &&
	# The archive a running install holds stays; the rest goes.
	expect_stdout "removed 0 unused components (0.0 MB)
removed 5 cached archives ($freed MB)
removed 1 partial download (0.0 MB)
kept 1 cached file a running install is using" cuenv gc --cache &&
	expect_stdout "$held
notes.txt" ls "$c" &&
	# The installed version is untouched.
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcublasLt 12.4.5.8 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcublasLt.so.12)"
[ -n "$holder" ] || exit 1
kill "$holder"
wait "$holder"
expect_stdout "removed 0 unused components (0.0 MB)
removed 1 cached archive ($(cd "$c" && mb "$held") MB)" cuenv gc --cache &&
	expect_stdout "notes.txt" ls "$c" &&
	expect_stdout "uninstalled cuda 12.4.1" cuenv uninstall --force 12.4.1 &&
	expect_code 0 cuenv gc &&
	: >"$SERVER_LOG" &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout 6 sh -c "grep -c ' 200\$' '$SERVER_LOG'" &&
	expect_code 2 cuenv gc --bogus
