#!/bin/sh
# cuenv needs on a FIFO named like a wheel, a library or a metadata file:
# refused at once with a one-line error naming it, never waited on (it
# opened the wheel blocking before, and hung until a writer came). Each
# run is under timeout, so a hang fails the test (124) instead of the suite.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need mkfifo || exit 0
mkfifo "$HOME/x-1-py3-none-any.whl" "$HOME/x.so" &&
	expect_code 7 timeout "$(load_bound 10)" cuenv needs "$HOME/x-1-py3-none-any.whl" &&
	stderr_has "cuenv: error: '$HOME/x-1-py3-none-any.whl' is a FIFO, device or socket, not a file" &&
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines" &&
	expect_code 2 timeout "$(load_bound 10)" cuenv needs "$HOME/x.so" &&
	stderr_has "is not a file or a folder"
