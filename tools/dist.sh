#!/bin/sh
# make dist: pack the make install tree staged in DISTDIR/NAME as
# DISTDIR/NAME.tar.gz with NAME.tar.gz.sha256 beside it (sha256sum's
# format), write DISTDIR/LATEST (the version, what install.sh asks for when
# told none), and say what each shipped binary needs of the system: its
# NEEDED shared libraries and the newest glibc symbol version it uses.
#
#   sh tools/dist.sh DISTDIR NAME VERSION
#
# The archive is reproducible for one commit: names sorted, owner root,
# every mtime the last commit's time (or SOURCE_DATE_EPOCH), gzip without
# a timestamp.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 DISTDIR NAME VERSION" >&2; exit 2; }
dir=$1 name=$2 version=$3
stage=$dir/$name
[ -x "$stage/bin/cuenv" ] || { echo "dist: error: no $stage/bin/cuenv" >&2; exit 1; }
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

tar -C "$dir" --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime="@$epoch" -cf - "$name" | gzip -9n >"$dir/$name.tar.gz.tmp"
mv "$dir/$name.tar.gz.tmp" "$dir/$name.tar.gz"
(cd "$dir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256.tmp" &&
	mv "$name.tar.gz.sha256.tmp" "$name.tar.gz.sha256")
printf '%s\n' "$version" >"$dir/LATEST"
rm -rf "$stage"

# What the binaries need, from the archive's own copies (readelf reads any
# architecture's ELF, so a cross-built archive is described too).
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tar -C "$t" -xzf "$dir/$name.tar.gz"
echo "  DIST    $dir/$name.tar.gz"
for b in bin/cuenv libexec/cuenv/cuenv-net libexec/cuenv/cuenv-probe; do
	f=$t/$name/$b
	needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		tr '\n' ' ')
	# The symbol versions asked for: glibc's newest, and the others
	# (CURL_OPENSSL_4 is Debian's and Ubuntu's libcurl4).
	vers=$(readelf -V "$f" | sed -n '/Version needs/,$ s/.*Name: \([^ ]*\).*/\1/p')
	glibc=$(printf '%s\n' "$vers" | grep '^GLIBC_' | sort -V | tail -n 1)
	other=$(printf '%s\n' "$vers" | grep -v -e '^GLIBC_' -e '^$' |
		grep -v '\.so\.' | sort -u | tr '\n' ' ')
	printf '          %-26s needs: %s(%s%s)\n' "$b" \
		"${needed:-nothing, static }" "${glibc:-no glibc symbols}" \
		"${other:+, ${other% }}"
done
cat "$dir/$name.tar.gz.sha256"
