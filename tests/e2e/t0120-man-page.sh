#!/bin/sh
# docs/cuenv.1 renders without a warning (groff -ww, and man -l when
# man-db is there) and names every command of cmd/table.c, every exit
# code of core/rc.h, and its sections.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
page=$src/docs/cuenv.1
need groff
expect_code 0 groff -man -Tutf8 -ww -z "$page" &&
	stderr_empty &&
	expect_code 0 groff -man -Tascii -P-c -P-b -P-u "$page" &&
	stderr_empty &&
	cp "$E2E_OUT" "$HOME/page.txt" || exit 1
if command -v man >/dev/null 2>&1; then
	expect_code 0 env MANWIDTH=80 man --warnings -l "$page" &&
		stderr_empty || exit 1
fi
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT \
	"EXIT STATUS" FILES; do
	check "section $s" grep -q "^$s\$" "$HOME/page.txt"
done
# Every command in the table, as an entry of COMMANDS.
names=$(sed -n '/^const struct cuenv_cmd \*const cuenv_cmds\[\] = {/,/^};/p' \
	"$src/cmd/table.c" | grep -o '&cmd_[a-z_]*' | sed 's/&cmd_//; s/_/-/g' |
	sort -u)
[ -n "$names" ] || fail "no commands read from cmd/table.c"
for n in $names; do
	check "command $n" grep -q "^       $n\\b" "$HOME/page.txt"
done
# Every exit code of core/rc.h.
for c in $(grep -o '= [0-9]*,' "$src/core/rc.h" | tr -dc '0-9\n'); do
	check "exit code $c" grep -qE "^       $c( |\$)" "$HOME/page.txt"
done
