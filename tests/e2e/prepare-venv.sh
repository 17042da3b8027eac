#!/bin/sh
# prepare-venv.sh CACHE TEMPLATE: the venv tests' wheels (venv-wheels.txt,
# pinned by sha256), downloaded into CACHE when they are not
# there yet, then installed into the folder TEMPLATE (pip --target), which
# make_wheel_venv copies into each test's venv. run.sh runs it once,
# before the tests; CI's own stage runs it before the lanes start.
#
# Two runs at once (two `make test`, CI's lanes) share CACHE: the download
# is made under a lock on CACHE/.lock, into a folder of its own, and moved
# in whole, so no run ever installs from a half-filled cache. Offline with
# nothing cached, it says so and makes no TEMPLATE (the tests skip).
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 1
cache=$1 template=$2
# The Python the tests run (lib.sh's PATH), not the caller's.
PATH=/usr/bin:/bin
export PATH
say() { echo "prepare-venv: $*" >&2; }

command -v python3 >/dev/null 2>&1 || { say "no python3: the venv tests skip"; exit 0; }
mkdir -p "$cache" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-prepare-venv.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$here/venv-wheels.txt" "$tmp/wheels.txt"
python3 -m venv "$tmp/venv" >/dev/null 2>&1 || {
	say "python3 cannot make a venv (python3-venv missing): the venv tests skip"
	exit 0
}
pip() { "$tmp/venv/bin/pip" -q --disable-pip-version-check "$@"; }
from_cache() {
	pip install --no-index --no-deps --require-hashes --find-links "$cache" \
		--target "$tmp/t" -r "$tmp/wheels.txt" >"$tmp/pip.log" 2>&1
}
if ! from_cache; then
	exec 9>"$cache/.lock"
	flock 9
	if ! from_cache; then # not fetched while we waited either
		if ! python3 -c 'import urllib.request
urllib.request.urlopen("https://pypi.org/simple/", timeout=5).read(1)' 2>/dev/null; then
			say "the wheels are not in $cache and https://pypi.org/simple/ is not reachable within 5 s (offline): the venv tests skip"
			exit 0
		fi
		say "downloading the venv tests' wheels into $cache"
		pip download --no-deps --require-hashes \
			--index-url https://pypi.org/simple/ -d "$tmp/dl" \
			-r "$tmp/wheels.txt" || exit 1
		mv "$tmp"/dl/*.whl "$cache/" && from_cache || {
			cat "$tmp/pip.log" >&2
			say "cannot install the wheels from $cache"
			exit 1
		}
	fi
	exec 9>&-
fi
rm -rf "$template" && mv "$tmp/t" "$template"
