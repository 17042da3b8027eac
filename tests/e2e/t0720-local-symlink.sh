#!/bin/sh
# A project's .cuenv that is a symbolic link (to a file shared between
# projects, or one planted there) is never written or deleted through:
# `cuenv local 12.4` and `cuenv local --unset` refuse, naming the link and
# its target, and leave both as they were. The same for `cuenv global`
# with a linked $CUENV_ROOT/version. Reading through the link still works.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
shared='# shared by every project
cuda = 12.4'
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-12.6" 12.6.0 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-12.6" >/dev/null &&
	mkdir shared proj &&
	printf '%s\n' "$shared" >shared/cuenv &&
	ln -s ../shared/cuenv proj/.cuenv &&
	cd proj &&
	expect_stdout "12.4 ($HOME/proj/.cuenv)" cuenv local &&
	expect_code 7 cuenv local 12.6 &&
	stderr_has "cuenv: error: '$HOME/proj/.cuenv' is a symbolic link to '../shared/cuenv': cuenv does not write or remove through it" &&
	stderr_has "hint: edit '../shared/cuenv' yourself, or remove the link (rm '$HOME/proj/.cuenv') and run this again" &&
	file_is "$HOME/shared/cuenv" "$shared" &&
	check "the link was replaced" [ -L .cuenv ] &&
	expect_code 7 cuenv local --unset &&
	stderr_has "is a symbolic link to '../shared/cuenv'" &&
	stderr_lacks "removed" &&
	file_is "$HOME/shared/cuenv" "$shared" &&
	check "the link was removed" [ -L .cuenv ] &&
	# What the hint says works: a file of the project's own.
	rm .cuenv &&
	expect_code 0 cuenv local 12.6 &&
	file_is .cuenv "cuda = 12.6" &&
	file_is "$HOME/shared/cuenv" "$shared" &&
	# cuenv global: the same for a linked global default.
	ln -s "$HOME/shared/cuenv" "$CUENV_ROOT/version" &&
	expect_code 7 cuenv global 12.6 &&
	stderr_has "'$CUENV_ROOT/version' is a symbolic link to '$HOME/shared/cuenv'" &&
	expect_code 7 cuenv global --unset &&
	file_is "$HOME/shared/cuenv" "$shared" &&
	check "the global link was removed" [ -L "$CUENV_ROOT/version" ]
