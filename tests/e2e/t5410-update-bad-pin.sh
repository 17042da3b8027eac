#!/bin/sh
# cuenv update checks a manifest against the sha256 that the shipped pin
# list gives for it: a mirror whose redistrib_12.4.0.json was changed is
# refused (exit 5, both digests named) and nothing is kept; a manifest that
# is not JSON cuenv can read is refused too (exit 3).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures || exit 1
pin=$(awk -F'\t' '$1 == "cuda" && $2 == "12.4.0" { print $4 }' \
	"$FX/manifests/redistrib-json-sha256.tsv")
m=$HOME/m
mkdir -p "$HOME/cat" "$m" &&
	cp -R "$FX/manifests/." "$HOME/cat/" &&
	rm "$HOME/cat/cuda/redistrib_12.4.0.json" &&
	CUENV_MANIFESTS=$HOME/cat && export CUENV_MANIFESTS &&
	cp -R "$FX/mirror/compute" "$m/" &&
	# Still valid JSON, but not the pinned bytes
	printf '\n' >>"$m/compute/cuda/redist/redistrib_12.4.0.json" &&
	got=$(sha256sum "$m/compute/cuda/redist/redistrib_12.4.0.json" | cut -d' ' -f1) &&
	check "no pin for 12.4.0" [ -n "$pin" ] &&
	expect_code 5 cuenv update --mirror "file://$m" &&
	stderr_has "cuenv: error: sha256 mismatch for 'file://$m/compute/cuda/redist/redistrib_12.4.0.json': expected $pin, got $got" &&
	check "a refused manifest was kept" [ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_12.4.0.json" ] &&
	# A version no pin names, which is not a manifest
	printf 'not json\n' >"$m/compute/cuda/redist/redistrib_12.5.0.json" &&
	cp "$FX/mirror/compute/cuda/redist/redistrib_12.4.0.json" \
		"$m/compute/cuda/redist/" &&
	expect_code 3 cuenv update --mirror "file://$m" &&
	stderr_has "redistrib_12.5.0.json" &&
	check "an unreadable manifest was kept" [ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_12.5.0.json" ] &&
	# A mirror that is not one
	expect_code 2 cuenv update --mirror "ftp://example.com" &&
	stderr_has "cuenv: error: update: mirror 'ftp://example.com' is not https://, http:// or file://" &&
	expect_code 4 cuenv update --mirror "file://$HOME/nowhere" &&
	stderr_has "cuenv: error: cannot read 'file://$HOME/nowhere/compute/cuda/redist/'"
