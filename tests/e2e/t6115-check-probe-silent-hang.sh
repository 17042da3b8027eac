#!/bin/sh
# A probe that closes its output and then hangs is still killed after
# --timeout seconds, and blamed on the step it last named: the deadline
# covers the wait for its exit, not only the reading of its output.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

sleep_bin=$(command -v sleep) || skip "no sleep"
mkdir -p "$HOME/libexec" &&
	printf '%s\n' '#!/bin/sh' \
		"echo '{\"stage\":\"driver\"}'" \
		'exec >&- 2>&-' \
		"exec $sleep_bin 300" >"$HOME/libexec/cuenv-probe" &&
	chmod +x "$HOME/libexec/cuenv-probe" &&
	check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir proj && cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	t0=$(date +%s) &&
	expect_code 10 env CUENV_LIBEXEC="$HOME/libexec" cuenv check --timeout 1 &&
	stderr_has "cuenv: error: driver: cuenv-probe did not finish within 1 seconds in its driver step" &&
	# killed after 1 s, not after the probe's 300 s
	took_at_most "$t0" 10
