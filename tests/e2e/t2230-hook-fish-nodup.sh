#!/bin/sh
# t2030 in fish: many cd's stack nothing; a user entry equal to one of
# cuenv's goes back where it was; what the user adds stays.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
d=$t/cuda-11.8
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$d" 11.8.0 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$d" >/dev/null &&
	mkdir a b && printf 'cuda = 12.4\n' >a/.cuenv && printf 'cuda = 11.8\n' >b/.cuenv &&
	p=$PATH &&
	{
		echo 'set -gx PATH /first $HOME/toolkits/cuda-12.4/bin $PATH'
		echo 'set -gx LD_LIBRARY_PATH /ufirst $HOME/toolkits/cuda-12.4/lib64 /ulast'
		echo 'cuenv init fish | source'
		echo 'function show; string join : -- $PATH; string join : -- $LD_LIBRARY_PATH; end'
		echo 'emit fish_prompt'
		i=0
		while [ $i -lt 15 ]; do
			echo 'cd a; emit fish_prompt'
			echo 'cd ../b; emit fish_prompt'
			echo 'cd $HOME; emit fish_prompt'
			echo 'cd a/.; emit fish_prompt'
			echo 'cd $HOME/b; emit fish_prompt'
			i=$((i + 1))
		done
		echo 'cd $HOME/a; emit fish_prompt'
		echo 'echo "-- in a"; show'
		echo 'cd ../b; emit fish_prompt'
		echo 'echo "-- in b"; show'
		echo 'cd ..; emit fish_prompt'
		echo 'echo "-- out"; show'
		echo 'cd a; emit fish_prompt'
		echo 'set -gx PATH $PATH /added'
		echo 'cd ..; emit fish_prompt'
		echo 'echo "-- out, with /added"; show'
	} >"$HOME/session" &&
	expect_stdout "-- in a
$c/bin:/first:$p
$c/lib64:/ufirst:/ulast
-- in b
$d/bin:/first:$c/bin:$p
$d/lib64:/ufirst:$c/lib64:/ulast
-- out
/first:$c/bin:$p
/ufirst:$c/lib64:/ulast
-- out, with /added
/first:$c/bin:$p:/added
/ufirst:$c/lib64:/ulast" hook_session fish <"$HOME/session" &&
	stderr_lacks "cuenv: error" &&
	# In b, the user's entry for 12.4's libraries is foreign: a warning.
	stderr_has "cuenv: warning: LD_LIBRARY_PATH entry $c/lib64 (libcu" &&
	stderr_has "can shadow cuda 11.8.0"
