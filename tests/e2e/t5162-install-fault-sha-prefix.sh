#!/bin/sh
# The catalogue's sha256 for an archive differs from the archive's only in
# its last hex digit (the first 63 agree): the whole hash is compared, so
# the install fails with exit 5 naming the URL, the expected and the
# actual hash, and nothing is installed, cached or pooled from it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

man=$E2E_SANDBOX/manifests
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	actual=$(comp 12.4.1 libcublas sha256) &&
	case $actual in
	*0) listed=${actual%?}1 ;;
	*) listed=${actual%?}0 ;;
	esac &&
	check "the listed hash shares 63 hex digits with the real one" \
		[ "${listed%?}" = "${actual%?}" ] &&
	check "the listed hash differs from the real one" \
		[ "$listed" != "$actual" ] &&
	cp -R "$FX/manifests" "$man" &&
	python3 -c 'import json, sys
f = sys.argv[1]
j = json.load(open(f))
j["libcublas"]["linux-x86_64"]["sha256"] = sys.argv[2]
json.dump(j, open(f, "w"), indent=2)' "$man/cuda/redistrib_12.4.1.json" "$listed" &&
	CUENV_MANIFESTS=$man &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "sha256 mismatch for '$SERVER_URL$p': expected $listed, got $actual" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "" cuenv versions &&
	check "the mismatched archive is in the cache" \
		[ -z "$(ls -A "$CUENV_ROOT/cache" | grep -e "$actual" -e "$listed")" ] &&
	check "the mismatched archive is in the pool" \
		[ -z "$(ls -A "$CUENV_ROOT/pool" | grep -e "$actual" -e "$listed")" ]
