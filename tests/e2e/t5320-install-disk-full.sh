#!/bin/sh
# Disk full: $CUENV_ROOT on a 1 MiB tmpfs (in a mount namespace of its own,
# so that nothing outlives the test) and an install that needs more: a
# clean failure (exit 7, "No space left on device"; with --no-cache the
# path being written is named), no version visible, .staging empty; and
# once the tmpfs is gone nothing was written to the disk below it.
# Needs root and mount namespaces (unshare -m).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

[ "$(id -u)" -eq 0 ] || skip "disk full needs root to mount a small tmpfs"
need unshare
unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1"' sh "$E2E_SANDBOX/tmp" \
	2>/dev/null || skip "cannot mount a tmpfs in a mount namespace here (unshare -m)"

# In a mount namespace: a 1 MiB tmpfs on $CUENV_ROOT, then the install;
# what it printed, its status and what it left go to $HOME/<name>.*.
cat >"$HOME/full.sh" <<'EOF_FULL'
name=$1
shift
mount -t tmpfs -o size=1m tmpfs "$CUENV_ROOT" || exit 90
cuenv install 12.4.1 "$@" >"$HOME/$name.out" 2>"$HOME/$name.err"
echo $? >"$HOME/$name.rc"
(cd "$CUENV_ROOT" && find . ! -path './pool/?*' | LC_ALL=C sort) >"$HOME/$name.left"
ls -A "$CUENV_ROOT/.staging" >"$HOME/$name.staging"
umount "$CUENV_ROOT"
EOF_FULL
full() {
	run=$1
	shift
	unshare -m sh "$HOME/full.sh" "$run" "$@" &&
		assert_eq "$(cat "$HOME/$run.rc")" 7 "exit status (install $* on a full disk)" &&
		check "install $* on a full disk did not say why: $(cat "$HOME/$run.err")" \
			grep -q "^cuenv: error: .*No space left on device" "$HOME/$run.err" &&
		check "install $* on a full disk left 12.4.1 behind" \
			sh -c '! grep "^./versions/cuda/12.4.1" "$1"' sh "$HOME/$run.left" &&
		file_is "$HOME/$run.staging" ""
}
use_mirror &&
	mkdir "$CUENV_ROOT" &&
	full cached &&
	full no-cache --no-cache &&
	check "--no-cache on a full disk: the error does not name the path" \
		grep -q "^cuenv: error: cannot write '$CUENV_ROOT/.*': No space left on device" \
		"$HOME/no-cache.err"
# Nothing under the mount point on the real disk, and no mount left over.
expect_stdout "" ls -A "$CUENV_ROOT" &&
	check "a mount on the sandbox is left over" \
		sh -c '! grep -F "$1" /proc/self/mounts' sh "$E2E_SANDBOX"
