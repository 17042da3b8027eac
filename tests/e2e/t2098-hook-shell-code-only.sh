#!/bin/sh
# Commands whose stdout is shell code for eval (use through the shell's
# wrapper, init, env, export) print their help, usage errors and warnings
# on stderr only, whatever the arguments: in real bash, zsh and fish, no
# word of help text runs as a command (the usage line `cuenv use --unset`
# once did, and dropped the selection), each call exits as it should, and
# the selection stays as it was.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4.1" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8.0" 11.8.0 &&
	cuenv add cuda "$t/cuda-12.4.1" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8.0" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\n' >proj/.cuenv || exit 1

# CODE|COMMAND: every way these commands print text instead of code.
# SH is replaced by the session's shell.
cat >"$HOME/calls" <<'EOF_CALLS'
0|cuenv use --help
0|cuenv use -h
0|cuenv use 12 --help
0|cuenv use --unset --help
0|cuenv use --help --bogus
0|cuenv use --cudnn 9 -h 12
2|cuenv use --bogus
2|cuenv use --bogus=1 12
2|cuenv use
2|cuenv use 12 13
2|cuenv use --cudnn
2|cuenv use --cudnn x 12
2|cuenv use --unset 12
2|cuenv use ../12
9|cuenv use 99
0|cuenv init SH --help
0|cuenv init -h
2|cuenv init
2|cuenv init SH extra
2|cuenv init tcsh
2|cuenv init SH --bogus
0|cuenv env --help
2|cuenv env --format
2|cuenv env --format csh
2|cuenv env --bogus
2|cuenv env extra
0|cuenv export SH --help
2|cuenv export
2|cuenv export SH --pid x
2|cuenv export SH --bogus
EOF_CALLS

# The expected stdout: each call's code, and the selection unchanged.
want=$(while IFS='|' read -r code call; do
	echo "$call: rc=$code 11.8 $t/cuda-11.8.0"
done <"$HOME/calls")

# session SHELL: the script for SHELL, from the calls.
session() {
	case $1 in
	fish)
		echo 'cuenv init fish | source'
		echo 'function show; echo "$CUENV_VERSION $CUDA_HOME"; end'
		echo 'cd proj; emit fish_prompt; cuenv use 11.8 2>/dev/null; emit fish_prompt'
		;;
	*)
		echo "eval \"\$(cuenv init $1)\""
		echo 'show() { echo "$CUENV_VERSION $CUDA_HOME"; }'
		echo 'cd proj; _cuenv_hook; cuenv use 11.8 2>/dev/null; _cuenv_hook'
		;;
	esac
	while IFS='|' read -r code call; do
		call=$(printf '%s\n' "$call" | sed "s/ SH/ $1/")
		shown=$(printf '%s\n' "$call" | sed "s/ $1/ SH/")
		case $1:$call in
		*"cuenv use"*) run=$call ;;
		fish:*) run="$call | source" ;;
		*) run="eval \"\$($call)\"" ;;
		esac
		case $1 in
		fish)
			case $call in
			*"cuenv use"*) echo "$run; set rc \$status" ;;
			*) echo "$call >/dev/null 2>&1; set rc \$status; $run" ;;
			esac
			echo "emit fish_prompt; echo '$shown: rc='\$rc (show)"
			;;
		*)
			case $call in
			*"cuenv use"*) echo "$run; rc=\$?" ;;
			*) echo "$call >/dev/null 2>&1; rc=\$?; $run" ;;
			esac
			echo "_cuenv_hook; echo \"$shown: rc=\$rc \$(show)\""
			;;
		esac
	done <"$HOME/calls"
}

# check SHELL: run its session; fail on a shell error in its stderr.
check_shell() {
	session "$1" >"$HOME/session.$1" &&
		expect_stdout "$want" hook_session "$1" <"$HOME/session.$1" || return 1
	cp "$E2E_ERR" "$HOME/err.$1"
	for bad in "command not found" "not found" "syntax error" \
		"parse error" "Unknown command" "unexpected" "No such file"; do
		if grep -q "$bad" "$HOME/err.$1"; then
			grep "$bad" "$HOME/err.$1" | head -n 3 >&2
			fail "$1 ran cuenv's text as code: '$bad' in its stderr"
			return 1
		fi
	done
	# the help did reach the user, on stderr
	check "$1: no help on stderr" grep -q "usage: cuenv use SPEC" "$HOME/err.$1" &&
		check "$1: no init help on stderr" grep -q "usage: cuenv init" "$HOME/err.$1"
}

need bash && check_shell bash || exit 1
need zsh && check_shell zsh || exit 1
need fish && check_shell fish || exit 1

# Outside a shell too: nothing on stdout, for each call.
while IFS='|' read -r code call; do
	# shellcheck disable=SC2086 # the call is words
	expect_code "$code" env CUENV_SHELL=bash $(printf '%s\n' "$call" |
		sed 's/ SH/ bash/') &&
		stdout_empty || exit 1
done <"$HOME/calls"
