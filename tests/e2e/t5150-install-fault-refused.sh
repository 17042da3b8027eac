#!/bin/sh
# A mirror nobody listens on: the connection is refused, which is final
# (exit 4 naming the URL), and nothing is half made.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	port=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])') &&
	expect_code 4 env CUENV_MANIFESTS="$FX/manifests" CUENV_FETCH_BACKOFF_MS=2000 \
		cuenv install 12.4.1 --mirror "http://127.0.0.1:$port" &&
	stderr_has "cannot download 'http://127.0.0.1:$port/compute/cuda/redist/" &&
	stderr_lacks "attempts" &&
	nothing_half_made cuda 12.4.1
