#!/bin/sh
# The mirror's archive is cut in half (the catalogue has the whole one's
# size and sha256): the install fails, naming the URL, and nothing is
# installed.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures &&
	use_mirror "$FX/bad/truncated/mirror" &&
	CUENV_MANIFESTS=$FX/bad/truncated/manifests &&
	p=$(fxq 'd["bad"]["truncated"]["path"]') &&
	expect_code 4 env CUENV_FETCH_RETRIES=1 cuenv install 12.4.1 &&
	stderr_has "'$SERVER_URL$p'" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "" cuenv versions &&
	stderr_has "nothing installed yet"
