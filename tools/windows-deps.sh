#!/bin/sh
# tools/windows-deps.sh: cross-build cuenv's libraries for Windows
# (x86_64-w64-mingw32) from Debian's own source packages, as static
# libraries in a cached prefix outside the clone.
#
#   tools/windows-deps.sh            build if needed; print the prefix
#   tools/windows-deps.sh --prefix   print the prefix only (no build;
#                                    exit 1 when it is not complete)
#   tools/windows-deps.sh --fetch-only DIR
#                                    fetch the sources into DIR only
#                                    (apt and a deb-src entry set up
#                                    already) and print "pkg version"
#
#   CUENV_WIN_CACHE   cache folder (default /var/cache/cuenv-win; the
#                     Makefile's is BUILDROOT/win-cache); the prefix is
#                     CUENV_WIN_CACHE/<key>, key = the versions built +
#                     this script's hash. Each source package is fetched
#                     at the newest version apt lists that the mirror
#                     really serves (fetch_src); a cached prefix is
#                     reused while apt still lists all its versions.
#   APT_GET, APT_CACHE  the apt-get and apt-cache that fetch and list
#                     the sources (tests: fakes)
#   CUENV_WIN_JOBS    make -j (default 2)
#
# What is built, and what is left out:
#   zlib        libz.a (win32/Makefile.gcc)
#   jansson     libjansson.a
#   libarchive  libarchive.a: zip and tar readers with zlib; no xz/lzma
#               (NVIDIA's and cuDNN's Windows archives are .zip), no
#               bz2, lz4, zstd, b2, xml, iconv, acl, xattr, OpenSSL;
#               digests and zip decryption through Windows' own CNG
#               (bcrypt) and CryptoAPI (advapi32)
#   curl        libcurl.a: http, https (Schannel, Windows' TLS; no
#               OpenSSL), file; no ldap, ssh, idn, psl, brotli, zstd,
#               nghttp2, ftp, smtp or other protocols
# Installs with apt what it needs (the cross compiler, wine64, cmake,
# dpkg-dev) and adds a deb-src entry for the Debian repository apt already
# uses when none is configured. The prefix also holds cuenv-win.mk, the
# compiler and linker flags to use it (read by the Makefile and
# tests/windows/deps-smoke.sh).
set -eu

HOST=x86_64-w64-mingw32
PKGS="zlib jansson libarchive curl"
APT_NEED="gcc-mingw-w64-x86-64 wine64 dpkg-dev cmake make"
SRC_LIST=/etc/apt/sources.list.d/cuenv-win-src.sources
BASE=${CUENV_WIN_CACHE:-/var/cache/cuenv-win}
JOBS=${CUENV_WIN_JOBS:-2}
SELF=$(readlink -f "$0")

say() { echo "windows-deps: $*" >&2; }
die() { say "$*"; exit 1; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root for: $*"
	fi
}

ensure_apt() {
	missing=
	for p in $APT_NEED; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "apt-get install$missing"
	as_root apt-get update -qq
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >&2
}

