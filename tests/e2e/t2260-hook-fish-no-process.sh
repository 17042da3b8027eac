#!/bin/sh
# t2060 in fish: a wrapper standing in for the cuenv binary counts its
# runs; prompts (emit fish_prompt) in an unchanged folder add none, one
# cd adds exactly one.
. "$(dirname "$0")/lib.sh"

w=$E2E_SANDBOX/wrap/cuenv
c=$HOME/toolkits/cuda-12.4
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj/src bad "${w%/*}" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	printf 'cuda = 12.4.x\n' >bad/.cuenv &&
	cp "$CUENV_BIN" "$w" &&
	"$w" init fish >"$HOME/init.fish" &&
	check "init does not name $w" grep -qF "'$w'" "$HOME/init.fish" &&
	rm "$w" &&
	printf '#!/bin/sh\necho run >>"%s/runs"\nexec "%s" "$@"\n' "$HOME" "$CUENV_BIN" >"$w" &&
	chmod 755 "$w" &&
	: >"$HOME/runs" &&
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
unchanged 5" hook_session fish <<'EOF_SESSION' &&
source $HOME/init.fish
function n; echo $argv[1] (count (cat $HOME/runs)); end
emit fish_prompt
n "first prompt"
emit fish_prompt; emit fish_prompt; emit fish_prompt
n unchanged
cd proj; emit fish_prompt
echo "-- cd proj"; n cd
set -q CUENV_ACTIVE; and echo $CUENV_ACTIVE; or echo none
emit fish_prompt; emit fish_prompt; emit fish_prompt; emit fish_prompt
n unchanged
cd src; emit fish_prompt
echo "-- cd src"; n cd
emit fish_prompt; emit fish_prompt
n unchanged
cd ../../bad; emit fish_prompt
echo "-- cd bad"; n cd
set -q CUENV_ACTIVE; and echo $CUENV_ACTIVE; or echo none
emit fish_prompt; emit fish_prompt; emit fish_prompt
n unchanged
cd ..; emit fish_prompt
echo "-- cd .."; n cd
emit fish_prompt; emit fish_prompt
n unchanged
EOF_SESSION
	stderr_has "$HOME/bad/.cuenv:1: invalid version '12.4.x'"
