#!/bin/sh
# cuenv doctor on a healthy selection: CUDA 12.4.1 with every library
# frameworks load, and cuDNN 9.1 built for CUDA 12. No problem and no
# warning, exit 0, as text and as JSON; run under cuenv exec (the
# activated environment) it has nothing to say at all.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

c=$HOME/toolkits/cuda-12.4
d=$HOME/cudnn-9.1
need cc &&
	doctor_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$d" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$d" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\ncudnn = 9.1\n' >proj/.cuenv &&
	cd proj &&
	expect_code 0 cuenv doctor &&
	stderr_empty &&
	said "selection: cuda 12.4.1 + cudnn 9.1.0 (set by $HOME/proj/.cuenv)" &&
	said "0 problems, 0 warnings, 1 info: no problem found" &&
	said "[not-activated] this shell does not carry the selection" &&
	stdout_lacks "problems:" &&
	stdout_lacks "warnings:" &&
	expect_code 0 cuenv exec -- cuenv doctor &&
	said "0 problems, 0 warnings, 0 info: no problem found" &&
	expect_code 0 cuenv doctor --json &&
	said '"problems": 0' &&
	said '"warnings": 0' &&
	said '"id": "not-activated"' &&
	said '"severity": "info"' &&
	said '"cudnn": "9.1.0"' &&
	# not carried by this shell: not active, though resolved
	said '"active": false' &&
	said '"resolved": true' &&
	expect_code 0 cuenv exec -- cuenv doctor --json &&
	said '"active": true' &&
	stdout_lacks "not-activated" &&
	expect_code 0 cuenv doctor --help &&
	said "usage: cuenv doctor [--json]" &&
	expect_code 0 cuenv help &&
	check "cuenv help does not list doctor" grep -q "^  doctor  *[a-z]" "$E2E_OUT" &&
	expect_code 2 cuenv doctor extra &&
	stderr_has "doctor: too many arguments" &&
	expect_code 2 cuenv doctor --bogus &&
	# Nothing selected: information only.
	cd "$HOME" &&
	expect_code 0 cuenv doctor &&
	said "selection: nothing selected" &&
	said "[nothing-selected]"
