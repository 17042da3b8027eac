#!/bin/sh
# t2010 in fish: nested projects, the global default, and changes made at
# the prompt, picked up at the next fish_prompt.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need fish &&
	for v in 12.4.1 11.8.0 12.6.0 13.0.1; do
		make_fake_cuda "$t/cuda-$v" $v || break
	done &&
	for v in 12.4.1 11.8.0 12.6.0; do
		cuenv add cuda "$t/cuda-$v" >/dev/null || break
	done &&
	cuenv global 12.6 2>/dev/null &&
	mkdir -p outer/inner/deeper && printf 'cuda = 12.4\n' >outer/.cuenv &&
	printf 'cuda = 11.8  # older\n' >outer/inner/.cuenv &&
	p=$PATH &&
	a() { echo "$1|$t/cuda-$1|$t/cuda-$1/bin:$p"; } &&
	expect_stdout "$(a 12.6.0)
-- outer
$(a 12.4.1)
-- inner
$(a 11.8.0)
-- back in outer
$(a 12.4.1)
-- inner/deeper
$(a 11.8.0)
-- home
$(a 12.6.0)
-- outer/.cuenv edited
$(a 11.8.0)
-- removed
$(a 12.6.0)
-- created
$(a 12.4.1)
-- cuenv local
$(a 12.6.0)
-- home again
$(a 12.6.0)
-- global edited
$(a 11.8.0)
-- cuenv global
$(a 13.0.1)
-- removed elsewhere
none|unset|$p
-- registered elsewhere
$(a 13.0.1)
-- global removed
none|unset|$p" hook_session fish <<'EOF_SESSION' &&
cuenv init fish | source
function show
    set -q CUENV_ACTIVE; and set -l a $CUENV_ACTIVE; or set -l a none
    set -q CUDA_HOME; and set -l h $CUDA_HOME; or set -l h unset
    echo "$a|$h|"(string join : -- $PATH)
end
emit fish_prompt
show
cd outer; emit fish_prompt
echo "-- outer"; show
cd inner; emit fish_prompt
echo "-- inner"; show
cd ..; emit fish_prompt
echo "-- back in outer"; show
cd inner/deeper; emit fish_prompt
echo "-- inner/deeper"; show
cd $HOME; emit fish_prompt
echo "-- home"; show
cd outer; emit fish_prompt
printf 'cuda = 11.8\n' >.cuenv
emit fish_prompt
echo "-- outer/.cuenv edited"; show
rm .cuenv
emit fish_prompt
echo "-- removed"; show
printf '12.4\n' >.cuenv
emit fish_prompt
echo "-- created"; show
cuenv local 12.6 2>/dev/null
emit fish_prompt
echo "-- cuenv local"; show
cd $HOME; emit fish_prompt
echo "-- home again"; show
printf 'cuda = 11.8\n' >$CUENV_ROOT/version
emit fish_prompt
echo "-- global edited"; show
cuenv add cuda $HOME/toolkits/cuda-13.0.1 >/dev/null
cuenv global 13.0.1 2>/dev/null
emit fish_prompt
echo "-- cuenv global"; show
command cuenv remove 13.0.1 >/dev/null
emit fish_prompt
echo "-- removed elsewhere"; show
command cuenv add cuda $HOME/toolkits/cuda-13.0.1 >/dev/null
emit fish_prompt
echo "-- registered elsewhere"; show
rm $CUENV_ROOT/version
emit fish_prompt
echo "-- global removed"; show
EOF_SESSION
	stderr_has "cuenv: error: cuda 13.0.1 is not installed (set by $CUENV_ROOT/version)"
