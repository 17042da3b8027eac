#!/bin/sh
# A root whose path holds ':' (or ';', or a newline) would put split,
# relative entries into PATH: CUENV_ROOT, the default root under such a
# HOME, and CUENV_SYSTEM_ROOTS entries are refused with one line naming
# the path, before anything is created; `cuenv install` too. Empty entries
# of CUENV_SYSTEM_ROOTS ("a::b", a trailing ':') are still ignored.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	expect_code 2 env CUENV_ROOT="$HOME/r:oot" cuenv add cuda "$c" &&
	stderr_has "cuenv: error: CUENV_ROOT '$HOME/r:oot' holds a ':', which would split its entry in PATH or LD_LIBRARY_PATH" &&
	check "the root was created" [ ! -e "$HOME/r:oot" ] &&
	check "the root was created" [ ! -e "$HOME/r" ] &&
	expect_code 2 env CUENV_ROOT="$HOME/r:oot" cuenv install 12.4 &&
	stderr_has "CUENV_ROOT '$HOME/r:oot' holds a ':'" &&
	check "the root was created" [ ! -e "$HOME/r:oot" ] &&
	expect_code 2 env CUENV_ROOT="$HOME/r;oot" cuenv version &&
	stderr_has "CUENV_ROOT '$HOME/r;oot' holds a ';'" &&
	mkdir "$HOME/h:ome" &&
	expect_code 2 env -u CUENV_ROOT HOME="$HOME/h:ome" cuenv versions &&
	stderr_has "cuenv's root '$HOME/h:ome/.cuenv' holds a ':'" &&
	check "the root was created" [ ! -e "$HOME/h:ome/.cuenv" ] &&
	# CUENV_SYSTEM_ROOTS is a ':' list: its entries cannot hold one, but
	# a newline or a relative entry is refused, not skipped.
	cuenv add cuda "$c" >/dev/null &&
	expect_code 2 env CUENV_SYSTEM_ROOTS="/opt/sys
x" cuenv versions &&
	stderr_has "CUENV_SYSTEM_ROOTS entry '/opt/sys\\x0ax' holds a newline" &&
	expect_code 2 env CUENV_SYSTEM_ROOTS="/opt/sys:kit" cuenv versions &&
	stderr_has "CUENV_SYSTEM_ROOTS entry 'kit' is not an absolute path" &&
	expect_code 0 env CUENV_SYSTEM_ROOTS="::/nonexistent:" cuenv versions &&
	stdout_has "12.4.1"
