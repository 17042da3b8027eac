#!/bin/sh
# cuenv local keeps the file's comments (the one on the line it changes
# too), blank lines and order; --unset removes only cuenv's keys, and the
# file once nothing else is left; a bad file is never rewritten.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-12.6" 12.6.0 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-12.6" >/dev/null &&
	mkdir proj && cd proj &&
	cat >.cuenv <<'F' &&
# Project toolchain: keep in sync with CI.

cuda = 12.4   # what the cluster has
# no cudnn yet
F
	expect_code 0 cuenv local 12.6 &&
	sed '3s/ *#.*//' .cuenv >"$HOME/without-comment" &&
	file_is "$HOME/without-comment" "# Project toolchain: keep in sync with CI.

cuda = 12.6
# no cudnn yet" &&
	check "the comment on the cuda line is gone: $(sed -n 3p .cuenv)" \
		grep -qx 'cuda = 12\.6 *# what the cluster has' .cuenv &&
	expect_code 0 cuenv local --unset &&
	stderr_has "removed cuenv's keys from $HOME/proj/.cuenv" &&
	file_is .cuenv "# Project toolchain: keep in sync with CI.

# no cudnn yet" &&
	expect_output 1 "none (no $HOME/proj/.cuenv)" cuenv local &&
	# pyenv's bare version becomes a key.
	printf '# legacy\n12.4\n' >.cuenv &&
	expect_code 0 cuenv local 12.6 &&
	file_is .cuenv "# legacy
cuda = 12.6" &&
	# Only cuenv's keys: --unset removes the file.
	printf 'cuda = 12.4\nisolate = true\n' >.cuenv &&
	expect_code 0 cuenv local --unset &&
	stderr_has "removed $HOME/proj/.cuenv" &&
	check ".cuenv is still there" [ ! -e .cuenv ] &&
	expect_code 2 cuenv local --unset 12.4 &&
	# A file cuenv cannot parse is the user's: left alone.
	printf 'cuda = 12.4\nmystery = 1\n' >.cuenv &&
	expect_code 3 cuenv local 12.6 &&
	stderr_has "$HOME/proj/.cuenv:2: unknown key 'mystery'" &&
	stderr_has "fix or remove" &&
	expect_code 3 cuenv local --unset &&
	file_is .cuenv "cuda = 12.4
mystery = 1" &&
	# The file's mode is kept.
	printf 'cuda = 12.4\n' >.cuenv && chmod 640 .cuenv &&
	expect_code 0 cuenv local 12.6 &&
	assert_eq "$(stat -c %a .cuenv)" 640 "mode of .cuenv after rewrite" &&
	check "temporary files left behind: $(ls -A)" [ -z "$(ls -A | grep -v '^\.cuenv$')" ]
