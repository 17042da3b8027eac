#!/bin/sh
# Redirects may only lead to https, even from an http mirror the user asked
# for: a 302 to plain http is refused (exit 4, naming the URL) and the
# target is never asked for; nothing is half made.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	serve_start "$FX/mirror" OTHER &&
	p=$(comp 12.4.1 cuda_cudart path) &&
	serve_faults "{\"$p\": {\"redirect\": \"$OTHER_URL$p\"}}" &&
	expect_code 4 cuenv install 12.4.1 &&
	stderr_has "cannot download '$SERVER_URL$p'" &&
	stderr_has "redirects only to https" &&
	expect_stdout "GET $p - 302" grep -F "$p" "$SERVER_LOG" &&
	expect_stdout "" cat "$OTHER_LOG" &&
	nothing_half_made cuda 12.4.1 &&
	serve_stop OTHER
