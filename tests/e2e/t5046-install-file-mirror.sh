#!/bin/sh
# A mirror on disk: cuenv install --mirror file://DIR, with an archive
# (libcublas, 1.5 MB) larger than the 1 MiB that a transfer may hold
# unread. libcurl's file protocol cannot pause, so cuenv reads file:// URLs
# itself; this failed with "Write callback asked for PAUSE when not
# supported" before. A file missing from the mirror is a final error that
# names its URL.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
fixtures || exit 1
export CUENV_MANIFESTS="$FX/manifests"
check "libcublas is not over 1 MiB" [ "$(comp 12.4.1 libcublas size)" -gt 1048576 ] &&
	expect_code 0 cuenv install 12.4.1 --mirror "file://$FX/mirror" &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "$v/lib/libcublasLt.so.12" cuenv which libcublasLt.so.12 &&
	staging_empty &&
	# a copy of the mirror that lacks 11.8.0's libcublas
	mkdir -p "$HOME/m" &&
	cp -R "$FX/mirror/compute" "$HOME/m/" &&
	rm "$HOME/m/$(comp 11.8.0 libcublas path)" &&
	expect_code 4 cuenv install 11.8.0 --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: cannot download 'file://$HOME/m$(comp 11.8.0 libcublas path)': No such file or directory" &&
	nothing_half_made cuda 11.8.0
