#!/bin/sh
# A damaged store (a stray folder, a receipt that is not JSON): cuenv
# versions lists the rest and says on stderr what it skipped, whether or
# not a selection is active here.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p "$CUENV_ROOT/versions/cuda/11.0.0" "$CUENV_ROOT/versions/cuda/junk" &&
	echo '{bad' >"$CUENV_ROOT/versions/cuda/11.0.0/.cuenv-receipt" &&
	bad="cuenv: warning: skipped an incomplete version: bad receipt '$CUENV_ROOT/versions/cuda/11.0.0/.cuenv-receipt'" &&
	junk="cuenv: warning: skipped an incomplete version: $CUENV_ROOT/versions/cuda/junk" &&
	expect_stdout "  cuda   12.4.1                $c  (registered)" cuenv versions &&
	stderr_has "$bad" &&
	stderr_has "$junk" &&
	# The same with a selection active.
	cuenv global 12.4 2>/dev/null &&
	expect_stdout "* cuda   12.4.1                $c  (registered)" cuenv versions &&
	stderr_has "$bad" &&
	stderr_has "$junk" &&
	expect_code 0 cuenv versions --json &&
	stderr_has "$bad" &&
	stderr_has "$junk"
