#!/bin/sh
# tools/windows-deps.sh: cross-build cuenv's libraries for Windows
# (x86_64-w64-mingw32) from Debian's own source packages, as static
# libraries in a cached prefix outside the clone.
#
#   tools/windows-deps.sh            build if needed; print the prefix
#   tools/windows-deps.sh --prefix   print the prefix only (no build;
#                                    exit 1 when it is not complete)
#
#   CUENV_WIN_CACHE   cache folder (default /var/cache/cuenv-win); the
#                     prefix is CUENV_WIN_CACHE/<key>, key = the source
#                     packages' versions + this script's hash
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

# The version apt-get source would fetch now (from the .dsc name).
src_version() {
	apt-get source --print-uris -qq "$1" 2>/dev/null |
		sed -n "s/^'[^']*' $1_\(.*\)\.dsc .*/\1/p" | head -n 1
}

compute_key() {
	KEY=
	for p in $PKGS; do
		v=$(src_version "$p")
		[ -n "$v" ] || die "apt-get source cannot find '$p' (is a deb-src entry configured?)"
		VERSIONS="${VERSIONS:-}$p $v
"
		KEY="$KEY$p-$(echo "$v" | tr ':~+' '.._')_"
	done
	KEY="${KEY}$(sha256sum "$SELF" | cut -c1-12)"
	PREFIX=$BASE/$KEY
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
	d=$(echo "$WORK"/src/zlib-*/)
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
	cmake_build "$(echo "$WORK"/src/jansson-*/)" "$WORK/b-jansson" \
		-DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_BUILD_DOCS=OFF \
		-DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF
	cmake --build "$WORK/b-jansson" -j "$JOBS" >>"$LOG" 2>&1
	cmake --install "$WORK/b-jansson" >>"$LOG" 2>&1
}

build_libarchive() {
	src=$(echo "$WORK"/src/libarchive-*/)
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
	cmake_build "$(echo "$WORK"/src/curl-*/)" "$WORK/b-curl" \
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
	compute_key
	[ -f "$PREFIX/.complete" ] || exit 1
	echo "$PREFIX"
	exit 0
fi
[ $# = 0 ] || die "usage: tools/windows-deps.sh [--prefix]"

ensure_apt
ensure_deb_src
compute_key
if [ -f "$PREFIX/.complete" ]; then
	say "cached: $PREFIX"
	echo "$PREFIX"
	exit 0
fi

as_root mkdir -p "$BASE"
[ -w "$BASE" ] || as_root chown "$(id -u):$(id -g)" "$BASE"
exec 9>"$BASE/.lock"
flock 9
if [ -f "$PREFIX/.complete" ]; then	# built while we waited
	echo "$PREFIX"
	exit 0
fi
start=$(date +%s)
# Under the lock: leftovers of interrupted or failed builds (any key) go.
for d in "$BASE"/* "$BASE"/.work-*; do
	[ -d "$d" ] && [ ! -f "$d/.complete" ] && rm -rf "$d"
done
WORK=$BASE/.work-$KEY
LOG=$WORK/build.log
mkdir -p "$WORK/src" "$PREFIX/include" "$PREFIX/lib"
chmod 755 "$WORK/src"	# apt-get source's download user reads it
toolchain "$WORK/toolchain.cmake"
# set -e stops at the first failing step: show why
trap '[ $? = 0 ] || say "failed; last lines of $LOG:
$(tail -n 25 "$LOG")"' EXIT
say "building in $WORK (log: $LOG)"
for p in $PKGS; do
	say "$p: apt-get source"
	(cd "$WORK/src" && apt-get source -qq "$p" >>"$LOG" 2>&1)
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
