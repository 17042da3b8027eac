#!/bin/sh
# Trees deeper than PATH_MAX: an archive can make one in the pool, and a
# dead install can leave one in .staging. `cuenv gc` removes both and
# counts them (and the 2 MB at the bottom) right; a link inside is removed,
# never followed. A tree it cannot remove (an immutable file, where chattr
# works) is not counted as removed: gc names it and exits 7.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need python3
pool=$CUENV_ROOT/pool
st=$CUENV_ROOT/.staging
tree=$pool/$(printf '%064d' 7)
# deep DIR: 60 levels of 100-character names under DIR (6 KB of path), a
# file at each level, 2 MB and a link to $HOME at the bottom. Made with
# dir_fd: no path reaches that deep.
deep() {
	python3 - "$1" "$HOME" <<'EOF'
import os, sys
os.makedirs(sys.argv[1])
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(60):
    f = os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(f, b"0123456789")
    os.close(f)
    os.mkdir("d" * 100, dir_fd=fd)
    n = os.open("d" * 100, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = n
f = os.open("big", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(f, b"x" * 2000000)
os.close(f)
os.symlink(sys.argv[2], "home", dir_fd=fd)
EOF
}
echo keep >"$HOME/keep" &&
	mkdir -p "$pool" "$st" "$CUENV_ROOT/.locks" &&
	# The store's record of the tree, as the install that made it leaves.
	: >"$CUENV_ROOT/.locks/$(printf '%064d' 7).lock" &&
	deep "$tree" &&
	expect_stdout "removed 1 unused component (2.0 MB)" cuenv gc &&
	expect_stdout "" ls -A "$pool" &&
	# What an install killed while extracting such an archive leaves.
	deep "$st/install-dead01/$(printf '%064d' 7)" &&
	: >"$st/install-dead01.lock" &&
	expect_stdout "removed 0 unused components (0.0 MB)
removed 1 folder left by interrupted installs or uninstalls (2.0 MB)" cuenv gc &&
	expect_stdout "" ls -A "$st" &&
	file_is "$HOME/keep" keep &&
	expect_stdout "removed 0 unused components (0.0 MB)" cuenv gc || exit 1

# A file gc cannot remove.
command -v chattr >/dev/null 2>&1 || skip "no chattr"
# (gc removed the tree's record with the tree: it is planted again)
mkdir -p "$tree/lib" && echo x >"$tree/lib/stuck" && echo y >"$tree/other" &&
	: >"$CUENV_ROOT/.locks/$(printf '%064d' 7).lock" &&
	chattr +i "$tree/lib/stuck" 2>/dev/null || {
	rm -rf "$tree"
	skip "chattr +i does not work here (not root, or the file system)"
}
trap '_chattr_rc=$?; chattr -i "$tree/lib/stuck" 2>/dev/null; exit $_chattr_rc' EXIT
expect_code 7 cuenv gc &&
	stderr_has "cuenv: error: cannot remove '$tree': Operation not permitted" &&
	file_is "$E2E_OUT" "removed 0 unused components (0.0 MB)" &&
	check "the stuck file went" [ -f "$tree/lib/stuck" ]
chattr -i "$tree/lib/stuck"
expect_stdout "removed 1 unused component (0.0 MB)" cuenv gc &&
	expect_stdout "" ls -A "$pool"
