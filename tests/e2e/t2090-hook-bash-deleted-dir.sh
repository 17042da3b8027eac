#!/bin/sh
# The working directory deleted under the shell: the hook warns once (not
# at every prompt) and the .cuenv files left on $PWD's path decide, so the
# deleted folder's own activation is dropped and its parent project's
# comes back. t2190 runs this in zsh, t2290 in fish.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

c12=$HOME/toolkits/cuda-12.4
c11=$HOME/toolkits/cuda-11.8
need "$hook_shell" &&
	make_fake_cuda "$c12" 12.4.1 &&
	make_fake_cuda "$c11" 11.8.0 &&
	cuenv add cuda "$c12" >/dev/null &&
	cuenv add cuda "$c11" >/dev/null &&
	mkdir -p proj/gone &&
	printf 'cuda = 11.8\n' >proj/.cuenv &&
	printf 'cuda = 12.4\n' >proj/gone/.cuenv &&
	# Files changed within 50ms of a run may cost one more (see
	# store_stamp): let the set-up age first.
	sleep 0.2 &&
	case $hook_shell in
	fish) script='cuenv init fish | source
cd proj/gone
echo "in: $CUDA_HOME"
rm -rf "$HOME/proj/gone"
emit fish_prompt
emit fish_prompt
emit fish_prompt
emit fish_prompt
echo "gone: $CUDA_HOME"
cd "$HOME"
echo "home: $CUDA_HOME."' ;;
	*) script='eval "$(cuenv init $0)"
cd proj/gone
echo "in: $CUDA_HOME"
rm -rf "$HOME/proj/gone"
:
:
:
:
echo "gone: $CUDA_HOME"
cd "$HOME"
echo "home: ${CUDA_HOME-}."' ;;
	esac &&
	expect_stdout "in: $c12
gone: $c11
home: ." hook_session "$hook_shell" <<EOF_SESSION &&
$script
EOF_SESSION
	stderr_lacks "cuenv: error" &&
	assert_eq "$(grep -c 'cuenv: warning' "$E2E_ERR")" 1 "warnings" &&
	stderr_has "cuenv: warning: the working directory '$HOME/proj/gone' no longer exists"
