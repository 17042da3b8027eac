#!/bin/sh
# cuenv mirror's bad input gives one line naming the value at fault and a
# non-zero exit, with nothing written: an unknown SPEC, cuDNN or platform,
# an unknown source, no SPEC, a DIR that is a file or under one, a
# CUENV_FETCH_* that is not a number, an unwritable DIR. Two runs into
# one DIR take turns: the second waits for the first and then finds
# everything there.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
one_line() {
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines"
}

expect_code 17 cuenv mirror "$m" 99.9 &&
	stderr_has "cuenv: error: no CUDA 99.9 in the catalogue" && one_line &&
	expect_code 17 cuenv mirror "$m" 12.4.1 --cudnn 7.0 &&
	stderr_has "cuenv: error: no cuDNN 7.0 for CUDA 12 in the catalogue" &&
	expect_code 17 cuenv mirror "$m" 11.2 --platform linux-sbsa &&
	stderr_has "cuenv: error: no CUDA 11.2 in the catalogue for linux-sbsa" &&
	expect_code 2 cuenv mirror "$m" 12.4.1 --platform linux-x86_64,linux-foo &&
	stderr_has "cuenv: error: mirror: unknown platform 'linux-foo'" && one_line &&
	expect_code 2 cuenv mirror "$m" 12.4.1 --source conda &&
	stderr_has "cuenv: error: mirror: unknown source 'conda'" &&
	expect_code 2 cuenv mirror "$m" ../12 &&
	stderr_has "'../12'" &&
	expect_code 2 cuenv mirror "$m" &&
	stderr_has "cuenv: error: mirror: give at least one SPEC or --for" &&
	expect_code 2 cuenv mirror &&
	expect_code 2 cuenv mirror "$m" 12.4.1 --components cuda_cudart --runtime-only &&
	expect_code 2 cuenv mirror "$m" 12.4.1 --mirror ftp://x &&
	stderr_has "cuenv: error: mirror: mirror 'ftp://x' is not https://, http:// or file://" &&
	expect_code 2 cuenv mirror "$m" 12.4.1 --components cuda_nope &&
	stderr_has "cuenv: error: cuda 12.4.1 has no component 'cuda_nope'" &&
	check "a failed run wrote DIR" [ ! -e "$m" ] &&
	: >"$HOME/file" &&
	expect_code 7 cuenv mirror "$HOME/file" 12.4.1 &&
	stderr_has "cuenv: error: '$HOME/file' is not a folder" && one_line &&
	expect_code 7 cuenv mirror "$HOME/file/m" 12.4.1 &&
	stderr_has "cuenv: error: cannot use '$HOME/file/m': Not a directory" &&
	assert_eq "$(wc -l <"$SERVER_LOG")" 0 "requests to the server" || exit 1

# Each number read from the environment is checked, naming the variable
# ("abc" is not 0 retries), before anything is fetched or written.
for var in CUENV_FETCH_TIMEOUT CUENV_FETCH_MAX_BYTES CUENV_FETCH_LOW_SPEED \
	CUENV_FETCH_RETRIES CUENV_FETCH_STALL_SECONDS CUENV_FETCH_BACKOFF_MS; do
	expect_code 2 env "$var=abc" cuenv mirror "$m" 12.4.1 &&
		stderr_has "cuenv: error: $var must be a whole number from 0 to " &&
		one_line &&
		expect_code 2 env "$var=" cuenv mirror "$m" 12.4.1 &&
		stderr_has "cuenv: error: $var must be a whole number" &&
		check "$var=abc wrote DIR" [ ! -e "$m" ] || exit 1
done
assert_eq "$(wc -l <"$SERVER_LOG")" 0 "requests to the server" || exit 1

# Unwritable (root writes anywhere: only as another user).
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$HOME/ro" && chmod 555 "$HOME/ro" &&
		expect_code 7 cuenv mirror "$HOME/ro" 12.4.1 &&
		stderr_has "cuenv: error: cannot write to '$HOME/ro': Permission denied" || exit 1
fi

# Two runs at once: the second waits, then has nothing to fetch.
cublas=$(comp 12.4.1 libcublas path)
serve_faults "{\"$cublas\": {\"trickle\": 1000000, \"times\": 1}}" &&
	{ cuenv mirror "$m" 12.4.1 >"$HOME/a.out" 2>"$HOME/a.err" & } &&
	apid=$! &&
	i=0 &&
	while ! grep -q "^GET $cublas " "$SERVER_LOG" && [ "$i" -lt 500 ]; do
		i=$((i + 1))
		sleep 0.01
	done &&
	expect_code 0 cuenv mirror "$m" 12.4.1 &&
	stderr_has "cuenv: another cuenv mirror is writing '$m'; waiting for it" &&
	stdout_has "fetched 0 (0 B), 0 from the cache, 7 already there" &&
	wait "$apid" &&
	check "the first run did not fetch libcublas" grep -qF "cuenv: fetched ${cublas#/}" "$HOME/a.err" &&
	assert_eq "$(grep -c "^GET $cublas " "$SERVER_LOG")" 1 "requests for libcublas" &&
	# Another platform: its archives (which the tests' server lacks).
	expect_code 4 cuenv mirror "$m" 12.4.1 --platform linux-x86_64,linux-sbsa &&
	stderr_has "cuenv: error: cannot download '$SERVER_URL/compute/cuda/redist/cuda_cudart/linux-sbsa/" &&
	check "a linux-sbsa file is in the mirror" \
		[ -z "$(find "$m" -name '*sbsa*')" ]
