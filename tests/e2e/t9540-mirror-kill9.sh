#!/bin/sh
# A cuenv mirror killed (-9) in the middle of a download leaves no file
# under its final name, only its bytes in .cuenv-mirror/tmp; the next run
# resumes from them, and a node installs from the result.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
cublas=$(comp 12.4.1 libcublas path)
sha=$(comp 12.4.1 libcublas sha256)
part=$m/.cuenv-mirror/tmp/$sha.part
# 200 KB/s: libcublas (1.6 MB) takes eight seconds.
serve_faults "{\"$cublas\": {\"trickle\": 200000, \"times\": 1}}" || exit 1
cuenv mirror "$m" 12.4.1 >"$HOME/a.out" 2>"$HOME/a.err" &
pid=$!
i=0
while [ "$(stat -c %s "$part" 2>/dev/null || echo 0)" -lt 100000 ] &&
	[ "$i" -lt 1000 ]; do
	i=$((i + 1))
	sleep 0.01
done
kill9 "$pid" 2>/dev/null
have=$(stat -c %s "$part" 2>/dev/null || echo 0)
check "the download did not start" [ "$have" -ge 100000 ] &&
	check "a half libcublas is under its final name" [ ! -e "$m$cublas" ] &&
	serve_faults '{}' &&
	expect_code 0 cuenv mirror "$m" 12.4.1 &&
	check "the next run did not resume" \
		grep -q "^GET $cublas bytes=[1-9][0-9]*- 206\$" "$SERVER_LOG" &&
	assert_eq "$(sha256sum "$m$cublas" | cut -d' ' -f1)" "$sha" "libcublas's sha256" &&
	check "the partial download was left" [ ! -e "$part" ] || exit 1

serve_stop SERVER
unset CUENV_MIRROR
CUENV_MANIFESTS=$m/cuenv-catalogue
export CUENV_MANIFESTS
as_root node &&
	expect_code 0 cuenv install --mirror "file://$m" 12.4.1 &&
	stdout_has "installed cuda 12.4.1"
