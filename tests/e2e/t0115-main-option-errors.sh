#!/bin/sh
# A bad option or value is one error line that names the command, the
# option and the value, and a hint that works (`cuenv CMD --help`); no
# getopt line ("invalid option -- '-'") before it.
. "$(dirname "$0")/lib.sh"

# err CMD... : exit 2, nothing on stdout, exactly two lines on stderr
# (the error and its hint), the hint naming CMD's help.
err() {
	expect_code 2 cuenv "$@" &&
		stdout_empty &&
		check "cuenv $*: not one error line and a hint" \
			[ "$(wc -l <"$E2E_ERR")" -eq 2 ] &&
		check "cuenv $*: no hint line" grep -q '^hint: ' "$E2E_ERR"
}

err check --device x &&
	stderr_has "cuenv: error: check: --device must be a whole number from 0 to 1023, not 'x'" &&
	stderr_has "hint: see: cuenv check --help" &&
	err check --timeout 0 &&
	stderr_has "check: --timeout must be a whole number from 1 to 86400, not '0'" &&
	err check --device=-1 &&
	stderr_has "check: --device must be a whole number from 0 to 1023, not '-1'" &&
	err version --json &&
	stderr_has "cuenv: error: version: unknown option '--json'" &&
	stderr_has "hint: see: cuenv version --help" &&
	stderr_lacks "invalid option" &&
	err versions --jsn &&
	stderr_has "versions: unknown option '--jsn'" &&
	err versions -x &&
	stderr_has "versions: unknown option '-x'" &&
	err versions --json=yes &&
	stderr_has "versions: --json takes no value" &&
	err use --cudnn &&
	stderr_has "use: --cudnn needs a value" &&
	err local 12 --cudnn 9.x &&
	stderr_has "local: invalid --cudnn version '9.x'" &&
	err env --format csh &&
	stderr_has "env: unknown format 'csh'" &&
	stderr_has "hint: --format is one of: sh, bash, zsh, fish, json, dockerfile, github, cmd, powershell" &&
	err install --source tarball 12.4 &&
	stderr_has "install: unknown source 'tarball'" &&
	err install --jobs 0 &&
	stderr_has "install: --jobs must be a whole number from 1 to 64, not '0'" &&
	err gc --bogus &&
	stderr_has "gc: unknown option '--bogus'" &&
	err update --mirror &&
	stderr_has "update: --mirror needs a value" &&
	err list-remote foo &&
	stderr_has "list-remote: 'foo' is neither cuda, cudnn nor a version prefix" &&
	err exec --bogus -- true &&
	stderr_has "exec: unknown option '--bogus'" &&
	err modules --format yaml &&
	stderr_has "modules: unknown format 'yaml'" &&
	err add cudnn /x --cuda 0 &&
	stderr_has "add: --cuda must be a whole number from 1 to 99, not '0'" &&
	# --help wins over a bad option, whatever the order
	expect_code 0 cuenv versions --bogus --help &&
	stdout_has "usage: cuenv versions" &&
	# the hints work as printed
	expect_code 0 cuenv check --help &&
	expect_code 0 cuenv version --help
