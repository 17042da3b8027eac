#!/bin/sh
# cuenv uninstall of a version in use asks first, naming who selects it:
# the project's .cuenv here, the global default (even where a project's
# file hides it) or this shell's CUENV_VERSION. Without a terminal it
# refuses with exit 18 and says how to force it; --force and -f skip the
# question; a version nothing selects goes without one. On a terminal
# (tmux) a no keeps it (exit 1), a yes removes it. It was removed with no
# question, and the next prompt said "unloaded" and an error.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

v=$CUENV_ROOT/versions/cuda
for x in 11.8.0 12.0.1 12.2.2 12.4.1; do
	make_installed_cuda "$x" || exit 1
done
mkdir -p "$HOME/p" && cd "$HOME/p" &&
	cuenv local 12.2.2 >/dev/null &&
	cuenv global 12.4.1 >/dev/null || exit 1

# No terminal: refused, each selection named, nothing removed.
expect_code 18 cuenv uninstall 12.2.2 </dev/null &&
	stderr_has "cuenv: error: cuda 12.2.2 is in use: selected by $HOME/p/.cuenv" &&
	stderr_has "hint: uninstall it anyway: cuenv uninstall --force cuda 12.2.2" &&
	check "uninstall removed a version in use" [ -d "$v/12.2.2" ] &&
	expect_code 18 cuenv uninstall 12.4.1 </dev/null &&
	stderr_has "selected by the global default ($CUENV_ROOT/version)" &&
	expect_code 18 env CUENV_VERSION=12.2 cuenv uninstall 12.2.2 </dev/null &&
	stderr_has "selected by this shell's CUENV_VERSION and $HOME/p/.cuenv" &&
	cd "$HOME" &&
	expect_code 0 cuenv uninstall 12.2.2 </dev/null &&
	stdout_has "uninstalled cuda 12.2.2" &&
	make_installed_cuda 12.2.2 &&
	expect_code 18 env CUENV_VERSION=11.8.0 cuenv uninstall 11.8.0 </dev/null &&
	stderr_has "selected by this shell's CUENV_VERSION" &&
	check "uninstall removed a version in use" [ -d "$v/11.8.0" ] &&
	expect_code 0 env CUENV_VERSION=11.8.0 cuenv uninstall -f 11.8.0 </dev/null &&
	check "uninstall -f kept it" [ ! -e "$v/11.8.0" ] &&
	expect_code 0 cuenv uninstall 12.0.1 </dev/null &&
	stderr_empty &&
	cd "$HOME/p" &&
	expect_code 0 cuenv uninstall --force 12.4.1 </dev/null &&
	check "uninstall --force kept it" [ ! -e "$v/12.4.1" ] || exit 1

# On a terminal: asked, and the answer decides.
cat >"$HOME/rc" <<'EOF2'
PS1='$ '
EOF2
tty_start bash "$HOME/rc" &&
	tty_type "cd $HOME/p" "cuenv uninstall 12.2.2" "n" 'echo "rc=$?"' &&
	tty_screen "$HOME/screen1" &&
	{ [ -d "$v/12.2.2" ] || fail "a no removed it"; } &&
	tty_type "cuenv uninstall 12.2.2" "y" 'echo "rc=$?"' &&
	tty_screen "$HOME/screen2" &&
	tty_stop || exit 1
cat "$HOME/screen1"
check "no question on the terminal" grep -qF \
	"cuenv: cuda 12.2.2 is selected by $HOME/p/.cuenv; uninstall it? [y/N] n" \
	"$HOME/screen1" &&
	check "no kept note" grep -qx "cuenv: kept cuda 12.2.2" "$HOME/screen1" &&
	check "a no did not exit 1" grep -qx "rc=1" "$HOME/screen1" &&
	check "a yes did not remove it" [ ! -e "$v/12.2.2" ] &&
	check "a yes did not say so" grep -qx "uninstalled cuda 12.2.2" "$HOME/screen2" &&
	check "a yes did not exit 0" grep -qx "rc=0" "$HOME/screen2"
