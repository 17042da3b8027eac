#!/bin/sh
# Many cd's in and out of projects stack nothing: cuenv's entries appear
# once; a user entry equal to one of cuenv's is moved to the front while
# active and put back where it was; what the user adds while a project is
# active stays after leaving it. t2130 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
d=$t/cuda-11.8
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$d" 11.8.0 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$d" >/dev/null &&
	mkdir a b && printf 'cuda = 12.4\n' >a/.cuenv && printf 'cuda = 11.8\n' >b/.cuenv &&
	p=$PATH &&
	{
		echo 'export PATH="/first:$HOME/toolkits/cuda-12.4/bin:$PATH" LD_LIBRARY_PATH="/ufirst:$HOME/toolkits/cuda-12.4/lib64:/ulast"'
		echo 'eval "$(cuenv init $0)"'
		echo 'show() { echo "$PATH"; echo "$LD_LIBRARY_PATH"; }'
		i=0
		while [ $i -lt 15 ]; do
			echo 'cd a'
			echo 'cd ../b'
			echo 'cd "$HOME"'
			echo 'cd a/.'
			echo 'cd "$HOME/b"'
			i=$((i + 1))
		done
		echo 'cd "$HOME/a"'
		echo 'echo "-- in a"; show'
		echo 'cd ../b'
		echo 'echo "-- in b"; show'
		echo 'cd ..'
		echo 'echo "-- out"; show'
		echo 'cd a'
		echo 'PATH="$PATH:/added"'
		echo 'cd ..'
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
/ufirst:$c/lib64:/ulast" hook_session "$hook_shell" <"$HOME/session" &&
	stderr_lacks "cuenv: error" &&
	# In b, the user's entry for 12.4's libraries is foreign: a warning.
	stderr_has "cuenv: warning: LD_LIBRARY_PATH entry $c/lib64 (libcu" &&
	stderr_has "can shadow cuda 11.8.0"
