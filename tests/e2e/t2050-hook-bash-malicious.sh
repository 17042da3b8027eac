#!/bin/sh
# A .cuenv is data: values that try to name a path or run code are
# rejected with an error naming the file and line, nothing runs, and the
# shell is left deactivated until the file is fixed. t2150 runs this in
# zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir good m1 m2 m3 m4 &&
	printf 'cuda = 12.4\n' >good/.cuenv &&
	printf 'cuda = ../../../bin\n' >m1/.cuenv &&
	printf '# looks harmless\ncuda = 12.4; touch pwned\n' >m2/.cuenv &&
	printf 'cuda = $(touch pwned)\n' >m3/.cuenv &&
	printf 'cuda = 12.4\ncudnn = `touch pwned`\n' >m4/.cuenv &&
	(cd m1 && expect_code 3 cuenv version && stdout_empty &&
		stderr_has "cuenv: error: $HOME/m1/.cuenv:1: invalid version '../../../bin'") &&
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
12.4.1|$c/bin:$p" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
show() { echo "${CUENV_ACTIVE-none}|$PATH"; }
cd good
show
cd ../m1
echo "-- m1"; show
cd ../good; cd ../m2
echo "-- m2"; show
cd ../good; cd ../m3
echo "-- m3"; show
cd ../good; cd ../m4
echo "-- m4"; show
cd ../good
echo "-- good again"; show
cd ../m1; printf '# fixed\ncuda = 12.4\n' >.cuenv
echo "-- m1 fixed"; show
EOF_SESSION
	stderr_has "cuenv: error: $HOME/m1/.cuenv:1: invalid version '../../../bin'" &&
	stderr_has "cuenv: error: $HOME/m2/.cuenv:2: invalid version '12.4; touch pwned'" &&
	stderr_has "cuenv: error: $HOME/m3/.cuenv:1: invalid version '\$(touch pwned)'" &&
	stderr_has "cuenv: error: $HOME/m4/.cuenv:2: invalid version '\`touch pwned\`'" &&
	nothing_named pwned
