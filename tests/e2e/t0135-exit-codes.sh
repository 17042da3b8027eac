#!/bin/sh
# Every exit code of core/base/rc.h is in the README's table and the man page's
# EXIT STATUS with the meaning it is used for, and neither documents a code
# that rc.h lacks (cuenv exec's 126 and 127 aside). Each code that can be
# reached without a GPU or a hostile archive is then produced by the
# command the table says gives it, and the README row, the man page entry
# and the error printed share the word that names the meaning: add of a
# version already in the store exited 7 (filesystem), remove of an
# installed version and uninstall of a registered one 2 (bad command
# line), and install of a release the catalogue lacks 9 (not installed).
# Codes 6, 8, 10-14 and 70 are produced by t52xx, t60xx (check) and the
# unit tests.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

src=$e2e/../..
readme=$src/README.md
man=$(dirname "$CUENV_BIN")/cuenv.1

# code:word that the README row and the man entry both hold
meanings='0:success
1:negative
2:command line
3:.cuenv
4:download
5:checksum
6:extract
7:filesystem
8:device
9:not installed
10:driver
11:runtime
12:kernel
13:cuDNN
14:CUPTI
15:doctor
16:already
17:catalogue
18:in use
70:internal'

codes=$(sed -n 's/^[[:space:]]*CUENV_[A-Z_]* = \([0-9]*\),.*/\1/p' "$src/core/base/rc.h")
[ -n "$codes" ] || fail "no codes read from core/base/rc.h"
# The README's "Exit codes" table: "| N | meaning |"
sed -n '/^## Exit codes/,/^## /p' "$readme" |
	sed -n 's/^| \([0-9][0-9]*\) | \(.*\) |$/\1	\2/p' >"$HOME/readme.tsv"
# The man page's EXIT STATUS: ".TP", ".B N", then the text up to the next
# .TP or .PP, joined on one line with the markup dropped
sed -n '/^\.SH EXIT STATUS/,/^\.SH [A-Z]/p' "$man" | awk '
	/^\.TP/ { if (c != "") print c "\t" t; c = ""; t = ""; want = 1; next }
	/^\.PP/ || /^\.SH/ { if (c != "") print c "\t" t; c = ""; t = ""; want = 0; next }
	want && c == "" && /^\.B [0-9]+$/ { c = $2; next }
	c != "" { sub(/^\.[A-Z]+ /, ""); gsub(/"/, ""); t = t " " $0 }
	END { if (c != "") print c "\t" t }' >"$HOME/man.tsv"

for c in $codes; do
	word=$(printf '%s\n' "$meanings" | sed -n "s/^$c://p")
	check "core/base/rc.h's $c has no meaning in this test" [ -n "$word" ] &&
		check "README: no row for exit code $c with '$word'" \
			grep -q "^$c	.*$word" "$HOME/readme.tsv" &&
		check "man page: no entry for exit code $c with '$word'" \
			grep -qi "^$c	.*$word" "$HOME/man.tsv"
done
for c in $(cut -f1 "$HOME/readme.tsv") $(cut -f1 "$HOME/man.tsv"); do
	check "exit code $c is documented but not in core/base/rc.h" \
		sh -c 'printf "%s\n" "$1" | grep -qx "$2"' - "$codes" "$c"
done
grep -q '126.*127\|126/127' "$readme" || fail "README: exec's 126/127"
grep -q '126 and 127' "$man" || fail "man page: exec's 126 and 127"

# code WORD: the last command exited with it, and said WORD on stderr
said() {
	last_rc_is "$1" && stderr_has "$2"
}

t=$HOME/toolkits
fixtures || exit 1
make_fake_cuda "$t/a" 12.4.1 &&
	make_fake_cuda "$t/b" 12.4.1 &&
	mkdir -p "$HOME/p" && cd "$HOME/p" &&
	expect_code 0 cuenv versions &&
	expect_code 1 cuenv version &&
	stdout_has "none selected" &&
	expect_code 2 cuenv versions extra &&
	printf 'cuda = x/y\n' >.cuenv &&
	expect_code 3 cuenv version &&
	said 3 ".cuenv" &&
	rm .cuenv &&
	expect_code 4 cuenv update --mirror "file://$HOME/nowhere" &&
	said 4 "cannot read" &&
	expect_code 7 env CUENV_ROOT="$t/a/bin/nvcc" cuenv versions &&
	said 7 "Not a directory" &&
	printf 'cuda = 99\n' >.cuenv &&
	expect_code 9 cuenv exec true &&
	said 9 "not installed" &&
	expect_code 15 cuenv doctor &&
	rm .cuenv &&
	expect_code 0 cuenv add cuda "$t/a" &&
	expect_code 16 cuenv add cuda "$t/b" &&
	said 16 "already in the store" &&
	make_installed_cuda 11.8.0 &&
	expect_code 16 cuenv remove 11.8.0 &&
	said 16 "installed by cuenv, not registered" &&
	expect_code 16 cuenv uninstall 12.4.1 &&
	said 16 "was registered from" &&
	cuenv global 11.8.0 >/dev/null &&
	expect_code 18 cuenv uninstall 11.8.0 </dev/null &&
	said 18 "in use" &&
	rm "$CUENV_ROOT/version" &&
	CUENV_MANIFESTS=$FX/manifests && export CUENV_MANIFESTS &&
	expect_code 17 cuenv install 99 &&
	said 17 "no CUDA 99 in the catalogue" &&
	expect_code 17 cuenv install 12.4.1 --cudnn 7 &&
	said 17 "in the catalogue" &&
	# 5: a manifest whose bytes are not the pinned ones
	mkdir -p "$HOME/cat" "$HOME/m/compute/cuda/redist" \
		"$HOME/m/compute/cudnn/redist" &&
	cp -R "$FX/manifests/." "$HOME/cat/" &&
	rm "$HOME/cat/cuda/redistrib_12.4.0.json" &&
	{ cat "$FX/mirror/compute/cuda/redist/redistrib_12.4.0.json" && echo; } \
		>"$HOME/m/compute/cuda/redist/redistrib_12.4.0.json" &&
	expect_code 5 env CUENV_MANIFESTS="$HOME/cat" cuenv update --mirror "file://$HOME/m" &&
	said 5 "sha256 mismatch" &&
	expect_code 127 cuenv exec "$HOME/nothing-here" &&
	expect_code 126 cuenv exec "$HOME/cat/cuda-runfiles.tsv"
