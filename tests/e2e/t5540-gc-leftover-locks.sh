#!/bin/sh
# Lock files go with what they lock: uninstall removes its version's
# .locks/<kind>-<name>.lock; gc removes those of versions not installed
# (an install killed before it finished left one) and the archive records
# .locks/<sha>.lock that name no pool tree or cache file left, so after
# uninstalling everything and gc --cache .locks/ is empty (it held a file
# per version and per archive ever installed). Hook stamps of shells that
# ended (run/<pid>.stamp) go at gc and at install; a live shell's stays.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

locks=$CUENV_ROOT/.locks
run=$CUENV_ROOT/run
# A pid that no process has: a child that has ended.
dead=$(sh -c 'echo $$')
kill -0 "$dead" 2>/dev/null && skip "pid $dead was taken again"

use_mirror &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart,libcublas &&
	check "no lock of cuda 12.4.1 while installed" [ -f "$locks/cuda-12.4.1.lock" ] &&
	: >"$locks/cuda-11.8.0.lock" &&
	: >"$locks/cudnn-9.1.0.70-cuda12.lock" &&
	mkdir -p "$run" && : >"$run/$dead.stamp" && : >"$run/$$.stamp" &&
	expect_code 0 cuenv gc &&
	check "gc kept the lock of cuda 11.8.0, which is not installed" \
		[ ! -e "$locks/cuda-11.8.0.lock" ] &&
	check "gc kept the lock of a cudnn not installed" \
		[ ! -e "$locks/cudnn-9.1.0.70-cuda12.lock" ] &&
	check "gc removed the lock of an installed version" \
		[ -f "$locks/cuda-12.4.1.lock" ] &&
	check "gc kept a dead shell's stamp" [ ! -e "$run/$dead.stamp" ] &&
	check "gc removed a live shell's stamp" [ -f "$run/$$.stamp" ] &&
	: >"$run/$dead.stamp" &&
	expect_code 0 cuenv install 12.4.0 --components cuda_cudart &&
	check "install kept a dead shell's stamp" [ ! -e "$run/$dead.stamp" ] &&
	check "install removed a live shell's stamp" [ -f "$run/$$.stamp" ] &&
	n=$(ls "$locks" | grep -c '^[0-9a-f]*\.lock$') &&
	check "no archive records" [ "$n" -gt 0 ] &&
	expect_code 0 cuenv gc --cache &&
	check "gc --cache took the records of archives versions use" \
		[ "$(ls "$locks" | grep -c '^[0-9a-f]*\.lock$')" -gt 0 ] &&
	expect_stdout "uninstalled cuda 12.4.1" cuenv uninstall 12.4.1 &&
	check "uninstall left the lock of cuda 12.4.1" \
		[ ! -e "$locks/cuda-12.4.1.lock" ] &&
	expect_code 0 cuenv uninstall 12.4.0 &&
	expect_code 0 cuenv gc --cache &&
	check "after everything was uninstalled, .locks holds: $(ls -A "$locks")" \
		[ -z "$(ls -A "$locks")" ] &&
	check "cache holds: $(ls -A "$CUENV_ROOT/cache")" \
		[ -z "$(ls -A "$CUENV_ROOT/cache")" ] &&
	check "pool holds: $(ls -A "$CUENV_ROOT/pool")" \
		[ -z "$(ls -A "$CUENV_ROOT/pool")" ]
