#!/usr/bin/env bash
# tests/deb/run.sh: build the Debian package from this work tree, check it
# with lintian, and install it in a clean Debian 12 image. Run by `make
# test-deb` (and .ci/run), as root.
#
#   1. dpkg-buildpackage -us -uc -b in a copy of the tree's files (tracked
#      and new, not ignored: no build/), so that nothing lands beside the
#      clone; DEB_BUILD_OPTIONS=nocheck unless CUENV_DEB_CHECK=1 (CI has
#      run make unit already).
#   2. lintian on the .changes: any error or warning fails.
#   3. the image: tests/containers' debootstrapped Debian 12 minbase (the
#      same cached tarball and image, made here if missing), a working
#      container of it where:
#        - apt-get installs ./cuenv_*.deb, its libraries coming from
#          Debian (CUENV_DEBIAN_MIRROR; chroot isolation shares the host's
#          network), and cuenv --version says VERSION;
#        - cuenv install 12.4 --runtime-only from the test fixtures' mirror
#          (tests/fixtures/server.py on 127.0.0.1, with its catalogue);
#        - the bash hook, from `cuenv init bash` in ~/.bashrc, in an
#          interactive bash: a cd into a project with .cuenv = 12.4 sets
#          CUDA_HOME, and the man page and completions are where Debian
#          looks;
#        - apt-get purge cuenv, then autoremove --purge: every path on
#          the image is as before the install (apt's and dpkg's own state
#          and logs aside), and none names cuenv.
#
# The cache (CUENV_CI_CACHE, default /var/cache/cuenv-ci) is shared with
# tests/containers/build.sh. Environment: CUENV_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/containers
debmirror=${CUENV_DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$SECONDS

say() { printf '\n== %s [%ds]\n' "$*" $((SECONDS - start)); }
die() {
	echo "test-deb: error: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (buildah with vfs storage, chroot isolation)"
for t in dpkg-buildpackage dh lintian buildah debootstrap python3; do
	command -v "$t" >/dev/null ||
		die "$t is not installed (sh .ci/deps-ci, or make deps-ci)"
done
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$src is not a git clone: its files make the package's source"
version=$(cat "$src/VERSION")

mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-deb.XXXXXX")
server_pid=
ctr=
cleanup() {
	[ -z "$ctr" ] || bah rm "$ctr" >/dev/null 2>&1 || true
	[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
bah() {
	buildah --storage-driver vfs --root "$cache/storage" \
		--runroot "$work/runroot" "$@"
}
export BUILDAH_ISOLATION=chroot

# ---- 1. the package ---------------------------------------------------------
say "dpkg-buildpackage -us -uc -b"
t0=$SECONDS
tree=$work/build/cuenv-$version
mkdir -p "$tree"
(cd "$src" && git ls-files -z -co --exclude-standard |
	tar --null -T - -cf -) | tar -C "$tree" -xf -
opts="parallel=$(nproc 2>/dev/null || echo 2)"
[ "${CUENV_DEB_CHECK-}" = 1 ] || opts="$opts nocheck"
(cd "$tree" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -us -uc -b) \
	>"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	die "dpkg-buildpackage failed"
}
arch=$(dpkg --print-architecture)
deb=$work/build/cuenv_${version}_$arch.deb
[ -s "$deb" ] || die "no $deb"
echo "built ${deb##*/} in $((SECONDS - t0)) s:"
dpkg-deb -f "$deb" Package Version Architecture Depends | sed 's/^/  /'

# ---- 2. lintian -------------------------------------------------------------
say "lintian"
lintian --version
# Root is what CI has; lintian's notice about it is not a finding.
lint_rc=0
lintian --fail-on error,warning --info \
	"$work/build/cuenv_${version}_$arch.changes" >"$work/lintian.out" 2>&1 ||
	lint_rc=$?
grep -v '^running with root privileges is not recommended!$' \
	"$work/lintian.out" || true
[ "$lint_rc" -eq 0 ] || die "lintian found errors or warnings"
echo "lintian: no errors, no warnings"

# ---- 3. the image -----------------------------------------------------------
month=$(date -u +%Y-%m)
base=localhost/cuenv-ci/debian:12-minbase-$month
tarball=$cache/debian12-minbase-$month.tar
if ! bah inspect --type image "$base" >/dev/null 2>&1; then
	if [ ! -s "$tarball" ]; then
		say "debootstrap --variant=minbase bookworm ($debmirror)"
		debootstrap --variant=minbase bookworm "$work/rootfs" \
			"$debmirror" >"$work/debootstrap.log" 2>&1 || {
			tail -n 30 "$work/debootstrap.log" >&2
			die "debootstrap failed"
		}
		rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb \
			"$work"/rootfs/var/lib/apt/lists/*
		tar --numeric-owner -C "$work/rootfs" -cf "$tarball.tmp" .
		mv "$tarball.tmp" "$tarball"
		rm -rf "$work/rootfs"
	fi
	say "base image $base from $tarball"
	mkdir -p "$work/base"
	ln "$tarball" "$work/base/rootfs.tar" 2>/dev/null ||
		cp "$tarball" "$work/base/rootfs.tar"
	printf 'FROM scratch\nADD rootfs.tar /\nCMD ["bash"]\n' \
		>"$work/base/Containerfile"
	bah bud --quiet -f "$work/base/Containerfile" -t "$base" "$work/base"
	rm -rf "$work/base"
fi

say "fixtures and the local mirror"
fx=$cache/fixtures
python3 "$src/tests/fixtures/mkrelease.py" "$fx" --quiet
python3 "$src/tests/fixtures/server.py" --root "$fx/mirror" \
	--port-file "$work/port" --log "$work/server.log" \
	--watch-pid $$ >"$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
	[ -s "$work/port" ] && break
	sleep 0.1
done
[ -s "$work/port" ] || die "the fixture server did not start"
mirror=http://127.0.0.1:$(cat "$work/port")

ctr=$(bah from --pull-never "$base")
inside() { bah run "$ctr" -- "$@"; }
fail=0
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAILED: $what" >&2
		fail=1
	fi
}
# Every path of the image but the kernel's, the scratch folders and apt's
# and dpkg's own records (lists, caches, logs, the package database).
listing() {
	inside find / -xdev \( -path /proc -o -path /sys -o -path /dev \
		-o -path /tmp -o -path /run -o -path /var/lib/apt \
		-o -path /var/cache -o -path /var/log -o -path /var/lib/dpkg \
		\) -prune -o -print | LC_ALL=C sort
}

say "apt-get install ./${deb##*/} in a clean Debian 12"
t0=$SECONDS
bah copy "$ctr" "$deb" /tmp/ >/dev/null
bah copy "$ctr" "$fx/manifests" /tmp/fx-manifests >/dev/null
listing >"$work/before"
inside sh -c 'export DEBIAN_FRONTEND=noninteractive &&
	apt-get -q -o Acquire::Retries=3 update >/dev/null &&
	apt-get -q install -y --no-install-recommends /tmp/'"${deb##*/}" \
	>"$work/apt.log" 2>&1 || {
	tail -n 30 "$work/apt.log" >&2
	die "apt-get install failed"
}
echo "installed in $((SECONDS - t0)) s"

echo "\$ cuenv --version"
out=$(inside cuenv --version)
echo "$out"
check "cuenv --version says $version" \
	eval '[ "${out%% (*}" = "cuenv $version" ]'
check "the man page is installed" \
	inside test -f /usr/share/man/man1/cuenv.1.gz
check "bash, zsh and fish completions where Debian's shells look" \
	inside test -f /usr/share/bash-completion/completions/cuenv \
	-a -f /usr/share/zsh/vendor-completions/_cuenv \
	-a -f /usr/share/fish/vendor_completions.d/cuenv.fish
check "the catalogue in /usr/share/cuenv" \
	inside test -d /usr/share/cuenv/manifests/cuda

echo "\$ cuenv install 12.4 --runtime-only --mirror $mirror"
inside env CUENV_ROOT=/tmp/root CUENV_MANIFESTS=/tmp/fx-manifests \
	cuenv install 12.4 --runtime-only --mirror "$mirror" 2>&1 | tail -n 3
check "cuda 12.4.1 installed from the local mirror" \
	inside test -f /tmp/root/versions/cuda/12.4.1/.cuenv-receipt
check "the downloads came from the local mirror" \
	grep -q 'GET /compute/cuda/redist/' "$work/server.log"

echo "\$ bash -i, with eval \"\$(cuenv init bash)\" in ~/.bashrc; cd /tmp/proj"
inside sh -c 'mkdir -p /tmp/proj && echo "cuda = 12.4" >/tmp/proj/.cuenv &&
	echo "eval \"\$(cuenv init bash)\"" >>/root/.bashrc'
out=$(printf 'cd /tmp/proj\necho "CUDA_HOME=$CUDA_HOME"\nexit\n' |
	bah run --env CUENV_ROOT=/tmp/root --env CUENV_MANIFESTS=/tmp/fx-manifests \
		--env HISTFILE=/tmp/proj/.bash_history \
		"$ctr" -- bash -i 2>"$work/hook.err" | grep '^CUDA_HOME=' || true)
echo "$out"
check "the hook activated 12.4.1 at the prompt after cd" \
	[ "$out" = "CUDA_HOME=/tmp/root/versions/cuda/12.4.1" ]
check "the hook printed no error" \
	eval '! grep "cuenv: error" "$work/hook.err"'

say "apt-get purge cuenv, autoremove --purge"
inside sh -c 'rm -rf /tmp/root /tmp/proj /tmp/fx-manifests /tmp/*.deb &&
	sed -i "/cuenv init bash/d" /root/.bashrc &&
	[ -s /root/.bashrc ] || rm -f /root/.bashrc'
inside sh -c 'export DEBIAN_FRONTEND=noninteractive &&
	apt-get -q purge -y cuenv && apt-get -q autoremove --purge -y' \
	>>"$work/apt.log" 2>&1 || {
	tail -n 30 "$work/apt.log" >&2
	die "apt-get purge failed"
}
listing >"$work/after"
check "the image is as before the install" \
	diff -u "$work/before" "$work/after"
check "no path names cuenv" \
	eval '! grep -i cuenv "$work/after"'
check "dpkg knows no cuenv" \
	eval '! inside dpkg -s cuenv >/dev/null 2>&1'

say "done"
[ "$fail" -eq 0 ] || die "some checks failed"
