#!/bin/sh
# The catalogue's sha256 for an archive does not match the archive: exit 5
# naming the file, the expected and the actual hash; nothing installed or
# cached from it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	use_mirror "$FX/bad/wrong-sha/mirror" &&
	CUENV_MANIFESTS=$FX/bad/wrong-sha/manifests &&
	p=$(fxq 'd["bad"]["wrong-sha"]["path"]') &&
	actual=$(fxq 'd["bad"]["wrong-sha"]["archive_sha256"]') &&
	listed=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["cuda_cudart"]["linux-x86_64"]["sha256"])' "$CUENV_MANIFESTS/cuda/redistrib_12.4.1.json") &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "sha256 mismatch for '$SERVER_URL$p': expected $listed, got $actual" &&
	nothing_half_made cuda 12.4.1 &&
	check "the mismatched archive is in the cache" \
		[ -z "$(ls "$CUENV_ROOT/cache" | grep -e "$actual" -e "$listed")" ] &&
	check "the mismatched archive is in the pool" \
		[ -z "$(ls "$CUENV_ROOT/pool" | grep -e "$actual" -e "$listed")" ]
