#!/bin/sh
# `cuenv use` through the integration: it overrides the directory's
# selection in this shell (also after cd), `use system` turns cuenv off,
# a failed `use` changes nothing, and `use --unset` goes back to the
# directory's choice. t2120 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need "$hook_shell" &&
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
none|unset|unset|$p" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
show() { echo "${CUENV_ACTIVE-none}|${CUENV_VERSION-unset}|${CUDA_HOME-unset}|$PATH"; }
cd proj
show
cuenv use 11.8 2>/dev/null
echo "-- use 11.8"; show
cd "$HOME"
echo "-- cd out"; show
cd proj
cuenv version
cuenv use --unset 2>/dev/null
echo "-- use --unset"; show
cuenv version
cuenv use 12 --cudnn 9 2>/dev/null
echo "-- use 12 --cudnn 9"; show
cuenv use system 2>/dev/null
echo "-- use system"; show
cuenv use 10.2 2>/dev/null; rc=$?; echo "-- use 10.2"; echo "rc=$rc"
show
cuenv use --unset 2>/dev/null
echo "-- use --unset"; show
cd ..
echo "-- cd out"; show
EOF_SESSION
	no_cuenv_errors
