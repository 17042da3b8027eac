#!/bin/sh
# CUENV_ANNOUNCE=1: the hook says in one line on stderr what it loaded or
# unloaded, as direnv does, once per change and never on an unchanged
# prompt; without it the hook says nothing. In real bash, zsh and fish.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
n=$HOME/toolkits/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir -p proj/src other &&
	printf 'cuda = 12.4\ncudnn = 9\n' >proj/.cuenv || exit 1

said="cuenv: cuda 12.4.1 + cudnn 9.1.0 (set by $HOME/proj/.cuenv)
cuenv: cuda 12.4.1+cudnn9.1.0 unloaded"

ran=
for sh in bash zsh fish; do
	command -v "$sh" >/dev/null 2>&1 || continue
	ran="$ran $sh"
	# No prompt text on stderr; how each shell exports a variable.
	case $sh in
	fish) quiet='function fish_prompt; end' set_var='set -gx CUENV_ANNOUNCE '
		;;
	zsh) quiet="PROMPT='' PS2=''" set_var='export CUENV_ANNOUNCE=' ;;
	*) quiet="PS1='' PS2=''" set_var='export CUENV_ANNOUNCE=' ;;
	esac
	for announce in 1 0; do
		hook_session "$sh" >"$E2E_SANDBOX/out" 2>"$E2E_SANDBOX/err" <<EOF_SESSION
$quiet
$set_var$announce
eval "\$(cuenv init $sh)"
cd proj
true
cd src
cd ../../other
true
exit
EOF_SESSION
		grep -o 'cuenv: .*' "$E2E_SANDBOX/err" >"$E2E_SANDBOX/got"
		if [ "$announce" = 1 ]; then
			want=$said
		else
			want=
		fi
		check "$sh, CUENV_ANNOUNCE=$announce: what the hook said" \
			[ "$(cat "$E2E_SANDBOX/got")" = "$want" ] || {
			cat "$E2E_SANDBOX/err" >&2
			exit 1
		}
	done
done
check "no shell to run the hook in" [ -n "$ran" ]
