#!/bin/sh
# The hook starts no process at a prompt where nothing changed: a wrapper
# standing in for the cuenv binary counts its runs. Prompts in an
# unchanged folder add none (also in a project, and where the .cuenv is
# bad); one cd adds exactly one. t2160 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

w=$E2E_SANDBOX/wrap/cuenv
c=$HOME/toolkits/cuda-12.4
need "$hook_shell" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj/src bad "${w%/*}" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	printf 'cuda = 12.4.x\n' >bad/.cuenv &&
	# The integration names the binary that printed it: print it from a
	# copy at the wrapper's place, then put the wrapper there.
	cp "$CUENV_BIN" "$w" &&
	"$w" init "$hook_shell" >"$HOME/init.sh" &&
	check "init does not name $w" grep -qF "'$w'" "$HOME/init.sh" &&
	rm "$w" &&
	printf '#!/bin/sh\necho run >>"%s/runs"\nexec "%s" "$@"\n' "$HOME" "$CUENV_BIN" >"$w" &&
	chmod 755 "$w" &&
	: >"$HOME/runs" &&
	# Files changed within 50ms of a run may cost one more (see
	# store_stamp): let the set-up age first.
	sleep 0.2 &&
	expect_stdout "first prompt 1
unchanged 1
-- cd proj
cd 2
12.4.1
unchanged 2
-- cd src
cd 3
unchanged 3
-- cd bad
cd 4
none
unchanged 4
-- cd ..
cd 5
unchanged 5" hook_session "$hook_shell" <<'EOF_SESSION' &&
. "$HOME/init.sh"
n() { echo "$1 $(wc -l <"$HOME/runs" | tr -d ' ')"; }
n "first prompt"
:
:
true
false
:
n unchanged
cd proj
echo "-- cd proj"; n cd
echo "${CUENV_ACTIVE-none}"
:
:
:
:
:
n unchanged
cd src
echo "-- cd src"; n cd
:
:
:
n unchanged
cd ../../bad
echo "-- cd bad"; n cd
echo "${CUENV_ACTIVE-none}"
:
:
:
:
n unchanged
cd ..
echo "-- cd .."; n cd
:
:
:
n unchanged
EOF_SESSION
	stderr_has "$HOME/bad/.cuenv:1: invalid version '12.4.x'"
