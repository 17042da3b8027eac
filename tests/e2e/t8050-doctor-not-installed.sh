#!/bin/sh
# Field failure (e): a .cuenv naming a version that is not installed. The
# same from CUENV_VERSION (cuenv use) and from the global default.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.9\ncudnn = 9\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 cuenv doctor &&
	said "selection: cuda 12.9 + cudnn 9, not available (set by $HOME/proj/.cuenv)" &&
	said "[selection-not-installed] cuda 12.9 is not installed (set by $HOME/proj/.cuenv); installed: 12.4.1" &&
	said "Could not load dynamic library 'libcudart.so.12'" &&
	said "fix: cuenv install 12.9 --cudnn 9" &&
	said "or: register a toolkit you have: cuenv add cuda PATH" &&
	expect_code 15 cuenv doctor --json &&
	said '"id": "selection-not-installed"' &&
	said "\"$HOME/proj/.cuenv\"" &&
	expect_code 15 env CUENV_VERSION=11 cuenv doctor &&
	said "cuda 11 is not installed (set by CUENV_VERSION, which cuenv use sets)" &&
	cd "$HOME" &&
	printf 'cuda = 10.2\n' >"$CUENV_ROOT/version" &&
	expect_code 15 cuenv doctor &&
	said "cuda 10.2 is not installed (set by $CUENV_ROOT/version)" &&
	said "libcudart.so.10.2" &&
	# A .cuenv that cannot be read at all.
	printf 'cuda = ../../bin\n' >proj/.cuenv &&
	cd proj &&
	expect_code 15 cuenv doctor &&
	said "[selection-invalid]"
