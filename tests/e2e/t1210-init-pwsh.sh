#!/bin/sh
# cuenv init pwsh and cuenv export pwsh, as text: PowerShell is not
# available here, so its lines are read by a model of the subset cuenv
# writes (pwsh_apply below, from about_Quoting_Rules: a single-quoted
# string is verbatim and '' stands for one quote; a double-quoted one, for
# a value that is not ASCII, has ` $ and " escaped with a backtick and
# each character past ASCII as $([char]0xHHHH); every byte is ASCII;
# tests/unit/plat/test_shell.c has the grammar). With it,
# the hook's lines take the session into a project and out again leaving
# exactly the user's PATH, `cuenv use` (CUENV_SHELL=pwsh, as the
# function sets it) overrides and --unset goes back, and the hook's
# watch lists and stamp are PowerShell's $global: variables. No real
# PowerShell has run any of it.
. "$(dirname "$0")/lib.sh"

need python3
rq=$(printf '\342\200\231') # U+2019, a quote to PowerShell
# pwsh_expandable: the value of the double-quoted string on stdin
# (its quotes included), or failure when it is not one of cuenv's.
pwsh_expandable() {
	python3 -c '
import re, sys
s = sys.stdin.buffer.read().decode("ascii")
m = re.fullmatch(r"\"((?:`[`$\"]|\$\(\[char\]0x[0-9A-F]{4}\)|[^`$\"])*)\"", s, re.S)
if not m:
    sys.exit("not an expandable string of cuenv: " + s)
u = re.sub(r"`(.)|\$\(\[char\]0x([0-9A-F]{4})\)",
           lambda c: c.group(1) or chr(int(c.group(2), 16)), m.group(1))
sys.stdout.buffer.write(u.encode("utf-16", "surrogatepass").decode("utf-16").encode())
'
}

# pwsh_apply FILE: the environment after PowerShell ran FILE, one
# statement a line: $env:NAME = '...' or "...", Remove-Item Env:NAME
# -ErrorAction SilentlyContinue, and $global:__cuenv_* (the hook's own:
# skipped). Anything else, a byte past ASCII, or a lone quote inside a
# string, fails.
pwsh_apply() {
	if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$1"; then
		echo "not ASCII: $1" >&2 && return 1
	fi
	while IFS= read -r l; do
		case $l in
		'$env:'*' = "'*'"')
			n=${l#?env:}
			n=${n%% = *}
			v=$(printf '%s' "${l#* = }" | pwsh_expandable) || return 1
			export "$n=$v"
			;;
		'$env:'*" = '"*"'")
			n=${l#?env:}
			n=${n%% = *}
			v=${l#* = \'}
			v=${v%\'}
			case $(printf '%s' "$v" | sed "s/''//g; s/$rq$rq//g") in
			*"'"* | *"$rq"*) echo "lone quote: $l" >&2 && return 1 ;;
			esac
			v=$(printf '%s' "$v" | sed "s/''/'/g; s/$rq$rq/$rq/g")
			export "$n=$v"
			;;
		'Remove-Item Env:'*' -ErrorAction SilentlyContinue')
			n=${l#Remove-Item Env:}
			unset "${n%% *}"
			;;
		'$global:__cuenv_'*" = "*) ;;
		*) echo "not PowerShell cuenv writes: $l" >&2 && return 1 ;;
		esac
	done <"$1"
}

