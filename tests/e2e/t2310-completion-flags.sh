#!/bin/sh
# Each command's options are declared once, in docs/cli.txt (core/base/opts.h),
# which `cuenv completion --options CMD` prints. For every command that
# `cuenv help` lists (cmd/table.c less the hidden ones):
#  - its usage synopsis (the lines of `cuenv CMD --help` down to the first
#    blank one) names exactly the table's long options;
#  - --help lists each of them, with its help;
#  - bash, zsh and fish offer, at `cuenv CMD --<TAB>`, exactly those, plus
#    --help, which every command takes.
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

# "CMD --flag" lines, sorted: what each command's table declares.
want=$HOME/want
: >"$want.unsorted"
for c in $cmds; do
	expect_code 0 cuenv completion --options "$c" || exit 1
	cut -f1 "$E2E_OUT" | sort -u >"$HOME/table"
	grep -qx -- --help "$HOME/table" || fail "$c: --options lacks --help"
	expect_code 0 cuenv help "$c" || exit 1
	cp "$E2E_OUT" "$HOME/help"
	awk '/^$/ { exit } { print }' "$HOME/help" |
		grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$HOME/synopsis"
	check "$c: no synopsis in its usage" grep -q "^usage: cuenv $c" "$HOME/help"
	grep -vx -- --help "$HOME/table" >"$HOME/table.opts"
	if ! cmp -s "$HOME/table.opts" "$HOME/synopsis"; then
		fail "$c: its usage synopsis and its option table differ:" \
			"$(diff "$HOME/table.opts" "$HOME/synopsis" | grep '^[<>]' |
				tr '\n' ' ')"
	fi
	while read -r o; do
		grep -q "^  \(-[a-z], \)\?$o\( \|$\)" "$HOME/help" ||
			fail "$c --help does not list $o"
	done <"$HOME/table.opts"
	sed "s/^/$c /" "$HOME/table" >>"$want.unsorted"
done
sort "$want.unsorted" >"$want"
# the old hand-written lists held these; the tables must too
for w in "install --cudnn" "install --max-expansion" "local --no-isolate" \
	"check --timeout" "exec --check" "needs --python" "versions --bare"; do
	grep -qx -- "$w" "$want" || fail "no $w in the tables"
done

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
# Under the sanitizers, LeakSanitizer's stop-the-world at exit sometimes
# never returns for a cuenv that zsh runs inside a completion function's
# command substitution (2 runs in 6: its ptrace tracer waits forever for
# the process to stop). Leaks are checked by the other tests; not here.
no_lsan="${ASAN_OPTIONS-}${ASAN_OPTIONS:+:}detect_leaks=0"
expect_code 0 env ASAN_OPTIONS="$no_lsan" zsh -f "$HOME/flags.zsh" $cmds </dev/null &&
	cp "$E2E_OUT" "$HOME/zsh.out" &&
	compare zsh "$HOME/zsh.out" || exit 1

need fish
# shellcheck disable=SC2016,SC2086 # fish expands these; names are words
expect_code 0 fish --no-config -c 'cuenv completion fish | source
for c in $argv
	for w in (complete -C "cuenv $c --" | string replace -r "\t.*" "" | sort -u)
		echo "$c $w"
	end
end' $cmds </dev/null &&
	cp "$E2E_OUT" "$HOME/fish.out" &&
	compare fish "$HOME/fish.out"
