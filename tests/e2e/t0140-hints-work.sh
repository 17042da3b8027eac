#!/bin/sh
# Hints work as printed: a curated list of scenarios, one per kind of
# failure a user meets, each printing a "hint:" line (or doctor's "fix:"
# lines); every cuenv command a hint names is then run, in the state where
# it was printed, and must succeed. Manual actions are listed with their
# reason in hints-manual.txt; a command with a placeholder (VERSION, PATH,
# ...) is a template and is not run. install --components foo hinted
# `list-remote cuda 12.4.1 --components`, an option that does not exist.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

ran=0

# hint_lines, hint_manual and hint_commands: lib.sh.

# hints_work LABEL: run every hint command of the last command, here.
hints_work() {
	hint_lines >"$HOME/hints"
	[ -s "$HOME/hints" ] || {
		fail "$1: printed no hint"
		return 1
	}
	while IFS= read -r h; do
		if hint_manual "$h"; then
			echo "$1: manual: $h"
			continue
		fi
		hint_commands "$h" >"$HOME/cmds"
		while IFS= read -r c; do
			echo "$1: running: $c"
			ran=$((ran + 1))
			sh -c "$c" >"$HOME/hint.out" 2>&1 </dev/null || {
				sed 's/^/    /' "$HOME/hint.out" >&2
				fail "$1: the hint does not work as printed: $c (from: $h)"
			}
		done <"$HOME/cmds"
	done <"$HOME/hints"
	return 0
}

t=$HOME/toolkits
use_mirror &&
	make_fake_cuda "$t/a" 12.4.1 &&
	make_fake_cuda "$t/b" 12.4.1 &&
	mkdir -p "$HOME/p" && cd "$HOME/p" || exit 1

# add: a version already in the store
expect_code 0 cuenv add cuda "$t/a" &&
	expect_code 16 cuenv add cuda "$t/b" &&
	hints_work "add twice" &&
	# now gone: it can be added again
	expect_code 0 cuenv add cuda "$t/a" &&
	# uninstall of a registered one
	expect_code 16 cuenv uninstall 12.4.1 &&
	hints_work "uninstall registered" &&
	# remove of an installed one
	make_installed_cuda 10.2.89 &&
	expect_code 16 cuenv remove 10.2.89 &&
	hints_work "remove installed" &&
	# a .cuenv naming what is not installed
	printf 'cuda = 11.8\n' >.cuenv &&
	expect_code 9 cuenv version &&
	hints_work "not installed" &&
	expect_code 0 cuenv version &&
	# local of what is not installed
	expect_code 9 cuenv local 12.4.0 &&
	hints_work "local not installed" &&
	expect_code 0 cuenv local 12.4.0 &&
	# install --components with a name the release lacks
	expect_code 2 cuenv install 12.4.1 --components cuda_cudart,libfoo &&
	stderr_lacks "list-remote" &&
	hints_work "components" &&
	# lock --check with no lock
	expect_code 1 cuenv lock --check &&
	hints_work "no lock" &&
	expect_code 0 cuenv lock --check &&
	# a .cuenv that cannot be read
	printf 'cuda = 12.4\nbogus = 1\n' >.cuenv &&
	expect_code 3 cuenv version &&
	hints_work "bad key" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	# use without the shell integration
	expect_code 2 env CUENV_SHELL= cuenv use 12.4.1 &&
	hints_work "use without integration" &&
	# doctor on a runtime-only install: its fix lines
	expect_code 0 cuenv install 12.4.1 --runtime-only &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	cuenv doctor >"$E2E_OUT" 2>"$E2E_ERR"
hints_work "doctor"
check "no hint command was run" [ "$ran" -gt 0 ]
echo "$ran hint commands ran"
