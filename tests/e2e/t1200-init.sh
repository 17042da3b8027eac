#!/bin/sh
# cuenv init SHELL: the integration for bash, zsh and fish, naming this
# binary; it parses in its shell; other shells are refused.
. "$(dirname "$0")/lib.sh"

bin=$(readlink -f "$(command -v cuenv)")
expect_code 0 cuenv init bash &&
	stdout_has "'$bin'" &&
	stdout_has "_cuenv_hook" &&
	stdout_has "PROMPT_COMMAND" &&
	stdout_lacks "@CUENV_BIN@" &&
	cp "$E2E_OUT" "$HOME/init.bash" &&
	expect_code 0 cuenv init zsh &&
	stdout_has "precmd_functions" &&
	stdout_lacks "@CUENV_BIN@" &&
	cp "$E2E_OUT" "$HOME/init.zsh" &&
	expect_code 0 cuenv init fish &&
	stdout_has "--on-variable PWD" &&
	stdout_lacks "@CUENV_BIN@" &&
	cp "$E2E_OUT" "$HOME/init.fish" &&
	{ ! command -v bash >/dev/null || expect_code 0 bash -n "$HOME/init.bash"; } &&
	{ ! command -v zsh >/dev/null || expect_code 0 zsh -n "$HOME/init.zsh"; } &&
	{ ! command -v fish >/dev/null || expect_code 0 fish --no-execute "$HOME/init.fish"; } &&
	expect_code 2 cuenv init sh &&
	stderr_has "init: unsupported shell 'sh'" &&
	expect_code 2 cuenv init tcsh &&
	expect_code 2 cuenv init &&
	expect_code 2 cuenv init bash zsh &&
	# A binary in a folder with a quote and a space: the function calls it
	# by its absolute path, not through PATH.
	mkdir -p "$HOME/it's here" &&
	cp "$bin" "$HOME/it's here/cuenv" &&
	v=$(cuenv --version) &&
	for sh in bash zsh; do
		command -v $sh >/dev/null || continue
		"$HOME/it's here/cuenv" init $sh >"$HOME/init2.$sh" &&
			expect_stdout "$v" $sh -c '. "$1"; PATH=/nowhere; cuenv --version' \
				$sh "$HOME/init2.$sh" ||
			break
	done &&
	{ ! command -v fish >/dev/null ||
		{ "$HOME/it's here/cuenv" init fish >"$HOME/init2.fish" &&
			expect_stdout "$v" fish --no-config -c \
				'source $argv[1]; set PATH /nowhere; cuenv --version' \
				"$HOME/init2.fish"; }; }
