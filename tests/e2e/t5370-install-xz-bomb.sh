#!/bin/sh
# xz bombs (100 MiB of zeros in ~15 KiB). One padded to the catalogue's
# size of libcublas, with the wrong sha256: reported as the sha256
# mismatch (expected and actual), whatever extraction said first, with
# nothing left in .staging, the cache or the pool. One whose sha256 the
# catalogue names: refused by the expansion bound (exit 6), the message
# naming the bound and the hint how to raise it; allowed with
# --max-expansion 0 (or CUENV_UNPACK_MAX_RATIO=0).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures || exit 1
size=$(comp 12.4.1 libcublas size) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	xz_bomb "$HOME/padded.tar.xz" 100 libcublas-linux-x86_64-12.4.5.8-archive "$size" &&
	bad=$(sha256sum "$HOME/padded.tar.xz" | cut -d' ' -f1) &&
	with_archive 12.4.1 libcublas "$HOME/padded.tar.xz" &&
	p=$(comp 12.4.1 libcublas path) &&
	expect_code 5 cuenv install 12.4.1 --components cuda_cudart,libcublas &&
	stderr_has "cuenv: error: sha256 mismatch for '$SERVER_URL$p': expected $sha, got $bad" &&
	nothing_half_made cuda 12.4.1 &&
	check "the bomb is in the cache: $(ls "$CUENV_ROOT/cache")" \
		sh -c '! ls "$1" | grep -q "^$2"' sh "$CUENV_ROOT/cache" "$sha" &&
	check "the bomb is in the pool" [ ! -e "$CUENV_ROOT/pool/$sha" ] || exit 1

# the catalogue names the bomb's sha256: the bound refuses it
rm -rf "$CUENV_ROOT" &&
	xz_bomb "$HOME/bomb.tar.xz" 100 cuda_cudart-linux-x86_64-12.4.127-archive &&
	bsha=$(sha256sum "$HOME/bomb.tar.xz" | cut -d' ' -f1) &&
	bsize=$(stat -c %s "$HOME/bomb.tar.xz") &&
	with_archive 12.4.1 cuda_cudart "$HOME/bomb.tar.xz" "$bsha" "$bsize" &&
	expect_code 6 cuenv install 12.4.1 --components cuda_cudart &&
	stderr_has "cuenv: error: refused archive: it expands past $((bsize * 50)) bytes, its bound (at entry '" &&
	stderr_has "hint: to allow more: --max-expansion RATIO (now 50), or CUENV_UNPACK_MAX_RATIO" &&
	nothing_half_made cuda 12.4.1 &&
	check "a .part is left" sh -c '! ls "$1" | grep -q "\.part$"' sh "$CUENV_ROOT/cache" &&
	expect_code 6 env CUENV_UNPACK_MAX_RATIO=20 cuenv install 12.4.1 --components cuda_cudart &&
	stderr_has "it expands past $((bsize * 20)) bytes" &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart --max-expansion 0 &&
	expect_stdout 104857600 stat -c %s "$CUENV_ROOT/versions/cuda/12.4.1/lib/bomb"
