#!/bin/sh
# cuenv version when the selection names something missing (9) or the
# file is bad (3): the message names the file (and line) and what is
# installed.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	mkdir proj && cd proj &&
	printf 'cuda = 11.8\n' >.cuenv &&
	expect_code 9 cuenv version &&
	stdout_empty &&
	stderr_has "cuda 11.8 is not installed (set by $HOME/proj/.cuenv); installed: 12.4.1" &&
	stderr_has "hint: " &&
	printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 9 cuenv version &&
	stderr_has "cudnn 9 for CUDA 12 is not installed" &&
	printf 'cuda = 12.4\ncupti = 11.2\n' >.cuenv &&
	expect_code 9 cuenv version &&
	stderr_has "no installed CUDA 11.2 provides CUPTI" &&
	printf '# ok\ncuda = 12.4\ncudaa = 1\n' >.cuenv &&
	expect_code 3 cuenv version &&
	stderr_has "$HOME/proj/.cuenv:3: unknown key 'cudaa'" &&
	printf 'cuda = 12.4\ncuda = 12.4\n' >.cuenv &&
	expect_code 3 cuenv version &&
	stderr_has "$HOME/proj/.cuenv:2: duplicate key 'cuda'" &&
	printf 'cudnn = 9\n' >.cuenv &&
	expect_code 3 cuenv version &&
	stderr_has "no 'cuda' key" &&
	printf 'cuda = 12.4\nisolate = maybe\n' >.cuenv &&
	expect_code 3 cuenv version &&
	stderr_has ".cuenv:2: isolate must be true or false" &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 3 env CUENV_VERSION='12.4;rm' cuenv version &&
	stderr_has "invalid version '12.4;rm' in CUENV_VERSION" &&
	# An unreadable .cuenv is an error, not silently skipped.
	chmod 000 .cuenv &&
	if [ "$(id -u)" -ne 0 ]; then
		expect_code 7 cuenv version && stderr_has "$HOME/proj/.cuenv"
	fi
