#!/bin/sh
# In the shell: entering a project warns about a foreign CUDA folder on
# LD_LIBRARY_PATH; with `isolate = true` (or `cuenv use --isolate`) it is
# stripped, and leaving puts it back where it was. t3110 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
f=$HOME/foreign/lib
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p "$f" plain isolated &&
	fake_elf libcupti.so.11.2 "$f/libcupti.so.11.2" &&
	printf 'cuda = 12.4\n' >plain/.cuenv &&
	printf 'cuda = 12.4\nisolate = yes\n' >isolated/.cuenv &&
	# A file changed within 50ms of a hook run costs one more run (see
	# store_stamp), which would warn twice: let the set-up age first.
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
/user/lib:$f:/user/last" hook_session "$hook_shell" <<'EOF_SESSION' &&
export LD_LIBRARY_PATH="/user/lib:$HOME/foreign/lib:/user/last"
eval "$(cuenv init $0)"
echo "$LD_LIBRARY_PATH"
cd plain
echo "-- plain"; echo "$LD_LIBRARY_PATH"; echo "--- entered plain" >&2
cd ..
echo "-- out"; echo "$LD_LIBRARY_PATH"; echo "--- left plain" >&2
cd isolated
echo "-- isolated"; echo "$LD_LIBRARY_PATH"
cd ..
echo "-- out"; echo "$LD_LIBRARY_PATH"
cuenv use 12.4 --isolate 2>/dev/null
echo "-- use --isolate"; echo "$LD_LIBRARY_PATH"
cuenv use --unset 2>/dev/null
echo "-- use --unset"; echo "$LD_LIBRARY_PATH"
EOF_SESSION
	# One warning, on entering plain; none for the isolated ones.
	assert_eq "$(grep -c "cuenv: warning" "$E2E_ERR")" 1 "number of warnings" &&
	awk '/--- entered plain/ { exit } /cuenv: warning/' "$E2E_ERR" >"$HOME/entering" &&
	check "no shadowing warning on entering plain" grep -qF \
		"cuenv: warning: LD_LIBRARY_PATH entry $f (libcupti.so.11.2) holds CUDA libraries that can shadow cuda 12.4.1" \
		"$HOME/entering"
