#!/bin/sh
# A registered toolkit's files stay where `cuenv add` found them, outside
# the root: the folders down to them are checked as a root's are. A
# toolkit added from a folder another user owns is refused at activation
# (env, exec), with one error naming that folder and a fix that works as
# printed; so that user cannot put their own nvcc in the toolkit's place
# after it was added. Needs root, to give the folder to nobody.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (chown nobody)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
nobody=$(id -u nobody)
theirs=$HOME/theirs
c=$theirs/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	expect_code 0 cuenv add cuda "$c" &&
	mkdir -p "$HOME/proj" &&
	printf 'cuda = 12.4\n' >"$HOME/proj/.cuenv" &&
	cd "$HOME/proj" &&
	expect_code 0 cuenv env &&
	stdout_has "$c/bin" &&
	# The folder above the toolkit is another user's: refused.
	chown nobody "$theirs" &&
	expect_code 7 cuenv env &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody: cuenv does not trust '$c' beneath it" &&
	stderr_has "hint: fix it with: chown 0 '$theirs'" &&
	stdout_empty &&
	expect_code 7 cuenv exec -- true &&
	# The fix, as printed.
	chown 0 "$theirs" &&
	expect_code 0 cuenv env &&
	# The toolkit writable by others: refused too.
	chmod o+w "$c" &&
	expect_code 7 cuenv env &&
	stderr_has "'$c'" &&
	chmod o-w "$c" &&
	expect_code 0 cuenv exec -- true
