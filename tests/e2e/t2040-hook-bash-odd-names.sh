#!/bin/sh
# Folder names are data: a project folder whose name holds spaces, quotes,
# $(...), backticks, *, ';' and a newline, and a toolkit folder with all
# of these but the last two, activate and deactivate exactly, and nothing
# in them is ever executed. A toolkit folder with a newline or ';' (which
# would split LD_LIBRARY_PATH for glibc's loader) is refused. t2140 runs
# this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

odd=$(printf "sp ace 'sq' \"dq\" \$(touch pwned) \`touch pwned\` * \\\\ nl\nx;y")
c=$HOME/toolkits/${odd%%"
"*}
need "$hook_shell" &&
	case $odd in *"
"*) ;; *) fail "the name has no newline" ;; esac &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$HOME/toolkits/$odd" 12.4.1 &&
	make_fake_cuda "$HOME/toolkits/semi;colon" 12.4.1 &&
	expect_code 2 cuenv add cuda "$HOME/toolkits/$odd" &&
	stderr_has "holds a newline" &&
	expect_code 2 cuenv add cuda "$HOME/toolkits/semi;colon" &&
	stderr_has "'$HOME/toolkits/semi;colon' holds a ';'" &&
	expect_code 0 cuenv add cuda "$c" &&
	mkdir -p "$HOME/odd/$odd" &&
	printf 'cuda = 12.4\n' >"$HOME/odd/$odd/.cuenv" &&
	p=$PATH &&
	expect_stdout "-- in
$c/bin:$p
$c/lib64
$c
$c/bin/nvcc
fake nvcc at $c/bin/nvcc
-- out
$p
unset
unset" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
cd "$HOME"/odd/*
echo "-- in"; echo "$PATH"; echo "$LD_LIBRARY_PATH"; echo "$CUDA_HOME"
cuenv which nvcc
nvcc --version | sed 1,2d
cd "$HOME"
echo "-- out"; echo "$PATH"; echo "${LD_LIBRARY_PATH-unset}"; echo "${CUDA_HOME-unset}"
EOF_SESSION
	no_cuenv_errors &&
	nothing_named pwned
