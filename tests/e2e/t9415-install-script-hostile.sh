#!/bin/sh
# install.sh neither writes through links nor leaves half an install:
#  - a prefix whose share/cuenv is a symbolic link to another folder is
#    refused, naming the link, before anything is written: the other
#    folder's manifests/ stay (old install.sh deleted them, then failed
#    half-way, leaving a new bin/ and no catalogue);
#  - an archive holding a link out of its tree (etc -> /etc, or
#    x -> ../..) is refused, naming the link, nothing installed (old
#    install.sh copied the links into the prefix as they were);
#  - a copy that fails half-way (cp: the disk full) and a rename that
#    fails half-way leave the previous install as it was, every file the
#    same, and no staging folder behind.
# The release archive comes from make dist, over file:// (curl).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need make
need curl
need python3
src=$(cd "$e2e/../.." && pwd) || exit 1
bin=$(dirname "$CUENV_BIN")
v=$(cat "$src/VERSION") || exit 1
case $(uname -m) in
x86_64) arch=x86_64 ;;
aarch64) arch=aarch64 ;;
*) skip "no release archive for $(uname -m)" ;;
esac
name=cuenv-$v-linux-$arch

# A copy of the tree that make needs, with this build's binaries.
c=$HOME/clone
mkdir -p "$c/build/std" &&
	cp -p "$src/Makefile" "$src/VERSION" "$c/" &&
	cp -pR "$src/manifests" "$src/shells" "$src/tools" "$c/" &&
	for b in cuenv cuenv-net cuenv-probe cuenv.1; do
		cp -p "$bin/$b" "$c/build/std/$b" || exit 1
	done || exit 1
rel=$HOME/releases
make -s -C "$c" -o build/std/cuenv -o build/std/cuenv-net \
	-o build/std/cuenv-probe -o build/std/cuenv.1 \
	dist DISTDIR="$rel/download/v$v" >/dev/null || exit 1
inst() { sh "$src/install.sh" --version "$v" --base-url "file://$1" --prefix "$2"; }
# state DIR: every path under DIR, and each file's sha256
state() { (cd "$1" && find . | sort && find . -type f | sort | xargs sha256sum); }

# share/cuenv, a link to another folder: refused, the folder untouched
p=$HOME/linked
mkdir -p "$p/share" "$HOME/elsewhere/manifests" &&
	echo keep >"$HOME/elsewhere/manifests/mine.json" &&
	ln -s ../../elsewhere "$p/share/cuenv" &&
	expect_code 1 inst "$rel" "$p" &&
	stderr_has "cuenv-install: error: '$p/share/cuenv' is a symbolic link to '../../elsewhere': install.sh does not write through it" &&
	stderr_has "hint: make it a folder, or install into the link's target with --prefix" &&
	file_is "$HOME/elsewhere/manifests/mine.json" keep &&
	assert_eq "$(cd "$HOME/elsewhere" && find . | sort)" ".
./manifests
./manifests/mine.json" "the other folder" &&
	check "install.sh wrote into $p" [ ! -e "$p/bin" ] &&
	assert_eq "$(ls -A "$p")" share "the prefix" || exit 1

