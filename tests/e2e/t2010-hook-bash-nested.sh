#!/bin/sh
# The hook follows the selection: nested projects (the inner .cuenv wins,
# leaving it goes back to the outer), the global default outside projects,
# and changes made at the prompt (.cuenv edited, created, removed; the
# global file; a version registered elsewhere) are picked up at the next
# prompt. t2110 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need "$hook_shell" &&
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
none|unset|$p" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
show() { echo "${CUENV_ACTIVE-none}|${CUDA_HOME-unset}|$PATH"; }
show
cd outer
echo "-- outer"; show
cd inner
echo "-- inner"; show
cd ..
echo "-- back in outer"; show
cd inner/deeper
echo "-- inner/deeper"; show
cd "$HOME"
echo "-- home"; show
cd outer
printf 'cuda = 11.8\n' >.cuenv
echo "-- outer/.cuenv edited"; show
rm .cuenv
echo "-- removed"; show
printf '12.4\n' >.cuenv
echo "-- created"; show
cuenv local 12.6 2>/dev/null
echo "-- cuenv local"; show
cd "$HOME"
echo "-- home again"; show
printf 'cuda = 11.8\n' >"$CUENV_ROOT/version"
echo "-- global edited"; show
cuenv add cuda "$HOME/toolkits/cuda-13.0.1" >/dev/null
cuenv global 13.0.1 2>/dev/null
echo "-- cuenv global"; show
command cuenv remove 13.0.1 >/dev/null
echo "-- removed elsewhere"; show
command cuenv add cuda "$HOME/toolkits/cuda-13.0.1" >/dev/null
echo "-- registered elsewhere"; show
rm "$CUENV_ROOT/version"
echo "-- global removed"; show
EOF_SESSION
	stderr_has "cuenv: error: cuda 13.0.1 is not installed (set by $CUENV_ROOT/version)"
