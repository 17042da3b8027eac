#!/bin/sh
# make install PREFIX=DIR as a user who owns DIR's parent and nothing
# else: it succeeds and writes nothing outside DIR (fish's completion went
# to /etc/fish/completions: permission denied, nothing installed), nor in
# the user's HOME; make uninstall then leaves nothing, not even the folders
# it made, and keeps what was in the prefix before (another tool's file,
# and the folder that holds it). Run as root: the user is nobody, and what
# nobody wrote anywhere after a stamp, outside the prefix, is found with
# find over / (less /proc, /sys and /dev).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need make
need setpriv
[ "$(id -u)" -eq 0 ] || skip "runs make as nobody: needs root"
id nobody >/dev/null 2>&1 || skip "no user nobody"
src=$(cd "$e2e/../.." && pwd) || exit 1
bin=$(dirname "$CUENV_BIN")

# The sandbox is root's alone: nobody works in a folder of /tmp, removed
# at the end.
w=$(mktemp -d /tmp/cuenv-t9405.XXXXXX) || exit 1
trap 'rm -rf "$w"' EXIT
chmod 0755 "$w" &&
	mkdir -p "$w/clone/build/std" "$w/home" "$w/pre/bin" &&
	echo other >"$w/pre/bin/other" &&
	cp -p "$src/Makefile" "$w/clone/" &&
	cp -pR "$src/manifests" "$src/shells" "$src/tools" "$w/clone/" &&
	for b in cuenv cuenv-net cuenv-probe cuenv.1; do
		cp -p "$bin/$b" "$w/clone/build/std/$b" || exit 1
	done &&
	chown nobody "$w" "$w/home" &&
	chown -R nobody "$w/pre" &&
	chmod -R a+rX "$w/clone" || exit 1

as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env HOME="$w/home" PATH=/usr/bin:/bin "$@"
}
mk() {
	as_nobody make -s -C "$w/clone" -o build/std/cuenv \
		-o build/std/cuenv-net -o build/std/cuenv-probe \
		-o build/std/cuenv.1 "$@"
}
# written_outside PREFIX: what nobody wrote since the stamp, outside
# PREFIX (w itself changes as PREFIX is made and removed). Other work on
# the machine removes files while find walks: its complaints (and status)
# about those are not findings.
written_outside() {
	find / \( -path /proc -o -path /sys -o -path /dev -o -path "$1" \) \
		-prune -o -user nobody -newer "$w/stamp" ! -path "$w" -print \
		2>/dev/null
	return 0
}

touch "$w/stamp" || exit 1
p=$w/prefix
expect_code 0 mk install PREFIX="$p" &&
	check "nothing installed" [ -x "$p/bin/cuenv" ] &&
	check "no fish completion under the prefix" \
		[ -f "$p/share/fish/vendor_completions.d/cuenv.fish" ] &&
	out=$(written_outside "$p") &&
	check "make install wrote outside $p: $out" [ -z "$out" ] &&
	expect_code 0 "$p/bin/cuenv" --version &&
	expect_code 0 mk uninstall PREFIX="$p" &&
	check "make uninstall left $p: $(find "$p" 2>/dev/null)" [ ! -e "$p" ] &&
	out=$(written_outside "$w/none") &&
	check "make uninstall left outside $p: $out" [ -z "$out" ] || exit 1

# A prefix that holds other things: they stay, and so do their folders.
expect_code 0 mk install PREFIX="$w/pre" &&
	expect_code 0 mk uninstall PREFIX="$w/pre" &&
	check "make uninstall took another tool's file" \
		[ -f "$w/pre/bin/other" ] &&
	check "make uninstall left: $(cd "$w/pre" && find . -mindepth 1)" \
		[ "$(cd "$w/pre" && find . -mindepth 1 | sort | tr '\n' ' ')" = \
			"./bin ./bin/other " ]
