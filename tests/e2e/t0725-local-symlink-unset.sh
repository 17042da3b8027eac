#!/bin/sh
# `cuenv local --unset` in a project whose .cuenv is a symbolic link
# refuses, naming the link and its target: the target is not deleted (nor
# the link), and nothing claims to have removed .cuenv. t0720 covers
# setting a version and `cuenv global`.
. "$(dirname "$0")/lib.sh"

mkdir shared proj &&
	printf 'cuda = 12.4\n' >shared/cuenv &&
	ln -s ../shared/cuenv proj/.cuenv &&
	cd proj &&
	expect_code 7 cuenv local --unset &&
	stderr_has "'$HOME/proj/.cuenv' is a symbolic link to '../shared/cuenv'" &&
	stderr_lacks "removed" &&
	file_is "$HOME/shared/cuenv" "cuda = 12.4" &&
	check "the link was removed" [ -L .cuenv ]
