#!/bin/sh
# An installed cuenv finds its data relative to itself: `make install
# DESTDIR=... PREFIX=...` from a copy of the build, then the copy deleted
# and the installed tree moved elsewhere, and every command run from
# there: list-remote, install (local server), update (file:// mirror),
# versions, local, version, lock, install --locked, needs, modules, help,
# which, env, exec, completion, init, check (the probe from libexec),
# doctor, gc, uninstall. The
# installed catalogue is the fixtures' one, so a binary that reads any
# other (a source tree's path compiled in) installs nothing. Also `make
# uninstall` leaves none of cuenv's folders behind.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need make
src=$(cd "$e2e/../.." && pwd) || exit 1
bin=$(dirname "$CUENV_BIN")
copy=$E2E_SANDBOX/clone
not() { ! "$@"; }

# A copy of what `make install` reads: the Makefile, the data, and the
# three binaries under test and the manual page beside them (as old as
# their sources: -o, never rebuilt).
mkdir -p "$copy/build/std" &&
	cp -p "$src/Makefile" "$copy/" &&
	cp -pR "$src/manifests" "$src/shells" "$src/tools" "$copy/" &&
	for b in cuenv cuenv-net cuenv-probe cuenv.1; do
		cp -p "$bin/$b" "$copy/build/std/$b" || exit 1
	done || exit 1
mk() {
	make -s -C "$copy" -o build/std/cuenv -o build/std/cuenv-net \
		-o build/std/cuenv-probe -o build/std/cuenv.1 \
		-o build/std/manifests "$@"
}

# make uninstall removes what make install put, libexec/cuenv included,
# and the folders it made (it left bin/, share/man/man1 and the
# completion folders, empty); everything under the prefix, nothing in
# /etc (fish's completion went to /etc/fish/completions).
d1=$E2E_SANDBOX/dest1
mkdir "$d1" &&
	expect_code 0 mk install DESTDIR="$d1" PREFIX=/opt/cuenv &&
	check "no libexec/cuenv/cuenv-net installed" \
		[ -x "$d1/opt/cuenv/libexec/cuenv/cuenv-net" ] &&
	check "installed outside the prefix: $(ls "$d1")" \
		[ "$(ls "$d1")" = opt ] &&
	check "no fish completion in the prefix" [ -f \
		"$d1/opt/cuenv/share/fish/vendor_completions.d/cuenv.fish" ] &&
	expect_code 0 mk uninstall DESTDIR="$d1" PREFIX=/opt/cuenv &&
	check "make uninstall left: $(find "$d1" -mindepth 1)" \
		[ -z "$(find "$d1" -mindepth 1)" ] &&
	check "make uninstall left libexec/cuenv" \
		[ ! -e "$d1/opt/cuenv/libexec/cuenv" ] &&
	check "make uninstall left share/cuenv" \
		[ ! -e "$d1/opt/cuenv/share/cuenv" ] || exit 1

# Installed with DESTDIR, then the clone deleted and the tree moved.
d2=$E2E_SANDBOX/dest2
p=$E2E_SANDBOX/moved/cuenv
expect_code 0 mk install DESTDIR="$d2" PREFIX=/usr/local &&
	rm -rf "$copy" &&
	mkdir -p "$E2E_SANDBOX/moved" &&
	mv "$d2/usr/local" "$p" &&
	rm -rf "$d2" || exit 1
# Its catalogue: the fixtures', less one release that update then adds.
fixtures &&
	rm -rf "$p/share/cuenv/manifests" &&
	cp -R "$FX/manifests" "$p/share/cuenv/manifests" &&
	rm "$p/share/cuenv/manifests/cuda/redistrib_12.4.0.json" &&
	serve_start "$FX/mirror" || exit 1
PATH=$p/bin:/usr/bin:/bin
CUENV_MIRROR=$SERVER_URL
CUENV_FETCH_BACKOFF_MS=10
export PATH CUENV_MIRROR CUENV_FETCH_BACKOFF_MS
unset CUENV_MANIFESTS CUENV_LIBEXEC

v=$CUENV_ROOT/versions/cuda/12.4.1
expect_stdout "$p/bin/cuenv" command -v cuenv &&
	expect_code 0 cuenv --version &&
	expect_code 0 cuenv list-remote cuda --all &&
	stdout_has 12.4.1 &&
	stdout_lacks 12.4.0 &&
	stdout_lacks 12.3.2 &&
	expect_code 0 cuenv install 12.4.1 --quiet &&
	check "cuda 12.4.1 was not installed" [ -f "$v/.cuenv-receipt" ] &&
	expect_code 0 cuenv update --mirror "file://$FX/mirror" &&
	check "update kept nothing in CUENV_ROOT/manifests" \
		[ -f "$CUENV_ROOT/manifests/cuda/redistrib_12.4.0.json" ] &&
	expect_code 0 cuenv list-remote cuda --all &&
	stdout_has 12.4.0 &&
	expect_code 0 cuenv versions &&
	stdout_has 12.4.1 || exit 1

mkdir proj && cd proj || exit 1
expect_code 0 cuenv local 12.4.1 &&
	expect_code 0 cuenv version &&
	stdout_has 12.4.1 &&
	expect_code 0 cuenv lock &&
	check "cuenv lock wrote no .cuenv.lock" [ -s .cuenv.lock ] &&
	expect_code 0 cuenv lock --check &&
	expect_code 0 cuenv install --locked --quiet &&
	expect_code 0 cuenv needs "$v/lib/libcublas.so.12" &&
	expect_code 0 cuenv modules "$HOME/modulefiles" &&
	expect_code 0 cuenv help env &&
	expect_stdout "$v/lib/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_code 0 cuenv env --format json &&
	stdout_has "\"CUDA_HOME\": \"$v\"" &&
	expect_code 0 cuenv exec -- sh -c 'echo "$CUENV_ACTIVE $CUDA_HOME"' &&
	stdout_has "12.4.1 $v" &&
	expect_code 0 cuenv completion bash &&
	expect_code 0 cuenv init bash || exit 1
# check: the probe is found in the moved libexec/cuenv and runs (no GPU
# here, so it may fail, but not for want of cuenv-probe or the tables).
_capture cuenv check &&
	check "check could not find cuenv-probe or the tables (exit $E2E_RC)" \
		not grep -q 'cuenv-probe, which is not\|no compatibility tables' \
		"$E2E_ERR" &&
	check "check failed with a usage error or crashed (exit $E2E_RC)" \
		[ "$E2E_RC" -ne 2 ] && check "no report from check" \
		grep -q 'driver\|device' "$E2E_OUT" "$E2E_ERR" && not _crashed &&
	_capture cuenv doctor &&
	check "doctor found no tables" not grep -q 'no compatibility tables' \
		"$E2E_ERR" "$E2E_OUT" &&
	check "doctor crashed or failed to run (exit $E2E_RC)" [ "$E2E_RC" -le 1 ] &&
	expect_code 0 cuenv gc &&
	cd "$HOME" &&
	expect_code 0 cuenv uninstall 12.4.1 &&
	check "uninstall left cuda 12.4.1" [ ! -e "$v" ]
