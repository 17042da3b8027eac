#!/bin/sh
# cuenv's root must be a folder of its own: `/`, the system's folders
# directly beneath it (/usr, /opt, /home...) and any folder directly
# beneath /usr or /var are the system's, and are refused with one line
# naming the root and a hint, before anything is created or removed: as
# CUENV_ROOT, as the default root (HOME=/usr), and as what a link or ".."
# resolves to. /.cuenv (HOME=/, a container's) is a folder of its own. A cuenv that
# took them would write into the machine's own /, so as root the refused
# commands run as nobody, who cannot (from a copy of the binaries that
# nobody can reach).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" = 0 ]; then
	need setpriv
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	nb=$E2E_SANDBOX/nobody-bin
	mkdir "$nb" && cp "$CUENV_BIN" "$nb/cuenv" || exit 1
	net=$(dirname "$CUENV_BIN")/cuenv-net
	if [ -e "$net" ]; then cp "$net" "$nb/" || exit 1; fi
	chmod 755 "$nb" && chmod 711 "$E2E_SANDBOX" || exit 1
	confined() {
		setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" \
			--clear-groups env PATH="$nb:$PATH" "$@"
	}
	confined cuenv --version >/dev/null 2>&1 ||
		skip "nobody cannot run a copy of cuenv here"
else
	confined() { "$@"; }
fi
c=$HOME/toolkits/cuda-12.4
ls -a / >"$HOME/top.before" &&
	ls -a /usr >"$HOME/usr.before" &&
	make_fake_cuda "$c" 12.4.1 &&
	ln -s / "$HOME/slash" &&
	ln -s /usr "$HOME/usr" || exit 1
for r in / /// /usr /opt /home /var/lib /usr/local; do
	expect_code 2 confined env CUENV_ROOT="$r" cuenv add cuda "$c" &&
		stderr_has "cuenv: error: CUENV_ROOT '${r%%//}' is a folder the system shares: cuenv's root must be a folder of its own" &&
		stderr_has "hint: set CUENV_ROOT to a folder of cuenv's own, such as ~/.cuenv or /opt/cuenv" &&
		assert_eq "$(grep -c 'cuenv: error' "$E2E_ERR")" 1 "error lines"
done
expect_code 2 confined env CUENV_ROOT=/ cuenv install 12.4 &&
	expect_code 2 confined env CUENV_ROOT=/ cuenv gc --cache &&
	expect_code 2 confined env CUENV_ROOT=/ cuenv versions &&
	expect_code 2 confined env CUENV_ROOT=/ cuenv env &&
	# Links and "..": refused as what they resolve to.
	expect_code 2 confined env CUENV_ROOT="$HOME/slash" cuenv add cuda "$c" &&
	stderr_has "cuenv: error: CUENV_ROOT '$HOME/slash' is '/', a folder the system shares" &&
	expect_code 2 confined env CUENV_ROOT="$HOME/usr/lib" cuenv add cuda "$c" &&
	stderr_has "CUENV_ROOT '$HOME/usr/lib' is '/usr/lib', a folder the system shares" &&
	expect_code 2 confined env CUENV_ROOT="$HOME/slash/new/../var" cuenv add cuda "$c" &&
	stderr_has "is '/var', a folder the system shares" &&
	check "a folder was made on the way" [ ! -e /new ] &&
	expect_code 2 confined env -u CUENV_ROOT HOME=/usr cuenv add cuda "$c" &&
	stderr_has "cuenv: error: cuenv's root '/usr/.cuenv' is a folder the system shares" &&
	ls -a / >"$HOME/top.after" &&
	ls -a /usr >"$HOME/usr.after" &&
	check "/ changed" cmp -s "$HOME/top.before" "$HOME/top.after" &&
	check "/usr changed" cmp -s "$HOME/usr.before" "$HOME/usr.after" &&
	# A folder of its own is taken.
	expect_code 0 env CUENV_ROOT="$HOME/slash/$HOME/own" cuenv add cuda "$c" &&
	check "the root was not made" [ -f "$HOME/own/versions/cuda/12.4.1/.cuenv-receipt" ]