# A deb-src entry for the same repository (and suites) as the Debian deb
# entries: copied from them, in the format they use. Added only when no
# deb-src entry for a Debian repository exists yet.
ensure_deb_src() {
	if grep -rqsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/; then
		apt-cache showsrc zlib 2>/dev/null | grep -q '^Package: zlib' ||
			as_root apt-get update -qq
		return 0
	fi
	tmp=$(mktemp)
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas naming a debian.org repository
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		     /debian\.org/ && /(^|\n)Types:[^\n]*deb/ {
			sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
	done >"$tmp"
	if [ ! -s "$tmp" ]; then
		# one-line format
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
			2>/dev/null | grep -E '^deb[[:space:]].*debian\.org' |
			sed 's/^deb /deb-src /' >"$tmp" || true
		[ -s "$tmp" ] || { rm -f "$tmp"; die "no Debian deb entry to copy a deb-src entry from"; }
		SRC_LIST=${SRC_LIST%.sources}.list
	fi
	say "adding $SRC_LIST"
	as_root install -m 644 "$tmp" "$SRC_LIST"
	rm -f "$tmp"
	as_root apt-get update -qq
}

# Every version of source package $1 that apt lists (apt-cache showsrc),
# newest first, one a line. A mirror may list a version it does not serve
# (a security update whose files are not there yet, or are gone):
# fetch_src tries each in turn.
src_versions() {
	${APT_CACHE:-apt-cache} showsrc "$1" 2>/dev/null |
		awk -v p="$1" '/^Package: / { ok = ($2 == p) }
			ok && /^Version: / { print $2 }' | sort -u | newest_first
}

# Debian versions on stdin, newest first (dpkg's order; sort -V's is not).
newest_first() {
	_l=
	while IFS= read -r _v; do
		[ -n "$_v" ] || continue
		_out=''
		_put=''
		for _w in $_l; do
			if [ -z "$_put" ] && dpkg --compare-versions "$_v" gt "$_w"; then
				_out="$_out $_v"
				_put=1
			fi
			_out="$_out $_w"
		done
		[ -n "$_put" ] || _out="$_out $_v"
		_l=$_out
	done
	for _w in $_l; do echo "$_w"; done
}

# The cache folder's name for the "pkg version" lines on stdin: the
# versions built, then this script's hash.
key_of() {
	_k=
	while read -r _p _v; do
		_k="$_k$_p-$(echo "$_v" | tr ':~+' '.._')_"
	done
	echo "$_k$(sha256sum "$SELF" | cut -c1-12)"
}

# find_cached: sets PREFIX to a complete prefix this script built whose
# every version apt still lists (the last in name order when several
# are). A build of a version apt no longer lists is not reused.
find_cached() {
	_hash=$(sha256sum "$SELF" | cut -c1-12)
	for _d in $(find "$BASE" -mindepth 1 -maxdepth 1 -name "*_$_hash" \
		2>/dev/null | sort -r); do
		if [ ! -f "$_d/.complete" ] || [ ! -f "$_d/versions.txt" ]; then
			continue
		fi
		_ok=1
		while read -r _p _v; do
			src_versions "$_p" | grep -qxF "$_v" || { _ok=; break; }
		done <"$_d/versions.txt"
		[ -n "$_ok" ] || continue
		PREFIX=$_d
		return 0
	done
	return 1
}

# fetch_src PKG DIR: `apt-get source PKG=V` into DIR/PKG for each version
# apt lists, newest first, until one comes whole (apt-get checks every
# file's size and checksums against the signed index: a 404 or a mismatch
# fails that version). Appends "PKG V" to VERSIONS and says which versions
# failed and why. APT_GET stands for apt-get (the tests' fake).
fetch_src() {
	_vs=$(src_versions "$1")
	[ -n "$_vs" ] ||
		die "apt-cache showsrc lists no version of '$1' (is a deb-src entry configured?)"
	_failed=
	for _v in $_vs; do
		rm -rf "${2:?}/$1"
		mkdir -p "$2/$1"
		chmod 755 "$2/$1" # apt-get source's download user reads it
		if (cd "$2/$1" && ${APT_GET:-apt-get} source -qq "$1=$_v") \
			>"$2/$1.log" 2>&1; then
			[ -z "$_failed" ] || say "$1: using $_v"
			VERSIONS="${VERSIONS:-}$1 $_v
"
			return 0
		fi
		_why=$(grep -E '^(E|Err):' "$2/$1.log" | head -n 2 | tr '\n' ' ')
		say "$1 $_v: apt-get source failed: ${_why:-$(tail -n 1 "$2/$1.log")}"
		_failed=1
	done
	die "$1: none of the versions apt lists could be fetched:" \
		"$(echo "$_vs" | tr '\n' ' ')"
}

toolchain() {
	cat >"$1" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $HOST-gcc)
set(CMAKE_RC_COMPILER $HOST-windres)
set(CMAKE_FIND_ROOT_PATH /usr/$HOST $PREFIX)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
}

cmake_build() { # SRCDIR BUILDDIR [TARGET] -- options...
	src=$1 bld=$2
	shift 2
	cmake -S "$src" -B "$bld" -DCMAKE_TOOLCHAIN_FILE="$WORK/toolchain.cmake" \
		-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" \
		-DCMAKE_PREFIX_PATH="$PREFIX" "$@" >>"$LOG" 2>&1
}

