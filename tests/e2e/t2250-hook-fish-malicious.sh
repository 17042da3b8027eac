#!/bin/sh
# t2050 in fish: malicious .cuenv values are rejected with file and line,
# nothing runs, the shell stays deactivated until the file is fixed.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir good m1 m2 m3 m4 &&
	printf 'cuda = 12.4\n' >good/.cuenv &&
	printf 'cuda = ../../../bin\n' >m1/.cuenv &&
	printf '# looks harmless\ncuda = 12.4; touch pwned\n' >m2/.cuenv &&
	printf 'cuda = (touch pwned)\n' >m3/.cuenv &&
	printf "cuda = 12.4\ncudnn = 9'; touch pwned; '\n" >m4/.cuenv &&
	p=$PATH &&
	expect_stdout "12.4.1|$c/bin:$p
-- m1
none|$p
-- m2
none|$p
-- m3
none|$p
-- m4
none|$p
-- good again
12.4.1|$c/bin:$p
-- m1 fixed
12.4.1|$c/bin:$p" hook_session fish <<'EOF_SESSION' &&
cuenv init fish | source
function show
    set -q CUENV_ACTIVE; and set -l a $CUENV_ACTIVE; or set -l a none
    echo "$a|"(string join : -- $PATH)
end
cd good; emit fish_prompt
show
cd ../m1; emit fish_prompt
echo "-- m1"; show
cd ../good; cd ../m2; emit fish_prompt
echo "-- m2"; show
cd ../good; cd ../m3; emit fish_prompt
echo "-- m3"; show
cd ../good; cd ../m4; emit fish_prompt
echo "-- m4"; show
cd ../good; emit fish_prompt
echo "-- good again"; show
cd ../m1; printf '# fixed\ncuda = 12.4\n' >.cuenv; emit fish_prompt
echo "-- m1 fixed"; show
EOF_SESSION
	stderr_has "cuenv: error: $HOME/m1/.cuenv:1: invalid version '../../../bin'" &&
	stderr_has "cuenv: error: $HOME/m2/.cuenv:2: invalid version '12.4; touch pwned'" &&
	stderr_has "cuenv: error: $HOME/m3/.cuenv:1: invalid version '(touch pwned)'" &&
	stderr_has "cuenv: error: $HOME/m4/.cuenv:2: invalid version '9'; touch pwned; ''" &&
	nothing_named pwned
