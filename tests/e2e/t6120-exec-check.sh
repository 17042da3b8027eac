#!/bin/sh
# cuenv exec --check -- CMD: cuenv check's smoke test first; CMD runs (its
# stdout untouched by the report, its status passed through) only when
# every asked-for layer passes. A driver too old: a short report on
# stderr, check's exit code (10), and CMD never started. Nothing
# selected: exit 1 without running CMD.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	check_cudnn 9.1.0 12 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_stdout "ran 12.4.1+cudnn9.1.0" \
		cuenv exec --check -- sh -c 'echo ran $CUENV_ACTIVE' &&
	stderr_empty &&
	expect_code 3 cuenv exec --check sh -c 'exit 3' &&
	expect_code 127 cuenv exec --check -- no-such-command-here &&
	stderr_has "cannot run 'no-such-command-here'" || exit 1

# The driver too old for 12.4.1: the driver layer fails (exit 10).
check_driver 470.82.01 11040 &&
	expect_code 10 cuenv exec --check -- touch "$HOME/started" &&
	stdout_empty &&
	stderr_has "exec --check: the driver layer failed (driver 470.82.01 is too old for CUDA 12.4.1" &&
	stderr_has "not running 'touch'" &&
	stderr_has "hint: install an NVIDIA driver >= 550.54.15" &&
	check "CMD not started" test ! -e "$HOME/started" &&
	# the same code as cuenv check's
	expect_code 10 cuenv check &&
	# nothing selected: cuenv exec would run CMD bare; --check refuses
	cd "$HOME" &&
	expect_code 1 cuenv exec --check -- touch "$HOME/started" &&
	stderr_has "nothing selected here" &&
	check "CMD not started" test ! -e "$HOME/started" &&
	expect_code 0 cuenv exec -- true