# Debian's zlib source (dfsg) drops win32/, and zlib's configure refuses
# mingw: the library is its fifteen C files, compiled here.
build_zlib() {
	d=$(echo "$WORK"/src/zlib/zlib-*/)
	mkdir -p "$WORK/b-zlib"
	for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite \
		infback inffast inflate inftrees trees uncompr zutil; do
		echo "$f"
	done | xargs -P "$JOBS" -I{} $HOST-gcc -O2 -D_LARGEFILE64_SOURCE=1 \
		-c "$d/{}.c" -o "$WORK/b-zlib/{}.o" >>"$LOG" 2>&1
	$HOST-ar rcs "$PREFIX/lib/libz.a" "$WORK"/b-zlib/*.o
	install -m 644 "$d/zlib.h" "$d/zconf.h" "$PREFIX/include/"
}

build_jansson() {
	cmake_build "$(echo "$WORK"/src/jansson/jansson-*/)" "$WORK/b-jansson" \
		-DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_BUILD_DOCS=OFF \
		-DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF
	cmake --build "$WORK/b-jansson" -j "$JOBS" >>"$LOG" 2>&1
	cmake --install "$WORK/b-jansson" >>"$LOG" 2>&1
}

build_libarchive() {
	src=$(echo "$WORK"/src/libarchive/libarchive-*/)
	b=$WORK/b-libarchive
	# ZLIB_WINAPI is a run test, which cross cmake cannot run: the answer
	# is no (zlib above is built without it).
	cmake_build "$src" "$b" \
		-DENABLE_ZLIB=ON -DZLIB_ROOT="$PREFIX" \
		-DENABLE_LZMA=OFF -DENABLE_BZip2=OFF -DENABLE_LZ4=OFF \
		-DENABLE_ZSTD=OFF -DENABLE_LIBB2=OFF -DENABLE_LZO=OFF \
		-DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF -DENABLE_NETTLE=OFF \
		-DENABLE_CNG=ON -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF \
		-DENABLE_PCREPOSIX=OFF -DENABLE_LIBGCC=OFF -DENABLE_ICONV=OFF \
		-DENABLE_ACL=OFF -DENABLE_XATTR=OFF -DENABLE_TAR=OFF \
		-DENABLE_CPIO=OFF -DENABLE_CAT=OFF -DENABLE_TEST=OFF \
		-DENABLE_INSTALL=OFF -DPOSIX_REGEX_LIB=NONE \
		-DZLIB_WINAPI_EXITCODE=1 -DZLIB_WINAPI_EXITCODE__TRYRUN_OUTPUT=
	# Only the static library: with the DLL's import library beside it,
	# -larchive would link the DLL.
	cmake --build "$b" -j "$JOBS" --target archive_static >>"$LOG" 2>&1
	install -m 644 "$b/libarchive/libarchive_static.a" \
		"$PREFIX/lib/libarchive.a"
	install -m 644 "$src/libarchive/archive.h" \
		"$src/libarchive/archive_entry.h" "$PREFIX/include/"
	# the libraries libarchive was configured to use (CNG, zlib, ...)
	sed -n 's/^Libs.private:[[:space:]]*//p' \
		"$b/build/pkgconfig/libarchive.pc" >"$WORK/archive-libs"
}

build_curl() {
	cmake_build "$(echo "$WORK"/src/curl/curl-*/)" "$WORK/b-curl" \
		-DBUILD_SHARED_LIBS=OFF -DBUILD_CURL_EXE=OFF -DBUILD_TESTING=OFF \
		-DENABLE_MANUAL=OFF -DCURL_USE_SCHANNEL=ON -DCURL_USE_OPENSSL=OFF \
		-DCURL_ZLIB=ON -DZLIB_ROOT="$PREFIX" \
		-DCURL_USE_LIBSSH2=OFF -DCURL_USE_LIBSSH=OFF -DUSE_LIBIDN2=OFF \
		-DUSE_WIN32_IDN=OFF -DCURL_USE_LIBPSL=OFF -DCURL_BROTLI=OFF \
		-DCURL_ZSTD=OFF -DUSE_NGHTTP2=OFF -DUSE_NGTCP2=OFF \
		-DUSE_QUICHE=OFF -DUSE_MSH3=OFF -DENABLE_ARES=OFF \
		-DCURL_DISABLE_LDAP=ON -DCURL_DISABLE_LDAPS=ON \
		-DCURL_DISABLE_FTP=ON -DCURL_DISABLE_DICT=ON \
		-DCURL_DISABLE_TELNET=ON -DCURL_DISABLE_TFTP=ON \
		-DCURL_DISABLE_POP3=ON -DCURL_DISABLE_IMAP=ON \
		-DCURL_DISABLE_SMB=ON -DCURL_DISABLE_SMTP=ON \
		-DCURL_DISABLE_GOPHER=ON -DCURL_DISABLE_MQTT=ON \
		-DCURL_DISABLE_RTSP=ON -DENABLE_UNIX_SOCKETS=OFF \
		-DCURL_CA_BUNDLE=none -DCURL_CA_PATH=none
	cmake --build "$WORK/b-curl" -j "$JOBS" >>"$LOG" 2>&1
	cmake --install "$WORK/b-curl" >>"$LOG" 2>&1
}

