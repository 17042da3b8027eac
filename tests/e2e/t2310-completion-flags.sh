#!/bin/sh
# The completion scripts' hand-written flag lists match the commands:
# for every command `cuenv help` lists (cmd/table.c less the hidden ones),
# bash, zsh and fish offer, at `cuenv CMD --<TAB>`, exactly the long
# options the command accepts, plus --help, which the dispatcher takes
# for every command.
#
# What a command accepts is read from its usage synopsis, the lines of
# `cuenv CMD --help` down to the first blank one (the prose below it may
# name other commands' options: lock's mentions install --locked). Where
# cmd/<name>.c has getopt_long tables (local's and global's are in
# common.c), their names must be the synopsis's too, so an option missing
# from the usage does not hide from this test.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
names=$(sed -n '/^const struct cuenv_cmd \*const cuenv_cmds\[\] = {/,/^};/p' \
	"$src/cmd/table.c" | grep -o '&cmd_[a-z_]*' | sed 's/&cmd_//; s/_/-/g' |
	sort -u)
[ -n "$names" ] || fail "no commands read from cmd/table.c"
expect_code 0 cuenv help || exit 1
listed=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
	"$E2E_OUT")
cmds=
for n in $names; do
	if printf '%s\n' "$listed" | grep -qx -- "$n"; then
		cmds="$cmds $n"
	fi
done
[ -n "$cmds" ] || fail "cuenv help lists none of cmd/table.c's commands"

# "CMD --flag" lines, sorted: what each command accepts.
want=$HOME/want
: >"$want.unsorted"
tables=0
for c in $cmds; do
	expect_code 0 cuenv "$c" --help || exit 1
	awk '/^$/ { exit } { print }' "$E2E_OUT" |
		grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$HOME/synopsis"
	check "$c: no synopsis in its usage" grep -q "^usage: cuenv $c" "$E2E_OUT"
	f=$src/cmd/$(printf %s "$c" | tr - _).c
	# local and global parse their options in common.c
	grep -q 'cmd_selection_file(' "$f" 2>/dev/null && f=$src/cmd/common.c
	if [ -f "$f" ] && grep -q 'struct option [a-z_]*\[\] = {' "$f"; then
		tables=$((tables + 1))
		awk '/struct option [a-z_]*\[\] = \{/ { on = 1; next }
			on && /^};/ { on = 0 } on' "$f" |
			sed -n 's/^[[:space:]]*{ *"\([a-z0-9-]*\)".*/--\1/p' |
			sort -u >"$HOME/table"
		if ! cmp -s "$HOME/table" "$HOME/synopsis"; then
			fail "$c: its usage synopsis and the option table in" \
				"cmd/$(basename "$f") differ:" \
				"$(diff "$HOME/table" "$HOME/synopsis" | grep '^[<>]' |
					tr '\n' ' ')"
		fi
	fi
	{
		cat "$HOME/synopsis"
		echo --help
	} | sort -u | sed "s/^/$c /" >>"$want.unsorted"
done
sort "$want.unsorted" >"$want"
# add, check, doctor, env, exec, global, install, list-remote, local, ...
[ "$tables" -ge 10 ] || fail "only $tables option tables found in cmd/"

# compare SHELL FILE: FILE's "CMD --flag" lines against $want.
compare() {
	sort -u "$2" >"$2.sorted"
	_missing=$(comm -23 "$want" "$2.sorted" | tr '\n' ',')
	_extra=$(comm -13 "$want" "$2.sorted" | tr '\n' ',')
	[ -z "$_missing" ] ||
		fail "$1 completion does not offer what the commands accept: $_missing"
	[ -z "$_extra" ] ||
		fail "$1 completion offers what the commands do not accept: $_extra"
	[ -z "$_missing$_extra" ]
}

need bash
cat >"$HOME/flags.bash" <<'EOF'
eval "$(cuenv completion bash)" || exit 1
for c in "$@"; do
	COMP_WORDS=(cuenv "$c" --); COMP_CWORD=2; COMPREPLY=(); _cuenv
	for w in "${COMPREPLY[@]}"; do printf '%s %s\n' "$c" "$w"; done
done
EOF
# shellcheck disable=SC2086 # the command names are words
expect_code 0 bash --norc --noprofile "$HOME/flags.bash" $cmds </dev/null &&
	cp "$E2E_OUT" "$HOME/bash.out" &&
	compare bash "$HOME/bash.out" || exit 1

need zsh
cat >"$HOME/flags.zsh" <<'EOF'
autoload -Uz compinit && compinit -u -D || exit 1
eval "$(cuenv completion zsh)" || exit 1
compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else print -l -- "$@"; fi }
for c in "$@"; do
	words=(cuenv $c --); CURRENT=3
	_cuenv | while read -r w; do print -- "$c $w"; done
done
EOF
# shellcheck disable=SC2086
expect_code 0 zsh -f "$HOME/flags.zsh" $cmds </dev/null &&
	cp "$E2E_OUT" "$HOME/zsh.out" &&
	compare zsh "$HOME/zsh.out" || exit 1

need fish
# shellcheck disable=SC2016,SC2086 # fish expands these; names are words
expect_code 0 fish --no-config -c 'cuenv completion fish | source
for c in $argv
	for w in (complete -C "cuenv $c --" | string replace -r "\t.*" "")
		echo "$c $w"
	end
end' $cmds </dev/null &&
	cp "$E2E_OUT" "$HOME/fish.out" &&
	compare fish "$HOME/fish.out"
