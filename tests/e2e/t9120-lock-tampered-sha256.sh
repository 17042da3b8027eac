#!/bin/sh
# A lock whose sha256 differs from the catalogue's is refused before any
# download: nothing installed, the component named.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

use_mirror &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv lock &&
	sha=$(comp 12.4.1 cuda_cudart sha256) &&
	bad=$(printf '%s' "$sha" | tr '0-9a-f' 'f0-9a-e' | cut -c1-64) &&
	sed -i "s/$sha/$bad/" .cuenv.lock &&
	expect_code 5 cuenv install --locked &&
	stderr_has "lock and catalogue disagree on sha256 of cuda 12.4.1 cuda_cudart" &&
	nothing_half_made cuda 12.4.1 &&
	expect_stdout "" cuenv versions &&
	sed -i "s/$bad/XYZ/" .cuenv.lock &&
	expect_code 3 cuenv install --locked &&
	stderr_has "bad lock file '$PWD/.cuenv.lock'"
