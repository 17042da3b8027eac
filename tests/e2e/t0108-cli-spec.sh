#!/bin/sh
# tools/cli.c (the build's cli-gen, beside cuenv) turns docs/cli.txt into
# C and the manual page's option lists; a mistake in the spec is one line
# naming the file, the line and what is wrong, and exit 1.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

gen=$(dirname "$CUENV_BIN")/cli-gen
[ -x "$gen" ] || skip "no cli-gen beside $CUENV_BIN"
out=$HOME/out
mkdir -p "$out"

# A small spec: two commands, one sharing the other's options.
tab=$(printf '\t')
cat >"$HOME/ok.txt" <<EOT
# a comment
command demo: a demo
usage
${tab}usage: cuenv demo {options}

${tab}Does "a" thing.
option -l, --list: named
${tab}list them
option --jobs N: number 1..64
${tab}at once
command other: another
usage
${tab}usage: cuenv other {options}
options as demo
EOT
printf '.TH X 1\n.\\" @options other\n' >"$HOME/man.in"
expect_code 0 "$gen" "$HOME/ok.txt" "$out/cli.c" "$out" "$HOME/man.in" \
	"$out/x.1" &&
	check "cli.c: demo's usage, quote escaped" \
		grep -qF 'Does \"a\" thing.\n"' "$out/cli.c" &&
	check "cli.c: --jobs's range" \
		grep -qF '.min = UINT64_C(1), .max = UINT64_C(64)' "$out/cli.c" &&
	check "other.h: demo's enum and table" \
		grep -qF 'O_JOBS,' "$out/other.h" &&
	check "other.h: demo's table" \
		grep -qF '.opts = cli_demo_opts, .nopts = 2' "$out/other.h" &&
	check "the man page: other's options" \
		grep -qxF '\fB\-l\fR, \fB\-\-list\fR' "$out/x.1" || exit 1

# Each mistake: file:line: what.
bad() {
	printf '%s\n' "$3" >"$HOME/bad.txt"
	expect_code 1 "$gen" "$HOME/bad.txt" "$out/bad.c" "$out" || return 1
	want="$HOME/bad.txt:$1: $2"
	[ "$(cat "$E2E_ERR")" = "$want" ] && return 0
	fail "cli-gen said '$(cat "$E2E_ERR")', not '$want'"
}
bad 1 "expected 'command NAME: SUMMARY' first" "usage" &&
	bad 3 "unknown option attribute 'numbr 1..2'" \
		"command a: b
usage
option --x N: numbr 1..2" &&
	bad 3 "number wants whole numbers: 'number 1..x'" \
		"command a: b
usage
option --x N: number 1..x" &&
	bad 2 "unknown line 'usgae'" "command a: b
usgae" &&
	bad 1 "command 'a' has no usage" "command a: b" &&
	bad 1 "'a': a summary holds no '\"' or '\\'" "command a: say \"hi\"
usage
${tab}usage: cuenv a" &&
	bad 4 "no command 'zz' with options of its own" "command a: b
usage
${tab}usage: cuenv a
options as zz" &&
	bad 6 "--x again" "command a: b
usage
${tab}usage: cuenv a
option --x
${tab}h
option --x
${tab}h" || exit 1
