#!/bin/sh
# Catalogue sizes are non-negative integers, as JSON strings of digits
# (NVIDIA's) or JSON integers. A negative size (once shown as 18446744073.7
# GB), a fraction, letters or an exponent rejects the manifest with one line
# naming the file and the key, exit 3, for list-remote, install and update
# (a mirror's manifest is then not kept). A numeric size is used, not
# ignored: a wrong one fails the install.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

m=$HOME/manifests
f=$m/cuda/redistrib_12.4.1.json
# set_size FILE RAW [PLATFORM]: cuda_cudart's size for PLATFORM (default
# linux-x86_64) becomes the JSON text RAW.
set_size() {
	python3 - "$1" "$2" "${3:-linux-x86_64}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["cuda_cudart"][sys.argv[3]]["size"] = "@@SIZE@@"
text = json.dumps(d, indent=1).replace('"@@SIZE@@"', sys.argv[2])
open(sys.argv[1], "w").write(text)
EOF
}
# rejected RAW [SHOWN]: list-remote and install refuse the catalogue, and
# show the value as RAW (or SHOWN: jansson writes 1e3 as 1000.0).
rejected() {
	_shown=${2:-$1}
	set_size "$f" "$1" &&
		expect_code 3 cuenv list-remote &&
		file_is "$E2E_ERR" "cuenv: error: bad catalogue file '$f': 'cuda_cudart.linux-x86_64.size' must be a whole number of bytes, not $_shown" &&
		expect_code 3 cuenv install 12.4.1 &&
		stderr_has "'cuda_cudart.linux-x86_64.size' must be a whole number of bytes, not $_shown"
}
use_mirror &&
	size=$(comp 12.4.1 cuda_cudart size) &&
	cp -R "$FX/manifests" "$m" && chmod -R u+w "$m" &&
	CUENV_MANIFESTS=$m && export CUENV_MANIFESTS &&
	rejected '"-1"' && rejected '-1' && rejected '"1.5"' && rejected '1.5' &&
	rejected '"abc"' && rejected '"1e3"' && rejected '1e3' '1000.0' &&
	rejected '"18446744073709551616"' && rejected 'null' &&
	check "a rejected catalogue installed something" \
		[ ! -e "$CUENV_ROOT/versions/cuda/12.4.1" ] &&
	# A JSON integer is the size: one byte short fails the install...
	set_size "$f" "$((size - 1))" &&
	expect_stderr_contains "$((size - 1))" cuenv install 12.4.1 &&
	check "a numeric size was ignored: exit $E2E_RC" \
		[ "$E2E_RC" -eq 4 ] || [ "$E2E_RC" -eq 5 ] &&
	nothing_half_made cuda 12.4.1 &&
	# ... and the right one installs.
	set_size "$f" "$size" &&
	expect_code 0 cuenv install 12.4.1 &&
	stdout_has "installed cuda 12.4.1" || exit 1

# cuenv update keeps no manifest it cannot read.
mirror=$HOME/mirror/compute/cuda/redist
mkdir -p "$mirror" "$HOME/mirror/compute/cudnn/redist" &&
	sed 's/"release_label": *"12.4.1"/"release_label": "12.4.9"/' \
		"$FX/manifests/cuda/redistrib_12.4.1.json" >"$mirror/redistrib_12.4.9.json" &&
	grep -q '"release_label": "12.4.9"' "$mirror/redistrib_12.4.9.json" &&
	set_size "$mirror/redistrib_12.4.9.json" '"-1"' &&
	expect_code 3 cuenv update --mirror "file://$HOME/mirror" &&
	stderr_has "cuenv: error: bad catalogue file 'file://$mirror/redistrib_12.4.9.json': 'cuda_cudart.linux-x86_64.size' must be a whole number of bytes, not \"-1\"" &&
	check "update kept a manifest with a negative size" \
		[ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_12.4.9.json" ] || exit 1

# update checks a manifest for the platform the catalogue is read for:
# CUENV_PLATFORM's when set (as list-remote, lock and install read it),
# not this machine's.
sed 's/"release_label": *"12.4.1"/"release_label": "12.4.8"/' \
	"$FX/manifests/cuda/redistrib_12.4.1.json" >"$mirror/redistrib_12.4.8.json" &&
	rm -f "$mirror/redistrib_12.4.9.json" &&
	set_size "$mirror/redistrib_12.4.8.json" '"-1"' linux-sbsa &&
	CUENV_PLATFORM=linux-sbsa expect_code 3 cuenv update --mirror "file://$HOME/mirror" &&
	stderr_has "'cuda_cudart.linux-sbsa.size' must be a whole number of bytes, not \"-1\"" &&
	check "update kept a manifest its platform cannot read" \
		[ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_12.4.8.json" ] &&
	CUENV_PLATFORM=linux-x86_64 expect_code 0 cuenv update --mirror "file://$HOME/mirror" &&
	stdout_has "added cuda 12.4.8"
