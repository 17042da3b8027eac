#!/bin/sh
# Installs of releases that share archives (12.4.0 and 12.4.1 share four),
# two, three and four at once, in a loop with an empty store each round:
# every one exits 0 ("installed" or "already installed"), nothing says
# "Resource deadlock avoided" (process-wide fcntl locks between two
# installs' worker threads), both versions are whole, each shared archive
# is one pool tree linked into both, and .staging and the cache hold no
# .part or leftovers.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

# round N VERSION...: install all of them at once into an empty store.
round() {
	_r=$1
	shift
	rm -rf "$CUENV_ROOT"
	_i=0
	_pids=
	for _v in "$@"; do
		_i=$((_i + 1))
		cuenv install "$_v" >"$HOME/$_r.$_i.out" 2>"$HOME/$_r.$_i.err" &
		_pids="$_pids $!"
	done
	_i=0
	for _p in $_pids; do
		_i=$((_i + 1))
		wait "$_p"
		_rc=$?
		[ "$_rc" -eq 0 ] || {
			fail "round $_r: install $_i of '$*' exited $_rc: $(cat "$HOME/$_r.$_i.err")"
			return 1
		}
	done
	for _v in 12.4.0 12.4.1; do
		case " $* " in *" $_v "*) ;; *) continue ;; esac
		check "round $_r: no receipt for $_v" \
			[ -f "$CUENV_ROOT/versions/cuda/$_v/.cuenv-receipt" ] || return 1
	done
	check "round $_r: a .part is left in the cache: $(ls "$CUENV_ROOT/cache")" \
		sh -c '! ls "$1" | grep -q "\.part$"' sh "$CUENV_ROOT/cache" &&
		staging_empty &&
		# the shared cuBLAS is one pool file linked into both versions
		if [ -e "$CUENV_ROOT/versions/cuda/12.4.0" ] &&
			[ -e "$CUENV_ROOT/versions/cuda/12.4.1" ]; then
			assert_eq "$(nlink "$CUENV_ROOT/versions/cuda/12.4.1/lib/libcublasLt.so.12.4.5.8")" 3 \
				"round $_r: links to the shared libcublasLt"
		fi
}

use_mirror || exit 1
r=0
for set in "12.4.0 12.4.1" "12.4.1 12.4.0 12.4.1" "12.4.0 12.4.1 12.4.0 12.4.1"; do
	for k in 1 2 3 4 5; do
		r=$((r + 1))
		# shellcheck disable=SC2086 # the set is a list of versions
		round "$r" $set || break 2
	done
done
check "an install said 'deadlock'" sh -c '! grep -l -i deadlock "$1"/*.err' sh "$HOME" &&
	expect_code 0 cuenv versions &&
	stdout_has "12.4.0" && stdout_has "12.4.1"
