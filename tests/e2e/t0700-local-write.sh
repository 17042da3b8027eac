#!/bin/sh
# cuenv local writes ./.cuenv (only installed versions unless --force) and
# shows it; bad versions are refused before anything is written.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cudnn "$t/cudnn_cuda12-archive" 9.1.0 12 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cudnn "$t/cudnn_cuda12-archive" >/dev/null &&
	mkdir proj && cd proj &&
	expect_output 1 "none (no $HOME/proj/.cuenv)" cuenv local &&
	expect_code 0 cuenv local 12.4 &&
	stderr_has "cuenv: wrote $HOME/proj/.cuenv" &&
	file_is .cuenv "cuda = 12.4" &&
	expect_stdout "12.4 ($HOME/proj/.cuenv)" cuenv local &&
	expect_code 0 cuenv local 12.4.1 --cudnn 9 --isolate &&
	file_is .cuenv "cuda = 12.4.1
cudnn = 9
isolate = true" &&
	expect_stdout "12.4.1 + cudnn 9, isolated ($HOME/proj/.cuenv)" cuenv local &&
	expect_stdout "12.4.1 + cudnn 9.1.0 (set by $HOME/proj/.cuenv)" cuenv version &&
	# Changing cuda keeps the cudnn the file had.
	expect_code 0 cuenv local 12 --no-isolate &&
	file_is .cuenv "cuda = 12
cudnn = 9
isolate = false" &&
	# Not installed: refused, file unchanged, --force named.
	expect_code 9 cuenv local 11.8 &&
	stderr_has "cuda 11.8 is not installed" &&
	stderr_has "--force" &&
	expect_code 9 cuenv local 12 --cudnn 8 &&
	file_is .cuenv "cuda = 12
cudnn = 9
isolate = false" &&
	expect_code 0 cuenv local 11.8 --force &&
	file_is .cuenv "cuda = 11.8
cudnn = 9
isolate = false" &&
	expect_code 0 cuenv local system &&
	file_is .cuenv "cuda = system
cudnn = 9
isolate = false" &&
	for bad in ../../../bin '12.4; touch pwned' '$(touch pwned)' '12.4 ' '' 12..4 v12; do
		expect_code 2 cuenv local "$bad" &&
			stderr_has "invalid cuda version" || break
	done &&
	expect_code 2 cuenv local 12.4 --cudnn '`touch pwned`' &&
	expect_code 2 cuenv local 12.4 --bogus &&
	expect_code 2 cuenv local 12.4 11.8 &&
	file_is .cuenv "cuda = system
cudnn = 9
isolate = false" &&
	nothing_named pwned
