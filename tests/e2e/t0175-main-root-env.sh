#!/bin/sh
# CUENV_ROOT must be absolute; trailing slashes do not matter; without
# CUENV_ROOT and HOME there is no store to use.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	expect_code 2 env CUENV_ROOT=relative/root cuenv add cuda "$c" &&
	stderr_has "CUENV_ROOT must be an absolute path, not 'relative/root'" &&
	check "a relative CUENV_ROOT was created" [ ! -e relative ] &&
	expect_code 0 env CUENV_ROOT="$CUENV_ROOT///" cuenv add cuda "$c" &&
	expect_code 0 env CUENV_ROOT="$CUENV_ROOT/" cuenv global 12.4 &&
	expect_stdout "12.4.1 (set by $CUENV_ROOT/version)" env CUENV_ROOT="$CUENV_ROOT//" cuenv version &&
	expect_code 2 env -u HOME -u CUENV_ROOT cuenv version &&
	stderr_has "neither CUENV_ROOT nor HOME is set" &&
	# An empty CUENV_ROOT is as good as unset: the default under HOME.
	expect_output 1 "none selected" env CUENV_ROOT= cuenv version
