#!/bin/sh
# The catalogue's size for an archive is wrong while its sha256 is the
# archive's own. Read back from the download cache (no network layer to
# stop it early), the archive is judged by both: exit 5 naming the URL,
# the size expected and the size got; the cached copy is dropped and
# nothing is installed. Served by the mirror instead, a file longer or
# shorter than the catalogue says fails too (exit 4 or 5: the download
# may stop at the catalogue's size or hash what it got), installing
# nothing.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

man=$E2E_SANDBOX/manifests

# set_size N: the catalogue gives libcublas N bytes.
set_size() {
	python3 -c 'import json, sys
f = sys.argv[1]
j = json.load(open(f))
j["libcublas"]["linux-x86_64"]["size"] = sys.argv[2]
json.dump(j, open(f, "w"), indent=2)' "$man/cuda/redistrib_12.4.1.json" "$1"
}

# from_mirror N: a fresh root, the catalogue says N, the mirror serves the
# real file: the install fails with 4 or 5, naming the URL.
from_mirror() {
	rm -rf "$CUENV_ROOT" &&
		set_size "$1" &&
		_capture env CUENV_FETCH_RETRIES=1 cuenv install 12.4.1 &&
		case $E2E_RC in
		4 | 5) ;;
		*)
			_show cuenv install 12.4.1
			fail "catalogue size $1, file $size bytes: expected" \
				"exit 4 or 5, got $E2E_RC"
			;;
		esac &&
		stderr_has "'$SERVER_URL$p'" &&
		nothing_half_made cuda 12.4.1
}

use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	size=$(comp 12.4.1 libcublas size) &&
	file=$(comp 12.4.1 libcublas file) &&
	assert_eq "$(wc -c <"$file" | tr -d ' ')" "$size" "the fixture's size" &&
	cp -R "$FX/manifests" "$man" &&
	CUENV_MANIFESTS=$man &&
	set_size $((size + 1)) &&
	mkdir -p "$CUENV_ROOT/cache" &&
	cp "$file" "$CUENV_ROOT/cache/$sha" &&
	expect_code 5 cuenv install 12.4.1 &&
	stderr_has "size mismatch for '$SERVER_URL$p': expected $((size + 1)) bytes, got $size" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "" cuenv versions &&
	check "the cached copy of the wrong size was kept" \
		[ ! -e "$CUENV_ROOT/cache/$sha" ] &&
	from_mirror $((size - 1)) &&
	from_mirror $((size + 1)) &&
	rm -rf "$CUENV_ROOT" &&
	set_size "$size" &&
	expect_code 0 cuenv install 12.4.1
