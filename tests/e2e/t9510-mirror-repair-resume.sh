#!/bin/sh
# cuenv mirror converges: a file in DIR with wrong bytes (same size, or cut
# short) is found on the next run and fetched again, and only it; a
# download that breaks leaves nothing under its final name and the next
# run resumes it with a range request; wrong bytes from the server are
# refused; archives already in the download cache are copied from it, not
# requested. A --runtime-only mirror serves --runtime-only installs.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
CUENV_FETCH_RETRIES=0
export CUENV_FETCH_RETRIES
cublas=$(comp 12.4.1 libcublas path)
cudart=$(comp 12.4.1 cuda_cudart path)
f=$m$cublas
sha=$(comp 12.4.1 libcublas sha256)
sha_of() {
	sha256sum "$1" | cut -d' ' -f1
}
requests() {
	wc -l <"$SERVER_LOG"
}

expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only &&
	stdout_has "mirrored 1 release (" &&
	stderr_lacks "cuda_nvcc" &&
	# Damaged in place, keeping its size.
	printf 'X' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null &&
	n=$(requests) &&
	expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only &&
	stderr_has "cuenv: replaced ${cublas#/}, whose bytes were wrong (" &&
	stdout_has "replaced 1 damaged file" &&
	assert_eq "$(sha_of "$f")" "$sha" "libcublas's sha256" &&
	assert_eq "$(sed -n "$((n + 1)),\$p" "$SERVER_LOG" | cut -d' ' -f1,2)" \
		"GET $cublas" "the requests of the repairing run" &&
	# Cut short.
	: >"$f" &&
	expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only &&
	stdout_has "replaced 1 damaged file" &&
	assert_eq "$(sha_of "$f")" "$sha" "libcublas's sha256" || exit 1

# A transfer that breaks after 64 KiB (no retries): nothing under the
# final name, the bytes kept in tmp; the next run asks for the rest.
rm "$f" &&
	serve_faults "{\"$cublas\": {\"drop_after\": 65536, \"times\": 1}}" &&
	expect_code 4 cuenv mirror "$m" 12.4.1 --runtime-only &&
	stderr_has "cuenv: error: " &&
	check "a half download is under its final name" [ ! -e "$f" ] &&
	check "the partial download was not kept" \
		[ -s "$m/.cuenv-mirror/tmp/$sha.part" ] &&
	serve_faults '{}' &&
	expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only &&
	check "the next run did not resume" \
		grep -q "^GET $cublas bytes=65536- 206\$" "$SERVER_LOG" &&
	assert_eq "$(sha_of "$f")" "$sha" "libcublas's sha256" &&
	check "a download was left in tmp" [ -z "$(ls -A "$m/.cuenv-mirror/tmp")" ] || exit 1

# Wrong bytes from the server: refused, nothing under the final name.
rm "$m$cudart" &&
	serve_faults "{\"$cudart\": {\"corrupt\": true}}" &&
	expect_code 5 cuenv mirror "$m" 12.4.1 --runtime-only &&
	stderr_has "cuenv: error: sha256 mismatch for '$SERVER_URL$cudart': expected $(comp 12.4.1 cuda_cudart sha256), got " &&
	check "the bad bytes are under the final name" [ ! -e "$m$cudart" ] &&
	check "the bad bytes were kept" [ -z "$(ls -A "$m/.cuenv-mirror/tmp")" ] &&
	serve_faults '{}' &&
	expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only || exit 1

# The download cache: what an install fetched is copied, not requested.
expect_code 0 cuenv install 11.8.0 --runtime-only &&
	n=$(requests) &&
	expect_code 0 cuenv mirror "$m" 11.8.0 --runtime-only &&
	c118=$(comp 11.8.0 libcublas path) &&
	stderr_has "cuenv: copied ${c118#/} from the cache (" &&
	stdout_has "fetched 0 (0 B), 4 from the cache" &&
	assert_eq "$(requests)" "$n" "requests to the server" || exit 1

# A node installs with the option the mirror was made with.
serve_stop SERVER
unset CUENV_MIRROR
CUENV_MANIFESTS=$m/cuenv-catalogue
export CUENV_MANIFESTS
as_root node &&
	expect_code 0 cuenv install --mirror "file://$m" 12.4.1 --runtime-only &&
	stdout_has "installed cuda 12.4.1" &&
	expect_code 0 cuenv install --mirror "file://$m" 11.8.0 --runtime-only &&
	as_root node2 &&
	expect_code 4 cuenv install --mirror "file://$m" 12.4.1 &&
	stderr_has "cuenv: error: cannot download 'file://$m$(comp 12.4.1 cuda_nvcc path)'" &&
	check "README.txt does not list both releases" \
		[ "$(grep -c '^  cuda 1[12]\..* (redist, linux-x86_64)' "$m/README.txt")" -eq 2 ]
