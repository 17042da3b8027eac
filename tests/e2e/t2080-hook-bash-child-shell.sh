#!/bin/sh
# A shell started from an activated shell inherits the activation and
# loads the integration itself: it does not stack a second activation,
# leaving the project there restores the user's own values, and the
# parent is unchanged when it exits. t2180 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv &&
	in="$c/bin:$PATH|$c/lib64:/user/lib|$c|12.4.1" &&
	out="$PATH|/user/lib|/user/value|none" &&
	expect_stdout "parent in: $in
child in: $in
child out: $out
child in again: $in
parent after the child: $in
parent out: $out" hook_session "$hook_shell" <<'EOF_SESSION' &&
export LD_LIBRARY_PATH=/user/lib CUDA_HOME=/user/value
eval "$(cuenv init $0)"
show() { echo "$1: $PATH|$LD_LIBRARY_PATH|$CUDA_HOME|${CUENV_ACTIVE-none}"; }
cd p
show "parent in"
case $0 in *bash) bash --norc -i ;; *) zsh -f -i ;; esac
eval "$(cuenv init $0)"
show() { echo "$1: $PATH|$LD_LIBRARY_PATH|$CUDA_HOME|${CUENV_ACTIVE-none}"; }
show "child in"
cd ..
show "child out"
cd p
show "child in again"
exit
show "parent after the child"
cd ..
show "parent out"
EOF_SESSION
	no_cuenv_errors
