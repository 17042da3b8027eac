#!/bin/sh
# A folder whose path holds ':' (or ';', or a newline) would split its
# entries in PATH and LD_LIBRARY_PATH ("/opt/tool:kit/bin" gives the
# relative "kit/bin"): `cuenv add` refuses it with one line naming the
# path, and registers nothing. A link to it whose path is clean does not
# help, as cuenv records the real path.
. "$(dirname "$0")/lib.sh"

t=$HOME/tool:kit
make_fake_cuda "$t" 12.4.1 &&
	expect_code 2 cuenv add cuda "$t" &&
	stderr_has "cuenv: error: the folder '$t' holds a ':', which would split its entry in PATH or LD_LIBRARY_PATH" &&
	assert_eq "$(grep -c 'cuenv: error' "$E2E_ERR")" 1 "error lines" &&
	check "something was registered" [ -z "$(ls "$CUENV_ROOT/versions/cuda")" ] &&
	ln -s "$t" "$HOME/clean" &&
	expect_code 2 cuenv add cuda "$HOME/clean" &&
	stderr_has "the folder '$t' holds a ':'" &&
	check "something was registered" [ -z "$(ls "$CUENV_ROOT/versions/cuda")" ] &&
	make_fake_cuda "$HOME/semi;colon" 12.4.1 &&
	expect_code 2 cuenv add cuda "$HOME/semi;colon" &&
	stderr_has "the folder '$HOME/semi;colon' holds a ';'" &&
	make_fake_cudnn "$HOME/cudnn:9" 9.1.0 12 &&
	expect_code 2 cuenv add cudnn "$HOME/cudnn:9" &&
	stderr_has "the folder '$HOME/cudnn:9' holds a ':'" &&
	check "something was registered" [ -z "$(ls "$CUENV_ROOT/versions/cudnn")" ] &&
	expect_stdout "" cuenv versions &&
	stderr_has "nothing installed yet"
