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
# An archive holding a link that points out of its tree (etc -> /etc), a
# FIFO or device, or a name other than letters, digits and ._+- is
# refused. The prefix itself may be a symbolic link (its target is used),
# but none of the folders below it that the archive writes into
# (bin, libexec/cuenv, share/cuenv, ...) may be one: install.sh neither
# writes nor deletes through a link. The tree is copied into a staging
# folder inside the prefix first, then each file renamed into place, the
# old ones kept until the last rename: a failure on the way leaves the
# previous install as it was.
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

# ---- the archive's tree, and the prefix it goes into ------------------------

# check_tree TREE: refuse an archive with what cannot be copied as it is:
# a name outside [A-Za-z0-9._+-], a FIFO, device or socket, a link that
# points out of TREE or at nothing.
check_tree() {
	_top=$(cd "$1" && pwd -P)
	_bad=$(find "$1" -name '*[!A-Za-z0-9._+-]*' | sed -n 1p)
	[ -z "$_bad" ] ||
		die "'$name.tar.gz' holds a name install.sh does not copy: '${_bad#"$1/"}': nothing installed"
	_bad=$(find "$1" ! -type f ! -type d ! -type l | sed -n 1p)
	[ -z "$_bad" ] ||
		die "'$name.tar.gz' holds '${_bad#"$1/"}', which is not a file, a folder or a link: nothing installed"
	find "$1" -type l >"$tmp/links"
	while IFS= read -r _l; do
		_t=$(readlink "$_l")
		_r=
		case $_t in
		/*) ;;
		*)
			if [ -d "$_l" ]; then
				_r=$(cd "$_l" 2>/dev/null && pwd -P) || _r=
			elif [ -e "$_l" ]; then
				_r=$(cd "$(dirname "$_l")" &&
					cd "$(dirname "$_t")" 2>/dev/null &&
					pwd -P) || _r=
			fi
			;;
		esac
		case $_r/ in
		"$_top"/*) ;;
		*) die "'$name.tar.gz' holds a link out of its tree: '${_l#"$1/"}' -> '$_t': nothing installed" ;;
		esac
	done <"$tmp/links"
}

# check_prefix TREE PREFIX: each folder of TREE that PREFIX has must be a
# folder there, not a link (rm and cp would act on what it names) nor a
# file.
check_prefix() {
	(cd "$1" && find . -type d) | sort >"$tmp/dirs"
	while IFS= read -r _d; do
		_p=$2/${_d#./}
		[ "$_d" != . ] || continue
		if [ -L "$_p" ]; then
			die "'$_p' is a symbolic link to '$(readlink "$_p")': install.sh does not write through it" \
				"make it a folder, or install into the link's target with --prefix"
		fi
		[ ! -e "$_p" ] || [ -d "$_p" ] ||
			die "'$_p' is in the way: it is not a folder"
	done <"$tmp/dirs"
}

# journal WHAT REL: what commit did, for rollback to undo.
journal() {
	printf '%s %s\n' "$1" "$2" >>"$stage/journal"
}

# commit: the staged tree into the prefix by renames: the folders it
# lacks made, the catalogue swapped as a whole, then each file replaced
# (the old one kept in the staging folder by a hard link), bin/ last.
commit() {
	while IFS= read -r _d; do
		_p=$prefix/${_d#./}
		[ "$_d" = . ] || [ -d "$_p" ] || {
			mkdir "$_p" && journal dir "$_d"
		} || die "cannot create '$_p'"
	done <"$tmp/dirs"
	_m=share/cuenv/manifests
	if [ -d "$stage/new/$_m" ]; then
		if [ -e "$prefix/$_m" ]; then
			mv "$prefix/$_m" "$stage/old/manifests" ||
				die "cannot replace '$prefix/$_m'"
			journal catalogue "./$_m"
		fi
		journal new "./$_m"
		mv "$stage/new/$_m" "$prefix/$_m" ||
			die "cannot replace '$prefix/$_m'"
	fi
	(cd "$stage/new" && find . ! -type d) | sort >"$tmp/files"
	{
		grep -v '^\./bin/' "$tmp/files" || :
		grep '^\./bin/' "$tmp/files" || :
	} >"$tmp/order"
	while IFS= read -r _f; do
		_p=$prefix/${_f#./}
		if [ -e "$_p" ] || [ -L "$_p" ]; then
			{ mkdir -p "$(dirname "$stage/old/files/$_f")" &&
				ln "$_p" "$stage/old/files/$_f"; } ||
				die "cannot replace '$_p'"
			journal file "$_f"
		else
			journal new "$_f"
		fi
		mv -f "$stage/new/$_f" "$_p" || die "cannot replace '$_p'"
	done <"$tmp/order"
}

# inode PATH: its inode number (of a link itself, not what it names).
inode() {
	# shellcheck disable=SC2012 # only the number, ls's first field, is read
	ls -di "$1" 2>/dev/null | awk '{ print $1 }'
}

# rollback: undo what the journal says commit did, last first; false
# when something could not be undone.
rollback() {
	_ok=0
	awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' \
		"$stage/journal" >"$stage/undo" || return 1
	while read -r _what _rel; do
		_p=$prefix/${_rel#./}
		case $_what in
		file)
			# not yet replaced: the backup is the file itself
			_b=$stage/old/files/$_rel
			if [ "$(inode "$_b")" = "$(inode "$_p")" ]; then
				rm -f "$_b" || _ok=1
			else
				mv -f "$_b" "$_p" || _ok=1
			fi
			;;
		new) rm -rf "$_p" || _ok=1 ;;
		catalogue) mv "$stage/old/manifests" "$_p" || _ok=1 ;;
		dir) rmdir "$_p" || _ok=1 ;;
		esac
	done <"$stage/undo"
	return "$_ok"
}

# At exit: a commit that did not finish is undone; the staging folder
# goes, unless it holds what could not be put back.
cleanup() {
	if [ -n "$committing" ] && ! rollback; then
		printf 'cuenv-install: error: could not undo the install in %s: the old files are in %s\n' \
			"$prefix" "$stage/old" >&2
	elif [ -n "$stage" ]; then
		rm -rf "$stage"
	fi
	rm -rf "$tmp"
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
stage='' committing=
trap 'cleanup' EXIT
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
if [ ! -d "$tree" ] || [ -L "$tree" ]; then
	die "'$name.tar.gz' holds no folder $name"
fi
check_tree "$tree"
[ -x "$tree/bin/cuenv" ] || die "'$name.tar.gz' holds no $name/bin/cuenv"
"$tree/bin/cuenv" --version >/dev/null 2>&1 ||
	die "the archive's cuenv does not run on this machine"

mkdir -p "$prefix" || die "cannot create '$prefix'"
prefix=$(cd "$prefix" && pwd -P)
check_prefix "$tree" "$prefix"
stage=$(mktemp -d "$prefix/.cuenv-install.XXXXXX") ||
	die "cannot write in '$prefix'"
{ mkdir "$stage/new" "$stage/old" && : >"$stage/journal" &&
	cp -R "$tree/." "$stage/new/"; } ||
	die "cannot copy into '$prefix': the install there is as it was"
committing=1
commit
committing=

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
