#!/bin/sh
# `cuenv help X` and `cuenv X --help` for every X in cmd/table.c (hidden
# and cuenv-net's commands included) exit 0 with X's usage and options;
# cuenv help install, gc and update once crashed (exit 139).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
names=$(sed -n '/^const struct cuenv_cmd \*const cuenv_cmds\[\] = {/,/^};/p' \
	"$src/cmd/table.c" | grep -o '&cmd_[a-z_]*' | sed 's/&cmd_//; s/_/-/g' |
	sort -u)
[ -n "$names" ] || fail "no commands read from cmd/table.c"
for c in $names install gc update; do
	expect_code 0 cuenv help "$c" &&
		stderr_empty &&
		check "cuenv help $c: no usage line" \
			grep -q "^usage: cuenv $c\( \|$\)" "$E2E_OUT" || exit 1
done
for c in $names; do
	expect_code 0 cuenv help "$c" &&
		cp "$E2E_OUT" "$HOME/help" &&
		expect_code 0 cuenv completion --options "$c" || exit 1
	# each option, with its help, in the help text
	cut -f1 "$E2E_OUT" | grep -vx -- --help >"$HOME/opts"
	while read -r o; do
		grep -q "^  \(-[a-z], \)\?$o\( \|$\)" "$HOME/help" ||
			fail "cuenv help $c does not list $o"
	done <"$HOME/opts"
	# and no line wider than a terminal
	if awk 'length > 80 { bad = 1 } END { exit !bad }' "$HOME/help"; then
		fail "cuenv help $c has lines over 80 columns"
	fi
	# cuenv-net's commands answer --help without cuenv-net
	case $c in
	install | gc | update)
		expect_code 0 env CUENV_LIBEXEC=/nonexistent cuenv "$c" --help &&
			stdout_has "usage: cuenv $c" || exit 1
		;;
	esac
done
