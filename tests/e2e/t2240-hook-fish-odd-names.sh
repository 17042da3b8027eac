#!/bin/sh
# t2040 in fish: folder names with spaces, quotes, $(...), backticks, *,
# a backslash (and in the project's name ';' and a newline) are data,
# never code.
. "$(dirname "$0")/lib.sh"

odd=$(printf "sp ace 'sq' \"dq\" \$(touch pwned) (touch pwned) \`touch pwned\` * \\\\ nl\nx;y")
c=$HOME/toolkits/${odd%%"
"*}
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
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
unset" hook_session fish <<'EOF_SESSION' &&
cuenv init fish | source
cd $HOME/odd/*; emit fish_prompt
echo "-- in"; string join : -- $PATH; string join : -- $LD_LIBRARY_PATH; echo $CUDA_HOME
cuenv which nvcc
nvcc --version | sed 1,2d
cd $HOME; emit fish_prompt
echo "-- out"; string join : -- $PATH
set -q LD_LIBRARY_PATH; and echo $LD_LIBRARY_PATH; or echo unset
set -q CUDA_HOME; and echo $CUDA_HOME; or echo unset
EOF_SESSION
	no_cuenv_errors &&
	nothing_named pwned
