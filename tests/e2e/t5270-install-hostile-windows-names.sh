#!/bin/sh
# Zip entries that Windows would read as something else (Microsoft's
# "Naming Files, Paths, and Namespaces"): a backslash path that climbs
# (..\), a drive (C:\), a UNC path (\\server\share), an alternate data
# stream (file:stream), a device name (NUL.dll, con) and a name ending with
# a dot. Each is planted in NVIDIA's runtime wheel for 12.4 on the test's
# package index, listed with its true sha256, so only the extraction can
# stop it: refused (exit 6) naming the entry and why, nothing installed,
# pooled or cached, nothing written outside the store. A zip is Windows'
# own archive (NVIDIA's windows-x86_64 archives, wheels): its names are
# checked for Windows on every system.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

wheel=nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl
lib=nvidia/cuda_runtime/lib

# plant NAME: the index in $HOME/evil-index, its runtime wheel with one
# more member, $lib/NAME, and the index page's sha256 and size updated to match.
plant() {
	rm -rf "$HOME/evil-index" &&
		cp -R "$FX/pypi" "$HOME/evil-index" &&
		chmod -R u+w "$HOME/evil-index" &&
		python3 - "$HOME/evil-index" "$wheel" "$lib/$1" <<'EOF_PLANT'
import hashlib, json, os, sys, zipfile

root, wheel, name = sys.argv[1:4]
path = os.path.join(root, "packages", wheel)
with zipfile.ZipFile(path, "a") as z:
    z.writestr(zipfile.ZipInfo(name), b"cuenv-evil\n")
data = open(path, "rb").read()
page = os.path.join(root, "simple", "nvidia-cuda-runtime-cu12", "index.json")
d = json.load(open(page))
f = [f for f in d["files"] if f["filename"] == wheel]
assert len(f) == 1, "the index does not list the wheel"
f[0]["hashes"]["sha256"] = hashlib.sha256(data).hexdigest()
f[0]["size"] = len(data)
json.dump(d, open(page, "w"), indent=2)
EOF_PLANT
}

# refused NAME SHOWN WHY: installing from the planted index fails naming
# the entry (as cuenv shows it: a backslash as \x5c) and why.
refused() {
	plant "$1" &&
		serve_start "$HOME/evil-index" PYPI &&
		expect_code 6 cuenv install 12.4 --source pypi \
			--components cuda_cudart --index "$PYPI_URL/simple" &&
		stderr_has "cuenv: error: refused archive entry '$lib/$2': $3" &&
		nothing_half_made cuda 12.4.1 &&
		expect_stdout "" cuenv versions &&
		check "a file of the hostile wheel was written" \
			[ -z "$(grep -rlF cuenv-evil "$E2E_SANDBOX" 2>/dev/null |
				grep -vF -e "$HOME/evil-index/" -e "$E2E_OUT" -e "$E2E_ERR")" ] &&
		check "a file was written outside the sandbox" \
			[ -z "$(ls /tmp | grep -F cuenv-evil)" ] &&
		serve_stop PYPI
}

fixtures &&
	CUENV_MANIFESTS=$FX/manifests && export CUENV_MANIFESTS &&
	refused '..\..\..\cuenv-evil.dll' \
		'..\x5c..\x5c..\x5ccuenv-evil.dll' 'backslash in a name' &&
	refused 'C:\Windows\System32\cudart64_12.dll' \
		'C:\x5cWindows\x5cSystem32\x5ccudart64_12.dll' 'colon in a name (a drive' &&
	refused '\\server\share\cuenv-evil.dll' \
		'\x5c\x5cserver\x5cshare\x5ccuenv-evil.dll' 'backslash in a name' &&
	refused 'libcudart.so.12:evil' 'libcudart.so.12:evil' \
		'colon in a name (a drive or an alternate data stream' &&
	refused 'NUL.dll' 'NUL.dll' 'Windows device name' &&
	refused 'con' 'con' 'Windows device name' &&
	refused 'cuenv-evil.' 'cuenv-evil.' 'name ending with a dot or a space' &&
	# The same wheel without a planted name installs.
	serve_start "$FX/pypi" PYPI &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart \
		--index "$PYPI_URL/simple" &&
	stdout_has "installed cuda 12.4.1 in $CUENV_ROOT/versions/cuda/12.4.1 ("
