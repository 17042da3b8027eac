#!/bin/sh
# t2080 in fish: a fish started from an activated fish inherits the
# activation, loads the integration, stacks nothing, and restores the
# user's own values on leaving; the parent is unchanged afterwards.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir p && printf 'cuda = 12.4\n' >p/.cuenv &&
	in="$c/bin:$PATH|$c/lib64:/user/lib|$c|12.4.1" &&
	out="$PATH|/user/lib|/user/value|none" &&
	cat >"$HOME/child.fish" <<'EOF_CHILD' &&
cuenv init fish | source
function show
    set -q CUENV_ACTIVE; and set -l a $CUENV_ACTIVE; or set -l a none
    echo "$argv[1]: "(string join : -- $PATH)"|"(string join : -- $LD_LIBRARY_PATH)"|$CUDA_HOME|$a"
end
emit fish_prompt
show "child in"
cd ..
show "child out"
cd p
show "child in again"
EOF_CHILD
	expect_stdout "parent in: $in
child in: $in
child out: $out
child in again: $in
parent after the child: $in
parent out: $out" hook_session fish <<'EOF_SESSION' &&
set -gx LD_LIBRARY_PATH /user/lib
set -gx CUDA_HOME /user/value
cuenv init fish | source
function show
    set -q CUENV_ACTIVE; and set -l a $CUENV_ACTIVE; or set -l a none
    echo "$argv[1]: "(string join : -- $PATH)"|"(string join : -- $LD_LIBRARY_PATH)"|$CUDA_HOME|$a"
end
cd p
show "parent in"
fish --no-config $HOME/child.fish
show "parent after the child"
cd ..
show "parent out"
EOF_SESSION
	no_cuenv_errors
