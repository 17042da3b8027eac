#!/bin/sh
# cuenv finds cuenv-probe beside itself (the build tree) or, installed,
# in ../libexec/cuenv, like cuenv-net; without it, check says what it
# looked for.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-check.sh"

probe=$(dirname "$CUENV_BIN")/cuenv-probe
check "no cuenv-probe beside $CUENV_BIN" [ -x "$probe" ] &&
	check_driver 550.54.15 12040 &&
	check_cuda 12.4.1 &&
	mkdir -p proj inst/bin inst/libexec/cuenv &&
	cp "$CUENV_BIN" inst/bin/cuenv &&
	cd proj &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 2 "$HOME/inst/bin/cuenv" check &&
	stderr_has "cuenv: error: cuenv check needs cuenv-probe, which is not installed (looked for $HOME/inst/bin/cuenv-probe, $HOME/inst/bin/../libexec/cuenv/cuenv-probe)" &&
	cp "$probe" "$HOME/inst/libexec/cuenv/cuenv-probe" &&
	expect_code 0 "$HOME/inst/bin/cuenv" check &&
	stdout_has "ok: 4 of 5 layers passed" &&
	# the probe links libc only, and never CUDA, curl or OpenSSL
	if command -v readelf >/dev/null 2>&1; then
		readelf -d "$probe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >needed &&
			cat needed &&
			check "cuenv-probe needs more than libc: $(cat needed)" \
				sh -c '! grep -v "^libc\.so\|^libdl\.so\|^libpthread\.so\|^libasan\.so\|^libubsan\.so\|^libm\.so\|^libgcc_s\.so\|^libstdc++\.so" needed'
	fi
