#!/bin/sh
# t2020 in fish: `cuenv use` overrides the directory in this shell, a
# failed `use` changes nothing, `use --unset` goes back.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need fish &&
	make_fake_cuda "$t/cuda-12.4.1" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8.0" 11.8.0 &&
	make_fake_cudnn "$t/cudnn-9_cuda12-archive" 9.1.0 12 &&
	cuenv add cuda "$t/cuda-12.4.1" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8.0" >/dev/null &&
	cuenv add cudnn "$t/cudnn-9_cuda12-archive" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\n' >proj/.cuenv &&
	p=$PATH &&
	a() { echo "$1|${2:-unset}|$t/cuda-${1%%+*}|$t/cuda-${1%%+*}/bin:$p"; } &&
	expect_stdout "$(a 12.4.1)
-- use 11.8
$(a 11.8.0 11.8)
-- cd out
$(a 11.8.0 11.8)
11.8.0 (set by CUENV_VERSION, which cuenv use sets)
-- use --unset
$(a 12.4.1)
12.4.1 (set by $HOME/proj/.cuenv)
-- use 12 --cudnn 9
12.4.1+cudnn9.1.0|12|$t/cuda-12.4.1|$t/cuda-12.4.1/bin:$p
-- use system
none|system|unset|$p
-- use 10.2
rc=9
none|system|unset|$p
-- use --unset
$(a 12.4.1)
-- cd out
none|unset|unset|$p" hook_session fish <<'EOF_SESSION' &&
cuenv init fish | source
function show
    set -q CUENV_ACTIVE; and set -l a $CUENV_ACTIVE; or set -l a none
    set -q CUENV_VERSION; and set -l v $CUENV_VERSION; or set -l v unset
    set -q CUDA_HOME; and set -l h $CUDA_HOME; or set -l h unset
    echo "$a|$v|$h|"(string join : -- $PATH)
end
cd proj; emit fish_prompt
show
cuenv use 11.8 2>/dev/null; emit fish_prompt
echo "-- use 11.8"; show
cd $HOME; emit fish_prompt
echo "-- cd out"; show
cd proj; emit fish_prompt
cuenv version
cuenv use --unset 2>/dev/null; emit fish_prompt
echo "-- use --unset"; show
cuenv version
cuenv use 12 --cudnn 9 2>/dev/null; emit fish_prompt
echo "-- use 12 --cudnn 9"; show
cuenv use system 2>/dev/null; emit fish_prompt
echo "-- use system"; show
cuenv use 10.2 2>/dev/null; set rc $status; emit fish_prompt
echo "-- use 10.2"; echo "rc=$rc"
show
cuenv use --unset 2>/dev/null; emit fish_prompt
echo "-- use --unset"; show
cd ..; emit fish_prompt
echo "-- cd out"; show
EOF_SESSION
	no_cuenv_errors
