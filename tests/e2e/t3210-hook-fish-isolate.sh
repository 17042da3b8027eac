#!/bin/sh
# t3010 in fish: the shadowing warning on entering a project; isolate
# strips the foreign folder, leaving puts it back where it was.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
f=$HOME/foreign/lib
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p "$f" plain isolated &&
	fake_elf libcupti.so.11.2 "$f/libcupti.so.11.2" &&
	printf 'cuda = 12.4\n' >plain/.cuenv &&
	printf 'cuda = 12.4\nisolate = on\n' >isolated/.cuenv &&
	sleep 0.2 &&
	expect_stdout "/user/lib:$f:/user/last
-- plain
$c/lib64:/user/lib:$f:/user/last
-- out
/user/lib:$f:/user/last
-- isolated
$c/lib64:/user/lib:/user/last
-- out
/user/lib:$f:/user/last
-- use --isolate
$c/lib64:/user/lib:/user/last
-- use --unset
/user/lib:$f:/user/last" hook_session fish <<'EOF_SESSION' &&
set -gx LD_LIBRARY_PATH /user/lib $HOME/foreign/lib /user/last
cuenv init fish | source
emit fish_prompt
function show; string join : -- $LD_LIBRARY_PATH; end
show
cd plain; emit fish_prompt
echo "-- plain"; show; echo "--- entered plain" >&2
cd ..; emit fish_prompt
echo "-- out"; show
cd isolated; emit fish_prompt
echo "-- isolated"; show
cd ..; emit fish_prompt
echo "-- out"; show
cuenv use 12.4 --isolate 2>/dev/null; emit fish_prompt
echo "-- use --isolate"; show
cuenv use --unset 2>/dev/null; emit fish_prompt
echo "-- use --unset"; show
EOF_SESSION
	assert_eq "$(grep -c "cuenv: warning" "$E2E_ERR")" 1 "number of warnings" &&
	awk '/--- entered plain/ { exit } /cuenv: warning/' "$E2E_ERR" >"$HOME/entering" &&
	check "no shadowing warning on entering plain" grep -qF \
		"cuenv: warning: LD_LIBRARY_PATH entry $f (libcupti.so.11.2) holds CUDA libraries that can shadow cuda 12.4.1" \
		"$HOME/entering"