# Flags for a consumer: make syntax, also sourced by sh (no spaces around =).
write_flags() {
	# (less -lz, which is listed once for both)
	alibs=$(sed 's/\(^\| \)-lz\( \|$\)/ /g' "$WORK/archive-libs")
	cat >"$PREFIX/cuenv-win.mk" <<EOF
# generated by tools/windows-deps.sh
WIN_DEPS_PREFIX=$PREFIX
WIN_DEPS_CPPFLAGS=-I$PREFIX/include -DCURL_STATICLIB -DLIBARCHIVE_STATIC
WIN_DEPS_LIBS=-L$PREFIX/lib -lcurl -larchive -ljansson $alibs -lz -lbcrypt -lcrypt32 -lsecur32 -lws2_32 -ladvapi32
EOF
}

if [ "${1:-}" = --prefix ]; then
	find_cached || exit 1
	echo "$PREFIX"
	exit 0
fi
if [ "${1:-}" = --fetch-only ] && [ $# = 2 ]; then
	mkdir -p "$2"
	for p in $PKGS; do
		fetch_src "$p" "$2"
	done
	printf '%s' "$VERSIONS"
	exit 0
fi
[ $# = 0 ] || die "usage: tools/windows-deps.sh [--prefix | --fetch-only DIR]"

ensure_apt
ensure_deb_src
if find_cached; then
	say "cached: $PREFIX ($(tr '\n' ' ' <"$PREFIX/versions.txt"))"
	echo "$PREFIX"
	exit 0
fi

as_root mkdir -p "$BASE"
[ -w "$BASE" ] || as_root chown "$(id -u):$(id -g)" "$BASE"
exec 9>"$BASE/.lock"
flock 9
if find_cached; then # built while we waited
	echo "$PREFIX"
	exit 0
fi
start=$(date +%s)
# Under the lock: leftovers of interrupted or failed builds go.
for d in "$BASE"/* "$BASE"/.work-*; do
	[ -d "$d" ] && [ ! -f "$d/.complete" ] && rm -rf "$d"
done
WORK=$BASE/.work-$$
LOG=$WORK/build.log
mkdir -p "$WORK/src"
# set -e stops at the first failing step: show why
trap '[ $? = 0 ] || say "failed; last lines of $LOG:
$(tail -n 25 "$LOG" 2>/dev/null)"' EXIT
: >"$LOG"
# The sources first: the prefix is named by the versions fetched.
for p in $PKGS; do
	say "$p: apt-get source"
	fetch_src "$p" "$WORK/src"
	cat "$WORK/src/$p.log" >>"$LOG"
done
PREFIX=$BASE/$(printf '%s' "$VERSIONS" | key_of)
mkdir -p "$PREFIX/include" "$PREFIX/lib"
toolchain "$WORK/toolchain.cmake"
say "building $(printf '%s' "$VERSIONS" | tr '\n' ' ')in $WORK (log: $LOG)"
for p in $PKGS; do
	say "$p: build"
	"build_$p"
done
write_flags
printf '%s' "$VERSIONS" >"$PREFIX/versions.txt"
rm -rf "${PREFIX:?}/share" "${PREFIX:?}/bin"
rm -rf "$WORK"
touch "$PREFIX/.complete"
say "built in $(($(date +%s) - start))s: $PREFIX"
echo "$PREFIX"
