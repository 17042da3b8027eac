#!/bin/sh
# The user's ERR trap (bash with set -E; zsh's ERR trap) fires once per
# failing command, not a second time for the hook or the cuenv wrapper:
# at a prompt after a failure, on entering a project, and for a failing
# cuenv command. $? still reaches the user's next prompt hook and command.
# t2195 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv &&
	expect_stdout "mine saw 0
mine saw 0
trap 1
mine saw 1
st=1
mine saw 0
trap 3
mine saw 3
mine saw 0
in: $c
mine saw 0
trap 9
mine saw 9
trap 2
mine saw 2
done
mine saw 0" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
mine() { echo "mine saw $?"; }
case $0 in *bash) set -E; PROMPT_COMMAND+=(mine) ;; *) precmd_functions+=(mine) ;; esac
trap 'echo "trap $?"' ERR
false
echo "st=$?"
(exit 3)
cd p
echo "in: $CUDA_HOME"
cuenv local 1.2.3 2>/dev/null
cuenv no-such-command 2>/dev/null
echo done
EOF_SESSION
	no_cuenv_errors
