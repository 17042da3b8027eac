#!/bin/sh
# Wrong bytes from the server (three flipped bytes in an archive): an
# integrity error (exit 5) naming the file, the expected and the actual
# sha256; nothing installed, and nothing of those bytes kept in the cache
# (neither the file nor a .part to resume from). Served right, it installs.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	# What the server sends: the bytes at size/3, size/2, 2 size/3 ^ 0x55.
	bad=$(python3 -c 'import hashlib, sys
b = bytearray(open(sys.argv[1], "rb").read())
for o in sorted({len(b) // 3, len(b) // 2, 2 * len(b) // 3}):
    b[o] ^= 0x55
print(hashlib.sha256(b).hexdigest())' "$FX/mirror$p") &&
	serve_faults "{\"$p\": {\"corrupt\": true}}" &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "sha256 mismatch for '$SERVER_URL$p': expected $sha, got $bad" &&
	nothing_half_made cuda 12.4.1 &&
	check "the corrupt bytes are in the cache" \
		[ ! -e "$CUENV_ROOT/cache/$sha" ] &&
	check "the corrupt bytes are kept to resume from" \
		[ ! -e "$CUENV_ROOT/cache/$sha.part" ] &&
	check "a pool tree was made from the corrupt bytes" \
		[ ! -e "$CUENV_ROOT/pool/$sha" ] &&
	serve_faults '{}' &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	staging_empty