t=$HOME/toolkits
c=$t/"it's \$x $rq"
cq="$t/it's \`\$x \$([char]0x2019)"
o=$t/cuda-11.8.0
bin=$(readlink -f "$(command -v cuenv)")
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$o" 11.8.0 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$o" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\n' >proj/.cuenv &&
	p0=$PATH &&
	# The hook's text: this binary, its export and use, the prompt.
	expect_code 0 cuenv init pwsh &&
	stdout_has "\$global:__cuenv_bin = '$bin'" &&
	stdout_has "function global:cuenv {" &&
	stdout_has "__cuenv_run 'CUENV_SHELL' 'pwsh' \$args" &&
	stdout_has "@('export', 'pwsh', '--pid', \"\$PID\")" &&
	stdout_has "function global:prompt {" &&
	stdout_has "if (-not \$global:__cuenv_prompt_hooked) {" &&
	stdout_lacks "@CUENV_" &&
	stdout_has "\$global:LASTEXITCODE = \$code" &&
	# Every helper the hook calls is defined; brackets pair up.
	for f in run mark stale hook; do
		stdout_has "function global:__cuenv_$f" || break
	done &&
	for b in '{}' '()'; do
		[ "$(tr -cd "${b%?}" <"$E2E_OUT" | wc -c)" = \
			"$(tr -cd "${b#?}" <"$E2E_OUT" | wc -c)" ] ||
			fail "init pwsh: $b do not pair up"
	done &&
	mkdir -p "$HOME/it's here" && cp "$bin" "$HOME/it's here/cuenv" &&
	expect_code 0 "$HOME/it's here/cuenv" init pwsh &&
	stdout_has "\$global:__cuenv_bin = '$HOME/it''s here/cuenv'" &&
	# Into the project: the hook's lines.
	cd proj &&
	expect_code 0 cuenv export pwsh --pid $$ &&
	stdout_has "\$env:CUDA_PATH = \"$cq\"" &&
	stdout_has "\$env:PATH = \"$cq/bin:" &&
	stdout_has "\$env:__CUENV_STATE = \"1;" &&
	stdout_has "\$global:__cuenv_watch = @('" &&
	stdout_has "'$HOME/proj/.cuenv'" &&
	stdout_has "\$global:__cuenv_absent = @(" &&
	stdout_has "\$global:__cuenv_stamp = '" &&
	stdout_has "\$global:__cuenv_said = ''" &&
	stdout_lacks "export " &&
	cp "$E2E_OUT" "$HOME/in.ps1" &&
	pwsh_apply "$HOME/in.ps1" &&
	expect_stdout "$c|$c/bin:$p0|12.4.1" \
		sh -c 'echo "$CUDA_PATH|$PATH|$CUENV_ACTIVE"' &&
	# Again: nothing to change.
	expect_code 0 cuenv export pwsh --pid $$ &&
	stdout_lacks "\$env:" &&
	stdout_lacks "Remove-Item" &&
	# The user's own entry, added while active, stays.
	PATH=/mine:$PATH &&
	# cuenv use 11.8 through the function, then --unset.
	expect_code 0 env CUENV_SHELL=pwsh cuenv use 11.8 &&
	stdout_has "\$env:CUENV_VERSION = '11.8'" &&
	cp "$E2E_OUT" "$HOME/use.ps1" &&
	pwsh_apply "$HOME/use.ps1" &&
	expect_stdout "$o|$o/bin:/mine:$p0|11.8" \
		sh -c 'echo "$CUDA_PATH|$PATH|$CUENV_VERSION"' &&
	expect_code 0 env CUENV_SHELL=pwsh cuenv use --unset &&
	stdout_has "Remove-Item Env:CUENV_VERSION -ErrorAction SilentlyContinue" &&
	cp "$E2E_OUT" "$HOME/unset.ps1" &&
	pwsh_apply "$HOME/unset.ps1" &&
	expect_stdout "$c|$c/bin:/mine:$p0|" \
		sh -c 'echo "$CUDA_PATH|$PATH|${CUENV_VERSION-}"' &&
	# Out of the project: exactly the user's PATH, cuenv's variables gone.
	cd "$HOME" &&
	expect_code 0 cuenv export pwsh --pid $$ &&
	stdout_has "Remove-Item Env:CUDA_PATH -ErrorAction SilentlyContinue" &&
	stdout_has "Remove-Item Env:__CUENV_STATE -ErrorAction SilentlyContinue" &&
	cp "$E2E_OUT" "$HOME/out.ps1" &&
	pwsh_apply "$HOME/out.ps1" &&
	expect_stdout "/mine:$p0|unset|unset|unset" \
		sh -c 'echo "$PATH|${CUDA_PATH-unset}|${CUENV_ACTIVE-unset}|${__CUENV_STATE-unset}"' &&
	# The model itself refuses what is not verbatim-quoted right.
	printf "\$env:A = 'it's'\n" >"$HOME/bad.ps1" &&
	! pwsh_apply "$HOME/bad.ps1" 2>/dev/null &&
	printf '$env:A = "a $x"\n' >"$HOME/bad.ps1" &&
	! pwsh_apply "$HOME/bad.ps1" 2>/dev/null &&
	printf "\$env:A = '$rq'\n" >"$HOME/bad.ps1" &&
	! pwsh_apply "$HOME/bad.ps1" 2>/dev/null &&
	# sh and unknown names are still refused.
	expect_code 2 env CUENV_SHELL=powershell cuenv use 11.8 &&
	expect_code 2 cuenv export powershell
