#!/bin/sh
# tools/windows-deps.sh (make windows-deps) fetches each source package at
# the newest version apt lists that the mirror really serves: a version
# the index lists but the pool answers 404 for (as zlib's security update
# once was) is said, with apt's reason, and the next one is fetched; the
# order is dpkg's (+deb12u12 after +deb12u5); a package none of whose
# versions can be fetched stops the build, naming them. The apt tools are
# fakes on PATH (APT_GET, APT_CACHE).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
need dpkg
f=$HOME/fake
mkdir -p "$f" && cat >"$f/apt-cache" <<'EOS' && chmod +x "$f/apt-cache" &&
#!/bin/sh
# showsrc PKG: the stanzas the index lists, in no particular order
[ "$1" = showsrc ] || exit 100
case $2 in
zlib) vs="1:1.2.13.dfsg-1 1:1.2.13.dfsg-1+deb12u1" ;;
jansson) vs="2.14-2" ;;
libarchive) vs="3.6.2-1+deb12u5 3.6.2-1+deb12u12 3.6.2-1" ;;
curl) vs="${CURL_VERSIONS:-7.88.1-10+deb12u8}" ;;
*) exit 0 ;;
esac
for v in $vs; do
	printf 'Package: %s\nBinary: %s-dev\nVersion: %s\n\n' "$2" "$2" "$v"
	# another source package's stanza between: not ours
	printf 'Package: %s-other\nVersion: 99\n\n' "$2"
done
EOS
	cat >"$f/apt-get" <<'EOS' && chmod +x "$f/apt-get" &&
#!/bin/sh
# source -qq PKG=VERSION: the pool serves what $SERVED lists
[ "$1" = source ] || exit 100
echo "$3" >>"$HOME/asked"
p=${3%%=*} v=${3#*=}
case " $SERVED " in
*" $3 "*) mkdir "$p-${v#*:}" && exit 0 ;;
esac
echo "Err:1 http://deb.example/debian-security bookworm-security/main $p ${v#*:} (dsc)"
echo "  404  Not Found [IP: 127.0.0.1 80]"
echo "E: Failed to fetch http://deb.example/pool/${p}_${v#*:}.dsc  404  Not Found [IP: 127.0.0.1 80]"
exit 100
EOS
	SERVED="zlib=1:1.2.13.dfsg-1 jansson=2.14-2 libarchive=3.6.2-1+deb12u5 curl=7.88.1-10+deb12u8" &&
	export SERVED &&
	wd() { env APT_GET="$f/apt-get" APT_CACHE="$f/apt-cache" \
		sh "$src/tools/windows-deps.sh" --fetch-only "$HOME/src"; } &&
	expect_stdout "zlib 1:1.2.13.dfsg-1
jansson 2.14-2
libarchive 3.6.2-1+deb12u5
curl 7.88.1-10+deb12u8" wd &&
	stderr_has "windows-deps: zlib 1:1.2.13.dfsg-1+deb12u1: apt-get source failed: Err:1 http://deb.example/debian-security" &&
	stderr_has "E: Failed to fetch http://deb.example/pool/zlib_1.2.13.dfsg-1+deb12u1.dsc  404" &&
	stderr_has "windows-deps: zlib: using 1:1.2.13.dfsg-1" &&
	stderr_has "windows-deps: libarchive 3.6.2-1+deb12u12: apt-get source failed" &&
	stderr_lacks "jansson 2.14-2: apt-get source failed" &&
	file_is "$HOME/asked" "zlib=1:1.2.13.dfsg-1+deb12u1
zlib=1:1.2.13.dfsg-1
jansson=2.14-2
libarchive=3.6.2-1+deb12u12
libarchive=3.6.2-1+deb12u5
curl=7.88.1-10+deb12u8" &&
	check "zlib's sources unpacked" [ -d "$HOME/src/zlib/zlib-1.2.13.dfsg-1" ] &&
	check "the failed version's folder is gone" \
		[ ! -e "$HOME/src/zlib/zlib-1.2.13.dfsg-1+deb12u1" ] || exit 1

# nothing of curl can be fetched: the build stops, naming the versions
SERVED="zlib=1:1.2.13.dfsg-1 jansson=2.14-2 libarchive=3.6.2-1" &&
	CURL_VERSIONS="7.88.1-10+deb12u8 7.88.1-10" && export CURL_VERSIONS &&
	rm -rf "$HOME/src" && expect_code 1 wd &&
	stderr_has "windows-deps: curl: none of the versions apt lists could be fetched: 7.88.1-10+deb12u8 7.88.1-10" || exit 1

# a package apt lists no version of
CURL_VERSIONS=" " && rm -rf "$HOME/src" && expect_code 1 wd &&
	stderr_has "apt-cache showsrc lists no version of 'curl' (is a deb-src entry configured?)"
