#!/bin/sh
# The manual page (docs/cuenv.1.in with the options of docs/cli.txt, built
# beside cuenv) renders without a warning (groff -ww, and man -l when
# man-db is there) and names every command of cmd/table.c, every exit
# code of core/base/rc.h, and its sections; its title has the VERSION file's
# version.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
page=$(dirname "$CUENV_BIN")/cuenv.1
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
# Its version is the VERSION file's, as cuenv --version's is.
v=$(cat "$src/VERSION") || fail "no VERSION file in $src"
[ -z "$v" ] ||
	check "the page's title names cuenv $v" \
		grep -q "^\.TH CUENV 1 \"[^\"]*\" \"cuenv $v\" " "$page"
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
# Every exit code of core/base/rc.h.
for c in $(grep -o '= [0-9]*,' "$src/core/base/rc.h" | tr -dc '0-9\n'); do
	check "exit code $c" grep -qE "^       $c( |\$)" "$HOME/page.txt"
done
# At 80 columns each command's entry starts with its whole synopsis on one
# line and its description on the next (check's once ran into its text).
if command -v man >/dev/null 2>&1; then
	env MANWIDTH=80 man -l "$page" 2>/dev/null >"$HOME/page80.txt"
	sed -n '/^COMMANDS$/,/^OPTIONS$/p' "$HOME/page80.txt" >"$HOME/commands80.txt"
	for n in $names; do
		awk -v n="$n" '
			found { ok = /^              [A-Z][a-z]/; exit }
			index($0, "       " n) == 1 && substr($0, 8 + length(n), 1) ~ /^( |)$/ {
				found = 1
				# a tag shorter than the indent: the text follows it
				if ($0 ~ /^       [a-z-]+  +[A-Z][a-z]/) { ok = 1; exit }
			}
			END { exit !(found && ok) }' "$HOME/commands80.txt" ||
			fail "man page at 80 columns: the entry of $n does not fit" \
				"its synopsis on one line:" \
				"$(grep -A1 "^       $n\\b" "$HOME/commands80.txt" | tr -s ' ')"
	done
fi
# Each command's entry lists exactly the options of its table (cuenv
# completion --options CMD): in its option list (generated from
# docs/cli.txt, one option a line at the list's indent), or, for an entry
# without one, named in its text. Rendered wide and unhyphenated.
groff -man -Tascii -P-c -P-b -P-u -rLL=250n -rHY=0 "$page" 2>/dev/null |
	sed -n '/^COMMANDS$/,/^OPTIONS$/p' >"$HOME/wide.txt"
for n in $names; do
	expect_code 0 cuenv completion --options "$n" || exit 1
	cut -f1 "$E2E_OUT" | grep -vx -- --help | sort -u >"$HOME/table"
	awk -v n="$n" '
		on && /^       [^ ]/ { exit }
		index($0, "       " n) == 1 && substr($0, 8 + length(n), 1) ~ /^( |)$/ { on = 1 }
		on' "$HOME/wide.txt" >"$HOME/entry"
	if grep -qE -- '^              (-[a-z], )?--[a-z]' "$HOME/entry"; then
		sed -nE 's/^              (-[a-z], )?(--[a-z][a-z0-9-]*).*/\2/p' \
			"$HOME/entry"
	else
		grep -o -- '--[a-z][a-z0-9-]*' "$HOME/entry"
	fi | sort -u >"$HOME/man"
	if ! cmp -s "$HOME/table" "$HOME/man"; then
		fail "man page: the options of $n differ from its table:" \
			"$(diff "$HOME/table" "$HOME/man" | grep '^[<>]' | tr '\n' ' ')"
	fi
done