# hostile archives: the release with a link planted, its .sha256 remade
hostile() {
	_h=$HOME/hostile-$1
	rm -rf "$HOME/unpack" && mkdir -p "$HOME/unpack" "$_h/download/v$v" &&
		tar -C "$HOME/unpack" -xzf "$rel/download/v$v/$name.tar.gz" &&
		ln -s "$2" "$HOME/unpack/$name/$3" &&
		tar -C "$HOME/unpack" -czf "$_h/download/v$v/$name.tar.gz" "$name" &&
		(cd "$_h/download/v$v" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
}
hostile etc /etc etc &&
	expect_code 1 inst "$HOME/hostile-etc" "$HOME/h1" &&
	stderr_has "cuenv-install: error: '$name.tar.gz' holds a link out of its tree: 'etc' -> '/etc': nothing installed" &&
	check "install.sh made the prefix" [ ! -e "$HOME/h1" ] &&
	hostile up ../.. share/up &&
	expect_code 1 inst "$HOME/hostile-up" "$HOME/h2" &&
	stderr_has "holds a link out of its tree: 'share/up' -> '../..': nothing installed" &&
	check "install.sh made the prefix" [ ! -e "$HOME/h2" ] || exit 1

# A previous install, marked so that its files are not the new ones.
p=$HOME/prefix
expect_code 0 inst "$rel" "$p" &&
	echo old >"$p/share/cuenv/manifests/old-marker" &&
	echo '.\" old' >>"$p/share/man/man1/cuenv.1" &&
	echo mine >"$p/bin/other-tool" &&
	state "$p" >"$HOME/before" || exit 1
realcp=$(command -v cp) && realmv=$(command -v mv) || exit 1
mkdir -p "$HOME/faults" || exit 1

# cp fails half-way: it copied bin/, then the disk was full
cat >"$HOME/faults/cp" <<EOF || exit 1
#!/bin/sh
for last; do :; done
"$realcp" "\$@" && rm -rf "\$last/share" && echo "cp: No space left on device" >&2
exit 1

# cp fails half-way: it copied bin/, then the disk was full
cat >"$HOME/faults/cp" <<EOF || exit 1
#!/bin/sh
for last; do :; done
"$realcp" "\$@" && rm -rf "\$last/share" && echo "cp: No space left on device" >&2
exit 1
EOF
chmod +x "$HOME/faults/cp" &&
	expect_code 1 env PATH="$HOME/faults:$PATH" sh "$src/install.sh" \
		--version "$v" --base-url "file://$rel" --prefix "$p" &&
	stderr_has "cuenv-install: error: cannot copy into '$p': the install there is as it was" &&
	state "$p" >"$HOME/after" &&
	check "the failed copy changed the install: $(diff "$HOME/before" "$HOME/after")" \
		cmp -s "$HOME/before" "$HOME/after" &&
	rm "$HOME/faults/cp" || exit 1

# the fourth rename fails: the catalogue and one file were replaced
# already, and are put back
cat >"$HOME/faults/mv" <<EOF || exit 1
#!/bin/sh
n=\$((\$(cat "$HOME/mv-count" 2>/dev/null || echo 0) + 1))
echo "\$n" >"$HOME/mv-count"
[ "\$n" -ne 4 ] || { echo "mv: a fault planted" >&2; exit 1; }
exec "$realmv" "\$@"
EOF
chmod +x "$HOME/faults/mv" &&
	expect_code 1 env PATH="$HOME/faults:$PATH" sh "$src/install.sh" \
		--version "$v" --base-url "file://$rel" --prefix "$p" &&
	stderr_has "mv: a fault planted" &&
	stderr_has "cuenv-install: error: cannot replace '$p/" &&
	check "the failed commit made no renames" [ "$(cat "$HOME/mv-count")" -gt 4 ] &&
	state "$p" >"$HOME/after" &&
	check "the failed rename changed the install: $(diff "$HOME/before" "$HOME/after")" \
		cmp -s "$HOME/before" "$HOME/after" &&
	expect_code 0 "$p/bin/cuenv" --version &&
	expect_code 0 env PATH="$p/bin:/usr/bin:/bin" cuenv latest --known 12.4 &&
	stdout_has "12.4.1" || exit 1

# and without faults, the new install: the markers' files replaced, the
# catalogue as a whole, what is not cuenv's kept
expect_code 0 inst "$rel" "$p" &&
	check "the old catalogue's file is still there" [ ! -e "$p/share/cuenv/manifests/old-marker" ] &&
	check "the man page was not replaced" [ "$(tail -n 1 "$p/share/man/man1/cuenv.1")" != '.\" old' ] &&
	file_is "$p/bin/other-tool" mine &&
	check "a staging folder was left: $(ls -A "$p")" [ -z "$(find "$p" -name '.cuenv-install.*')" ]
