#!/bin/sh
# install.sh: install a cuenv release archive for this machine.
#
#   curl -fsSL https://github.com/cuenv/cuenv/releases/latest/download/install.sh | sh
#   sh install.sh [--prefix DIR] [--version V] [--base-url URL]
#
# Downloads cuenv-V-linux-ARCH.tar.gz and its .sha256 from
# BASE/download/vV/ (GitHub's layout; V is BASE/latest/download/LATEST
# when not given), checks the archive's SHA-256, and only then copies its
# tree (bin/, libexec/cuenv/, share/) into the prefix (default ~/.local),
# replacing an older catalogue. Nothing is written under the prefix before
# the check passes. ARCH is uname -m's: x86_64 (amd64) or aarch64 (arm64).
#
# Environment: PREFIX, CUENV_INSTALL_VERSION and CUENV_INSTALL_URL are the
# options' defaults; the options win.
set -eu

base=${CUENV_INSTALL_URL:-https://github.com/cuenv/cuenv/releases}
version=${CUENV_INSTALL_VERSION-}
prefix=${PREFIX:-${HOME:?}/.local}

die() {
	printf 'cuenv-install: error: %s\n' "$1" >&2
	[ -z "${2-}" ] || printf 'hint: %s\n' "$2" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	--prefix | --version | --base-url)
		[ $# -ge 2 ] || die "option '$1' needs a value"
		case $1 in
		--prefix) prefix=$2 ;;
		--version) version=$2 ;;
		--base-url) base=$2 ;;
		esac
		shift 2
		;;
	-h | --help)
		sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"
		exit 0
		;;
	*) die "unknown argument '$1'" "usage: sh install.sh [--prefix DIR] [--version V] [--base-url URL]" ;;
	esac
done
base=${base%/}

os=$(uname -s)
[ "$os" = Linux ] || die "no release for '$os': cuenv's archives are for Linux" \
	"build from source: https://github.com/cuenv/cuenv#from-source"
m=$(uname -m)
case $m in
x86_64 | amd64) arch=x86_64 ;;
aarch64 | arm64) arch=aarch64 ;;
*) die "no release for architecture '$m' (there are x86_64 and aarch64 archives)" \
	"build from source: https://github.com/cuenv/cuenv#from-source" ;;
esac

if command -v curl >/dev/null 2>&1; then
	get() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
	get() { wget -q -O "$2" "$1"; }
else
	die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
	sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
	die "neither sha256sum nor shasum is installed"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

if [ -z "$version" ]; then
	get "$base/latest/download/LATEST" "$tmp/LATEST" ||
		die "cannot download '$base/latest/download/LATEST'" \
			"name a release with --version V"
	version=$(sed -n 1p "$tmp/LATEST")
fi
case $version in
'' | *[!0-9A-Za-z.+~-]*) die "bad version '$version'" ;;
esac

name=cuenv-$version-linux-$arch
url=$base/download/v$version/$name.tar.gz
echo "cuenv-install: downloading $url" >&2
get "$url" "$tmp/$name.tar.gz" || die "cannot download '$url'"
get "$url.sha256" "$tmp/sha256" || die "cannot download '$url.sha256'"
want=$(sed -n '1s/^\([0-9a-fA-F]\{64\}\)\( .*\)\{0,1\}$/\1/p' "$tmp/sha256" |
	tr A-F a-f)
[ -n "$want" ] || die "'$url.sha256' holds no SHA-256"
got=$(sha256 "$tmp/$name.tar.gz")
[ "$got" = "$want" ] ||
	die "'$name.tar.gz' has SHA-256 $got, not $want as its .sha256 says: nothing installed"

mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$tmp/$name.tar.gz" || die "cannot unpack '$name.tar.gz'"
tree=$tmp/x/$name
[ -x "$tree/bin/cuenv" ] || die "'$name.tar.gz' holds no $name/bin/cuenv"
"$tree/bin/cuenv" --version >/dev/null 2>&1 ||
	die "the archive's cuenv does not run on this machine"

mkdir -p "$prefix" || die "cannot create '$prefix'"
prefix=$(cd "$prefix" && pwd -P)
# The catalogue is replaced as a whole; the rest is copied over.
rm -rf "$prefix/share/cuenv/manifests"
cp -R "$tree/." "$prefix/" || die "cannot copy into '$prefix'"

echo "cuenv $version installed in $prefix"
case ":${PATH-}:" in
*":$prefix/bin:"*) ;;
*) echo "Add it to your PATH (in ~/.profile or your shell's rc file):" &&
	echo "  export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
case ${SHELL-} in
*/zsh) echo "Then, in ~/.zshrc:  eval \"\$(cuenv init zsh)\"" ;;
*/fish) echo "Then, in ~/.config/fish/config.fish:  cuenv init fish | source" ;;
*) echo "Then, in ~/.bashrc:  eval \"\$(cuenv init bash)\"" ;;
esac
