#!/bin/sh
# An uninstall cut short leaves the version in .staging/trash-X (renamed
# there first, so it vanished from the store at once), still holding hard
# links to the pool. `cuenv gc` removes such a folder, and in the same run
# the pool trees it pinned, and says so; it never touches the trash of an
# uninstall still running (one whose trash-X.lock is held). Both kinds are
# planted as they are left: 12.4.1 with its trash-X.lock (kill -9 of this
# cuenv), 12.4.0 first without one (a cuenv older than the lock), then as
# a live uninstall holding its lock. The next install sweeps them too.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

st=$CUENV_ROOT/.staging
# plant VERSION ID: move versions/cuda/VERSION where an uninstall puts it.
plant() {
	mkdir "$st/trash-$2" &&
		mv "$CUENV_ROOT/versions/cuda/$1" "$st/trash-$2/v"
}
# Wait (up to 10 s) until FILE exists.
wait_for() {
	_n=0
	while [ ! -e "$1" ] && [ "$_n" -lt 200 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	[ -e "$1" ] || fail "$1 did not appear"
}
holder=
use_mirror &&
	expect_code 0 cuenv install 12.4.0 &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout 8 sh -c "ls '$CUENV_ROOT/pool' | wc -l" &&
	plant 12.4.1 k9dead && : >"$st/trash-k9dead.lock" &&
	plant 12.4.0 old001 &&
	expect_stdout "" cuenv versions &&
	# Both go, and then nothing links to the pool: all 8 trees go too.
	expect_stdout "removed 8 unused components (1.7 MB)
removed 2 folders left by interrupted installs or uninstalls (0.0 MB)" cuenv gc &&
	expect_stdout "" ls -A "$st" &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool" &&
	# The cache stays: a new install needs no download.
	expect_code 0 cuenv install 12.4.0 &&
	stdout_has "installed cuda 12.4.0" &&
	plant 12.4.0 live01 && : >"$st/trash-live01.lock" &&
	{
		python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' "$st/trash-live01.lock" "$HOME/locked" &
		holder=$!
	} &&
	wait_for "$HOME/locked" &&
	# A live uninstall's trash stays, and so do the trees it links to.
	expect_stdout "removed 0 unused components (0.0 MB)" cuenv gc &&
	check "gc removed a live uninstall's trash" \
		[ -f "$st/trash-live01/v/lib/libcudart.so.12.4.99" ] &&
	expect_stdout 6 sh -c "ls '$CUENV_ROOT/pool' | wc -l"
[ -n "$holder" ] || exit 1
kill "$holder"
wait "$holder"
expect_stdout "removed 6 unused components (1.7 MB)
removed 1 folder left by interrupted installs or uninstalls (0.0 MB)" cuenv gc &&
	expect_stdout "" ls -A "$st" &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool"
# The next install sweeps such a folder too (gc then frees the trees).
expect_code 0 cuenv install 12.4.0 &&
	plant 12.4.0 inst01 && : >"$st/trash-inst01.lock" &&
	expect_code 0 cuenv install 12.4.1 &&
	expect_stdout "" ls -A "$st" &&
	expect_stdout "removed 2 unused components (0.0 MB)" cuenv gc
