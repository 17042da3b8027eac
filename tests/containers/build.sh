#!/usr/bin/env bash
# tests/containers/build.sh: build examples/Dockerfile with a real engine
# (buildah, vfs storage, chroot isolation; as root), run the image, and
# check what is in it. Run by `make test-containers` (and .ci/run).
#
#   1. base image: a `debootstrap --variant=minbase` of Debian 12, imported
#      with FROM scratch + ADD rootfs.tar / (docker hub is not reachable
#      from CI). Cached, keyed by month: a new month takes a fresh one.
#   2. builder image: the base plus the build stage's own `apt-get install`
#      line (read from the Dockerfile), cached, keyed by month and that
#      line, so that the Dockerfile's apt step finds everything installed.
#   3. the Dockerfile itself, as a user builds it: the context is a project
#      with .cuenv, .cuenv.lock and cuenv's sources in ./cuenv (this work
#      tree's files, with the test fixtures' catalogue), BASE and
#      RUNTIME_BASE set to the local images, CUENV_MIRROR to the test
#      fixtures' server on 127.0.0.1 (chroot isolation shares the host's
#      network).
#   4. the runtime image: `cuenv exec --check --` (no GPU and no driver
#      here: the check must fail with its report, and not run the command),
#      `cuenv exec` and `cuenv env --format json` inside; its size, and
#      that it holds shared libraries only (no headers, no nvcc, no
#      compiler).
#
# The cache (CUENV_CI_CACHE, default /var/cache/cuenv-ci) holds the rootfs
# tarball, buildah's storage and the fixtures; delete it to start afresh.
# Environment: CUENV_DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/containers
debmirror=${CUENV_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cuenv=${CUENV_BIN:-$src/build/std/cuenv}
start=$SECONDS

say() { printf '\n== %s [%ds]\n' "$*" $((SECONDS - start)); }
die() {
	echo "test-containers: error: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (buildah with vfs storage, chroot isolation)"
for t in buildah debootstrap python3; do
	command -v "$t" >/dev/null || die "$t is not installed (sh .ci/deps)"
done
[ -x "$cuenv" ] || die "no $cuenv: run make first"
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$src is not a git clone: its files make the build context"

mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-containers.XXXXXX")
server_pid=
ctr=
cleanup() {
	[ -z "$ctr" ] || bah rm "$ctr" >/dev/null 2>&1 || true
	[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# buildah with its storage in the cache, the lock files in this run.
bah() {
	buildah --storage-driver vfs --root "$cache/storage" \
		--runroot "$work/runroot" "$@"
}
export BUILDAH_ISOLATION=chroot
has_image() { bah inspect --type image "$1" >/dev/null 2>&1; }

month=$(date -u +%Y-%m)
df=$src/examples/Dockerfile

# ---- 1. the base image -------------------------------------------------------
base=localhost/cuenv-ci/debian:12-minbase-$month
tarball=$cache/debian12-minbase-$month.tar
if ! has_image "$base"; then
	if [ ! -s "$tarball" ]; then
		say "debootstrap --variant=minbase bookworm ($debmirror)"
		debootstrap --variant=minbase bookworm "$work/rootfs" \
			"$debmirror" >"$work/debootstrap.log" 2>&1 || {
			tail -n 30 "$work/debootstrap.log" >&2
			die "debootstrap failed"
		}
		# What an image does not keep: downloaded packages and lists.
		rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb \
			"$work"/rootfs/var/lib/apt/lists/*
		tar --numeric-owner -C "$work/rootfs" -cf "$tarball.tmp" .
		mv "$tarball.tmp" "$tarball"
		rm -rf "$work/rootfs"
		# Older months' tarballs go.
		find "$cache" -maxdepth 1 -name 'debian12-minbase-*.tar' \
			! -name "${tarball##*/}" -delete
	fi
	say "base image $base from $tarball"
	mkdir -p "$work/base"
	ln "$tarball" "$work/base/rootfs.tar" 2>/dev/null ||
		cp "$tarball" "$work/base/rootfs.tar"
	printf 'FROM scratch\nADD rootfs.tar /\nCMD ["bash"]\n' \
		>"$work/base/Containerfile"
	bah bud --quiet -f "$work/base/Containerfile" -t "$base" "$work/base"
	rm -rf "$work/base"
	# the image holds it now: a month's next runs find the image
	rm -f "$tarball"
fi

# ---- 2. the builder image: base + the build stage's apt line ----------------
# The first RUN of stage 1, with its continuation lines.
aptline=$(awk '/^FROM .* AS build/ { s = 1; next }
	s && /^RUN / { r = 1 }
	r { more = sub(/\\$/, ""); sub(/^RUN[ \t]+/, ""); printf "%s ", $0 }
	r && !more { exit }' "$df")
case $aptline in
*apt-get*) ;;
*) die "no apt-get RUN line found in the build stage of $df" ;;
esac
key=$(printf '%s\n%s\n' "$base" "$aptline" | sha256sum | cut -c1-12)
builder=localhost/cuenv-ci/builder:$month-$key
if ! has_image "$builder"; then
	say "builder image $builder: $aptline"
	c=$(bah from --pull-never "$base")
	bah run "$c" -- sh -c "$aptline"
	bah commit --quiet "$c" "$builder" >/dev/null
	bah rm "$c" >/dev/null
fi
# Images of other months or apt lines go, with what they alone used.
for old in $(bah images --format '{{.Name}}:{{.Tag}}'); do
	case $old in
	"$base" | "$builder" | localhost/cuenv-ci/app:latest) ;;
	localhost/cuenv-ci/*) bah rmi "$old" >/dev/null || true ;;
	esac
done

# The previous run's app image, untagged by this one, and the like.
bah rmi --prune >/dev/null 2>&1 || true

# ---- 3. the project and the local mirror ------------------------------------
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

ctx=$work/project
mkdir -p "$ctx/cuenv"
# cuenv's sources as a clone has them (tracked and new files, not ignored
# ones such as build/), with the fixtures' catalogue: the mirror serves
# the fixtures' archives.
(cd "$src" && git ls-files -z -co --exclude-standard |
	tar --null -T - -cf -) | tar -C "$ctx/cuenv" -xf -
rm -rf "$ctx/cuenv/manifests"
cp -R "$fx/manifests" "$ctx/cuenv/manifests"
printf 'cuda = 12.4\n' >"$ctx/.cuenv"
(cd "$ctx" && CUENV_ROOT=$work/root CUENV_MANIFESTS=$fx/manifests \
	"$cuenv" lock >/dev/null)
[ -s "$ctx/.cuenv.lock" ] || die "cuenv lock wrote no .cuenv.lock"

# ---- 4. the Dockerfile ------------------------------------------------------
say "buildah bud -f examples/Dockerfile (BASE=$builder)"
app=localhost/cuenv-ci/app:latest
bah bud --pull-never -f "$df" \
	--build-arg BASE="$builder" --build-arg RUNTIME_BASE="$base" \
	--build-arg CUENV_MIRROR="$mirror" -t "$app" "$ctx" \
	2>&1 | tee "$work/bud.log"
grep -q 'GET /compute/cuda/redist/' "$work/server.log" ||
	die "the build downloaded nothing from the local mirror"

# ---- 5. the runtime image ---------------------------------------------------
say "the runtime image"
ctr=$(bah from --pull-never "$app")
mnt=$(bah mount "$ctr")
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
none() { [ -z "$("$@")" ]; }
check "cuda 12.4.1 in /opt/cuenv" \
	test -f "$mnt/opt/cuenv/versions/cuda/12.4.1/.cuenv-receipt"
check "libcudart.so.12 in the image" \
	test -n "$(find "$mnt/opt/cuenv" -name 'libcudart.so.12*' | head -n 1)"
check "no headers under /opt/cuenv" \
	none find -L "$mnt/opt/cuenv" -name '*.h'
check "no nvcc under /opt/cuenv" none find -L "$mnt/opt/cuenv" -name 'nvcc*'
check "no static libraries under /opt/cuenv" \
	none find -L "$mnt/opt/cuenv" -name '*.a'
check "no lock files or download cache under /opt/cuenv" \
	none find "$mnt/opt/cuenv" \( -name '*.lock' -o -name .locks -o -name cache \)
check "no compiler in the image" test ! -e "$mnt/usr/bin/cc"
check "no cuenv sources in the image" test ! -e "$mnt/src"
check "cuenv and cuenv-probe in the image" \
	test -x "$mnt/usr/local/bin/cuenv" -a \
	-x "$mnt/usr/local/libexec/cuenv/cuenv-probe"
opt_size=$(du -sh "$mnt/opt/cuenv" | cut -f1)
echo "files under /opt/cuenv (runtime only):"
(cd "$mnt/opt/cuenv" && find . -path ./cache -prune -o \( -type f -o -type l \) -print |
	sort | sed 's/^/  /' | head -n 40)
bah umount "$ctr" >/dev/null

echo
echo "\$ cuenv exec --check -- sh -c 'echo CUDA \$CUENV_ACTIVE ready'   (in /app)"
set +e
bah run --workingdir /app "$ctr" -- cuenv exec --check -- \
	sh -c 'echo CUDA $CUENV_ACTIVE ready' >"$work/check.out" 2>"$work/check.err"
check_rc=$?
set -e
cat "$work/check.out" "$work/check.err"
echo "(exit $check_rc)"
# No GPU and no driver here: the check fails with its report and exit code,
# and the command does not run. On a GPU host it passes and runs it.
if [ "$check_rc" -eq 0 ]; then
	check "exec --check passed and ran the command" \
		grep -q 'CUDA 12.4.1 ready' "$work/check.out"
else
	check "exec --check failed (exit $check_rc) and did not run the command" \
		none grep 'ready' "$work/check.out"
	check "exec --check reported why" test -s "$work/check.err"
	check "exec --check's status names the layer that failed (10-14)" \
		test "$check_rc" -ge 10 -a "$check_rc" -le 14
fi
check "exec --check found the compatibility tables" \
	none grep 'no compatibility tables' "$work/check.err"

echo
echo "\$ cuenv exec -- sh -c 'echo CUDA \$CUENV_ACTIVE at \$CUDA_HOME'"
out=$(bah run --workingdir /app "$ctr" -- cuenv exec -- \
	sh -c 'echo CUDA $CUENV_ACTIVE at $CUDA_HOME')
echo "$out"
check "exec activates the selection" \
	test "$out" = "CUDA 12.4.1 at /opt/cuenv/versions/cuda/12.4.1"

echo
echo "\$ cuenv env --format json"
bah run --workingdir /app "$ctr" -- cuenv env --format json | tee "$work/env.json"
check "env --format json is JSON with CUDA_HOME" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["CUDA_HOME"] == "/opt/cuenv/versions/cuda/12.4.1", d
assert d["CUENV_ACTIVE"] == "12.4.1", d' "$work/env.json"
bah rm "$ctr" >/dev/null
ctr=

# ---- sizes ------------------------------------------------------------------
echo
echo "image sizes:"
bah images --format '  {{.Name}}:{{.Tag}}  {{.Size}}' | grep localhost/cuenv-ci/
echo "  /opt/cuenv in the runtime image: $opt_size"
say "done"
[ "$fail" -eq 0 ] || die "some checks failed"
