#!/bin/sh
# Zip members that two readers would read differently: a second member of
# a name the wheel has (libarchive, unpacking, kept the last), and a
# member whose local header names another file than the central
# directory does (install took the local name, `cuenv needs` the
# directory's). Each is planted in NVIDIA's runtime wheel for 12.4 on the
# test's package index, listed with its true sha256, so only the reading
# of the zip can stop it: refused (exit 6) naming the member, nothing
# installed, pooled or cached, the same rule as `cuenv needs` applies.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

wheel=nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl
lib=nvidia/cuda_runtime/lib

# plant HOW: the index in $HOME/evil-index, its runtime wheel changed
# (dup: one more member of the name of its first under $lib; local: that
# member's local header naming it with its last letter changed), the
# index page's sha256 and size updated to match. Prints the member's name.
plant() {
	rm -rf "$HOME/evil-index" &&
		cp -R "$FX/pypi" "$HOME/evil-index" &&
		chmod -R u+w "$HOME/evil-index" &&
		python3 - "$HOME/evil-index" "$wheel" "$lib" "$1" <<'EOF_PLANT'
import hashlib, json, os, sys, warnings, zipfile

root, wheel, lib, how = sys.argv[1:5]
path = os.path.join(root, "packages", wheel)
with zipfile.ZipFile(path) as z:
    info = [i for i in z.infolist() if i.filename.startswith(lib + "/")][0]
if how == "dup":
    warnings.simplefilter("ignore")  # "Duplicate name": the point
    with zipfile.ZipFile(path, "a") as z:
        z.writestr(zipfile.ZipInfo(info.filename), b"cuenv-evil\n")
else:
    data = bytearray(open(path, "rb").read())
    at = info.header_offset + 30 + len(info.filename) - 1
    data[at] = ord("x") if data[at] != ord("x") else ord("y")
    open(path, "wb").write(data)
data = open(path, "rb").read()
page = os.path.join(root, "simple", "nvidia-cuda-runtime-cu12", "index.json")
d = json.load(open(page))
f = [f for f in d["files"] if f["filename"] == wheel]
assert len(f) == 1, "the index does not list the wheel"
f[0]["hashes"]["sha256"] = hashlib.sha256(data).hexdigest()
f[0]["size"] = len(data)
json.dump(d, open(page, "w"), indent=2)
print(info.filename)
EOF_PLANT
}

# refused HOW WHY [MORE]: installing from the planted index fails naming
# the member and why (and MORE); nothing of it is kept.
refused() {
	member=$(plant "$1") &&
		serve_start "$HOME/evil-index" PYPI &&
		expect_code 6 cuenv install 12.4 --source pypi \
			--components cuda_cudart --index "$PYPI_URL/simple" &&
		stderr_has "cuenv: error: corrupt zip: $2" &&
		stderr_has "'$member'" &&
		stderr_has "${3-}" &&
		nothing_half_made cuda 12.4.1 &&
		expect_stdout "" cuenv versions &&
		check "a file of the hostile wheel was written" \
			[ -z "$(grep -rlF cuenv-evil "$CUENV_ROOT" 2>/dev/null)" ] &&
		serve_stop PYPI
}

fixtures &&
	CUENV_MANIFESTS=$FX/manifests && export CUENV_MANIFESTS &&
	refused dup "two members named" &&
	refused local "member '$lib/" "in its local header" &&
	# The same wheel unchanged installs.
	serve_start "$FX/pypi" PYPI &&
	expect_code 0 cuenv install 12.4 --source pypi --components cuda_cudart \
		--index "$PYPI_URL/simple" &&
	stdout_has "installed cuda 12.4.1 in $CUENV_ROOT/versions/cuda/12.4.1 ("
