#!/bin/sh
# cuenv add on a toolkit whose version.json cannot be read as NVIDIA's few
# KB: a FIFO named version.json is refused at once (it waited forever for
# a writer before, in jansson's json_load_file), a 200 MB one (sparse)
# after reading its first MiB (it was read whole before: 65 s, 411 MB),
# each a one-line error naming the file, with the way out (--as VERSION),
# which then registers it with a warning. The other version sources
# (version.txt, the headers) as FIFOs are passed over at once. Every run
# is under timeout, so a hang fails the test (124) instead of the suite.
. "$(dirname "$0")/lib.sh"

need mkfifo
need python3
t=$HOME/toolkits
make_fake_cuda "$t/fifo" 12.4.1 &&
	rm "$t/fifo/version.json" && mkfifo "$t/fifo/version.json" &&
	expect_code 7 timeout "$(load_bound 10)" cuenv add cuda "$t/fifo" &&
	stderr_has "cuenv: error: '$t/fifo/version.json' is a FIFO, device or socket, not a file" &&
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines" &&
	stderr_has "hint: name it: cuenv add cuda $t/fifo --as VERSION" &&
	expect_code 0 cuenv versions &&
	stdout_empty &&
	# named: registered, the file said to be passed over
	expect_code 0 timeout "$(load_bound 10)" cuenv add cuda "$t/fifo" --as 12.4.1 &&
	stderr_has "'$t/fifo/version.json' is a FIFO, device or socket, not a file: not read" &&
	expect_stdout "  cuda   12.4.1                $t/fifo  (registered)" cuenv versions ||
	exit 1

make_fake_cuda "$t/big" 12.6.0 &&
	truncate -s 200M "$t/big/version.json" &&
	t0=$(date +%s) &&
	expect_code 7 peak_rss "$HOME/rss" timeout "$(load_bound 10)" cuenv add cuda "$t/big" &&
	took_at_most "$t0" 5 &&
	stderr_has "cuenv: error: '$t/big/version.json' is larger than 1048576 bytes" &&
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines" &&
	check "add used $(cat "$HOME/rss") KiB for a 200 MB version.json" \
		[ "$(cat "$HOME/rss")" -lt 65536 ] &&
	expect_code 0 cuenv versions &&
	stdout_has "12.4.1" &&
	stdout_lacks "12.6" &&
	# The other sources, FIFOs too, are passed over at once: the version
	# comes from the runtime's file name (major.minor).
	make_fake_cuda "$t/fifos" 12.8.1 &&
	rm "$t/fifos/version.json" "$t/fifos/include/cuda_runtime_api.h" &&
	mkfifo "$t/fifos/version.txt" "$t/fifos/include/cuda_runtime_api.h" \
		"$t/fifos/include/cupti_version.h" &&
	expect_code 0 timeout "$(load_bound 10)" cuenv add cuda "$t/fifos" &&
	expect_code 0 cuenv versions &&
	stdout_has "  cuda   12.8                  $t/fifos  (registered)"
