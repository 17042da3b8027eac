#!/bin/sh
# cuenv help, --help, -h, no arguments, COMMAND --help and --version. No
# arguments prints the help and exits 1 (it exited 0); the summaries line
# up after the longest command name (list-remote ran into its own).
. "$(dirname "$0")/lib.sh"

cmds="add env exec global help init local remove uninstall use version versions which"
# Their stdout is shell code for eval: their help goes to stderr.
shell_cmds="env export init use"

check_cmd_help() {
	for c in $cmds; do
		case " $shell_cmds " in
		*" $c "*) out=$E2E_ERR other=stdout_empty ;;
		*) out=$E2E_OUT other=stderr_empty ;;
		esac
		expect_code 0 cuenv "$c" --help &&
			head -n 1 "$out" >"$E2E_SANDBOX/first" &&
			check "cuenv $c --help: first line is not 'usage: cuenv $c ...'" \
				grep -q "^usage: cuenv $c\( \|$\)" "$E2E_SANDBOX/first" &&
			$other || return 1
		cp "$out" "$E2E_SANDBOX/cmd-help" &&
			expect_stdout "$(cat "$E2E_SANDBOX/cmd-help")" cuenv help "$c" &&
			expect_code 0 cuenv "$c" -h &&
			check "cuenv $c -h differs from --help" \
				cmp -s "$out" "$E2E_SANDBOX/cmd-help" ||
			return 1
	done
}

expect_code 0 cuenv help &&
	stderr_empty &&
	check "cuenv help does not start with its usage line" \
		grep -qx 'usage: cuenv COMMAND \[ARGS\]' "$E2E_OUT" &&
	for c in $cmds; do
		check "cuenv help does not list $c" grep -q "^  $c  *[a-z]" "$E2E_OUT"
	done &&
	stdout_lacks "  export " &&
	top=$(cat "$E2E_OUT") &&
	expect_stdout "$top" cuenv --help &&
	expect_stdout "$top" cuenv -h &&
	# no command: the help, and exit 1 (as git and pyenv)
	expect_output 1 "$top" cuenv &&
	# every summary starts in one column, two spaces or more after the
	# longest name (list-remote ran into its summary)
	cols=$(sed -n '/^Commands:$/,/^$/p' "$E2E_OUT" | grep '^  [a-z]' |
		awk '{ match($0, /^  [a-z-]+ +/); print RLENGTH }' | sort -u) &&
	check "summaries start in columns: $cols" [ "$(echo "$cols" | wc -l)" -eq 1 ] &&
	check "a command runs into its summary" \
		sh -c '! grep -Eq "^  [a-z-]+ [a-z]" "$1"' - "$E2E_OUT" &&
	check_cmd_help &&
	expect_code 0 cuenv --version &&
	check "cuenv --version: '$(cat "$E2E_OUT")'" grep -Eq '^cuenv [0-9]+\.[0-9]+\.[0-9]+( \([0-9a-f]+\))?$' "$E2E_OUT" &&
	expect_stdout "$(cat "$E2E_OUT")" cuenv -V &&
	expect_code 2 cuenv help bogus &&
	stderr_has "'bogus' is not a cuenv command" &&
	stdout_empty &&
	expect_code 2 cuenv help add remove &&
	stderr_has "too many arguments" &&
	# --help needs neither HOME nor a store
	expect_code 0 env -u HOME -u CUENV_ROOT cuenv versions --help &&
	stdout_has "usage: cuenv versions" &&
	check "--help created $CUENV_ROOT" [ ! -e "$CUENV_ROOT" ]
