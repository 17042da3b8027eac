#!/bin/sh
# The integration lives with the user's shell set-up: `set -u`, a prompt
# hook of the user's (kept, and run at each prompt), loading it twice (one
# hook), empty entries in path lists (kept exactly), an empty
# LD_LIBRARY_PATH (back to empty), and a CUDA_HOME the user changed while
# active (left alone). t2170 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv &&
	p="$E2E_SANDBOX/bin:/usr/bin::/bin:" &&
	case $hook_shell in
	bash) hooks="_cuenv_hook && :;mine" ;;
	zsh) hooks="_cuenv_hook mine" ;;
	esac &&
	expect_stdout "hooks=$hooks
-- in
$c/bin:$p|$c/lib64|$c/include:/x::|$c
-- out
$p||unset|/x::|/mine|unset
user hook ran: yes" hook_session "$hook_shell" <<'EOF_SESSION' &&
set -u
n=0
mine() { n=$((n + 1)); }
case $0 in *bash) PROMPT_COMMAND=mine ;; *) precmd_functions=(mine) ;; esac
export PATH="$PATH::/bin:" && PATH=$(echo "$PATH" | sed 's|:/usr/bin:/bin::/bin:$|:/usr/bin::/bin:|')
export LD_LIBRARY_PATH= CPATH=/x::
eval "$(cuenv init $0)"
eval "$(cuenv init $0)"
case $0 in *bash) echo "hooks=$PROMPT_COMMAND" ;; *) echo "hooks=$precmd_functions" ;; esac
cd p
echo "-- in"; echo "$PATH|$LD_LIBRARY_PATH|$CPATH|$CUDA_HOME"
CUDA_HOME=/mine
cd ..; m=$n
echo "-- out"; echo "$PATH|$LD_LIBRARY_PATH|${LIBRARY_PATH-unset}|$CPATH|$CUDA_HOME|${CUDA_PATH-unset}"
[ "$n" -gt "$m" ] && echo "user hook ran: yes"
EOF_SESSION
	no_cuenv_errors &&
	stderr_lacks "unbound" &&
	stderr_lacks "parameter not set"
