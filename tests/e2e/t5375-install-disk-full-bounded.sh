#!/bin/sh
# A disk that fills, $CUENV_ROOT on a 4 MiB tmpfs (in a mount namespace of
# its own): an xz bomb whose sha256 is right, with the expansion bound off,
# stops before the disk is full with a clear "No space left on device"
# (exit 7); the same bomb with the wrong sha256 is reported as the sha256
# mismatch (exit 5); an endless runfile (no size known) fills the disk
# through its .part: exit 7. Each time nothing is left behind: no .part,
# .staging empty, no version, and the tmpfs holds (almost) nothing.
# Needs root and mount namespaces (unshare -m).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

[ "$(id -u)" -eq 0 ] || skip "disk full needs root to mount a small tmpfs"
need unshare
unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1"' sh "$E2E_SANDBOX/tmp" \
	2>/dev/null || skip "cannot mount a tmpfs in a mount namespace here (unshare -m)"

cat >"$HOME/full.sh" <<'EOF_FULL'
name=$1
shift
mount -t tmpfs -o size=4m tmpfs "$CUENV_ROOT" || exit 90
cuenv install "$@" >"$HOME/$name.out" 2>"$HOME/$name.err"
echo $? >"$HOME/$name.rc"
(cd "$CUENV_ROOT" && find . -name '*.part' -o -path './versions/cuda/*' -o -path './.staging/?*') >"$HOME/$name.left"
df -k --output=used "$CUENV_ROOT" | tail -1 | tr -d ' ' >"$HOME/$name.used"
umount "$CUENV_ROOT"
EOF_FULL
# full NAME RC TEXT ARGS...: install ARGS on the full disk: exit RC, TEXT
# on stderr, nothing left.
full() {
	_n=$1 _rc=$2 _text=$3
	shift 3
	unshare -m sh "$HOME/full.sh" "$_n" "$@" &&
		assert_eq "$(cat "$HOME/$_n.rc")" "$_rc" "exit status (install $*): $(cat "$HOME/$_n.err")" &&
		check "install $* did not say '$_text': $(cat "$HOME/$_n.err")" \
			grep -q "$_text" "$HOME/$_n.err" &&
		file_is "$HOME/$_n.left" "" &&
		check "install $* left $(cat "$HOME/$_n.used") KiB on the disk" \
			[ "$(cat "$HOME/$_n.used")" -lt 200 ]
}
# the expansion bound off: the disk is what stops the bombs
CUENV_UNPACK_MAX_RATIO=0
export CUENV_UNPACK_MAX_RATIO
fixtures || exit 1
mkdir -p "$CUENV_ROOT" &&
	xz_bomb "$HOME/bomb.tar.xz" 100 cuda_cudart-linux-x86_64-12.4.127-archive &&
	bsha=$(sha256sum "$HOME/bomb.tar.xz" | cut -d' ' -f1) &&
	with_archive 12.4.1 cuda_cudart "$HOME/bomb.tar.xz" "$bsha" \
		"$(stat -c %s "$HOME/bomb.tar.xz")" &&
	full bomb 7 "^cuenv: error: cannot write '.*': No space left on device" \
		12.4.1 --components cuda_cudart &&
	size=$(comp 12.4.1 libcublas size) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	xz_bomb "$HOME/padded.tar.xz" 100 libcublas-linux-x86_64-12.4.5.8-archive "$size" &&
	with_archive 12.4.1 libcublas "$HOME/padded.tar.xz" &&
	full padded 5 "^cuenv: error: sha256 mismatch for '.*': expected $sha, got " \
		12.4.1 --components libcublas &&
	run=$(fxq "d['runfiles']['11.2.2']['path']") &&
	serve_faults "{\"$run\": {\"endless\": true}}" &&
	full endless 7 "No space left on device" 11.2.2
expect_stdout "" ls -A "$CUENV_ROOT" &&
	check "a mount on the sandbox is left over" \
		sh -c '! grep -F "$1" /proc/self/mounts' sh "$E2E_SANDBOX"
