#!/usr/bin/env bash
# tests/containers/quickstart.sh: the README's quick start, as written, in
# a clean Debian 12 image (tests/containers' debootstrapped minbase,
# cached; buildah, as root): a copy of this tree's files, then
#   sh .ci/deps && make demo
#   make test           (QUICKSTART_TEST=0 leaves it out)
# with only what .ci/deps installs. Run by `make test-quickstart`; prints
# the time and the disk space each step took.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/containers
start=$SECONDS
say() { printf '\n== %s [%ds]\n' "$*" $((SECONDS - start)); }
die() {
	echo "test-quickstart: error: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "needs root (buildah with vfs storage, chroot isolation)"
base=localhost/cuenv-ci/debian:12-minbase-$(date -u +%Y-%m)
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-quickstart.XXXXXX")
ctr=
bah() {
	buildah --storage-driver vfs --root "$cache/storage" \
		--runroot "$work/runroot" "$@"
}
cleanup() {
	[ -z "$ctr" ] || bah rm "$ctr" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
export BUILDAH_ISOLATION=chroot
bah inspect --type image "$base" >/dev/null 2>&1 ||
	die "no image $base: make test-containers or make test-deb makes it"

ctr=$(bah from --pull-never "$base")
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z -co --exclude-standard |
	tar --null -T - -cf -) | tar -C "$work/tree" -xf -
bah copy "$ctr" "$work/tree" /src >/dev/null
# The image's own files (df would see the host's file system).
used() { bah run "$ctr" -- du -sxm / | cut -f1; }
u0=$(used)

say "sh .ci/deps && make demo"
bah run --workingdir /src "$ctr" -- sh -c 'sh .ci/deps >/tmp/deps.log 2>&1 ||
	{ tail -n 30 /tmp/deps.log; exit 1; }; make demo'
u1=$(used)
echo "sh .ci/deps installed $((u1 - u0)) MB"

if [ "${QUICKSTART_TEST-1}" != 0 ]; then
	say "make test"
	bah run --workingdir /src "$ctr" -- make test
fi
say "done"
