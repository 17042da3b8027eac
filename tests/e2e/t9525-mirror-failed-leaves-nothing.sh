#!/bin/sh
# A cuenv mirror that fails leaves nothing it made: into a new DIR whose
# first download fails (server refuses) there is no DIR afterwards (there
# was a tree of empty folders and a 0-byte .part); into an existing DIR
# that held a file, that file stays and nothing is added.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
export CUENV_FETCH_RETRIES=0
expect_code 4 cuenv mirror "$m" 12.4.1 --mirror http://127.0.0.1:9 &&
	check "a failed mirror left: $(find "$m" 2>/dev/null | head -n 20)" \
		[ ! -e "$m" ] || exit 1
mkdir "$m" && echo mine >"$m/notes.txt" &&
	expect_code 4 cuenv mirror "$m" 12.4.1 --mirror http://127.0.0.1:9 &&
	check "a failed mirror added: $(cd "$m" && find . -mindepth 1)" \
		[ "$(cd "$m" && find . -mindepth 1)" = ./notes.txt ] || exit 1
# A failure after some files arrived keeps them (the next run resumes):
# the first download refused by the server midway, the rest fetched.
cublas=$(comp 12.4.1 libcublas path)
serve_faults "{\"$cublas\": {\"status\": 500}}" &&
	expect_code 4 cuenv mirror "$HOME/m2" 12.4.1 &&
	check "a failed run kept nothing it had fetched" \
		[ -n "$(find "$HOME/m2/compute" -type f 2>/dev/null)" ] &&
	zero=$(find "$HOME/m2" -name '*.part' -size 0) &&
	check "a 0-byte .part stayed: $zero" [ -z "$zero" ]
