#!/bin/sh
# A catalogue file cut in the middle: exit 3 naming the file, before
# anything is downloaded or written.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	use_mirror "$FX/bad/corrupt-json/mirror" &&
	CUENV_MANIFESTS=$FX/bad/corrupt-json/manifests &&
	expect_code 3 cuenv install 12.4.1 &&
	stderr_has "bad catalogue file '$CUENV_MANIFESTS/cuda/redistrib_12.4.1.json'" &&
	expect_stdout "" cat "$SERVER_LOG" &&
	check "the store was written" [ ! -e "$CUENV_ROOT/versions" ]
