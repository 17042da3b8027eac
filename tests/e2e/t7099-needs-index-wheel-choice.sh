#!/bin/sh
# needs NAME==V chooses the wheel pip would for this Python and glibc
# (wheel.c python_score, platform_score), each choice seen in the wheel
# the report names:
#  - abi3: a cp38-abi3 wheel runs on this cp3X, a cp3(X+1)-abi3 one does
#    not (abi3 wheels run on their Python and later ones only);
#  - manylinux: a manylinux_2_99 wheel needs a glibc this machine lacks,
#    so the manylinux_2_17 one is taken, however newer the other's tag;
#  - versions are PEP 440's: ==1.0.post3 is that post-release, NAME
#    alone the newest final release (1.0.post3, not 1.1rc1), ==1.1rc1
#    the pre-release; numbers alone are a prefix (==0.13 the newest
#    0.13.x) unless they are a release themselves: ==0.12.0 is 0.12.0,
#    not 0.12.0.1 (jax-cuda12-pjrt's releases, the build sweep);
#  - a release with no wheel for this Python (tensorflow 2.6.5 has cp36
#    to cp39 only) is read in the nearest Python's wheel, and said so;
#    --python-version asks for another Python's, as pip's does.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need python3
minor=$(python3 -c 'import sys; print(sys.version_info[1])') || exit 1
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
[ -n "$glibc" ] || skip "not glibc: no manylinux ranking to check"
idx=$HOME/index
mkdir -p "$idx/packages" "$idx/simple/abi" "$idx/simple/glib" "$idx/simple/pep" \
	"$idx/simple/near" "$idx/simple/num" &&
	python3 - "$idx" "$minor" <<'EOF_PY' || exit 1
import hashlib, json, os, sys, zipfile
idx, minor = sys.argv[1], int(sys.argv[2])
def wheel(name, marker):
    with zipfile.ZipFile(os.path.join(idx, "packages", name), "w") as z:
        z.writestr(name.split("-")[0] + "/version.py",
                   "cuda = '%s'\n" % marker)
        z.writestr("%s-1.0.dist-info/METADATA" % name.split("-")[0],
                   "Name: %s\nVersion: 1.0\n" % name.split("-")[0])
def page(project, names):
    files = []
    for n in names:
        data = open(os.path.join(idx, "packages", n), "rb").read()
        files.append({"filename": n, "url": "../../packages/" + n,
                      "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                      "size": len(data)})
    json.dump({"meta": {"api-version": "1.1"}, "name": project,
               "files": files},
              open(os.path.join(idx, "simple", project, "index.json"), "w"))
later = "abi-1.0-cp3%d-abi3-manylinux2014_x86_64.whl" % (minor + 1)
older = "abi-1.0-cp38-abi3-manylinux2014_x86_64.whl"
wheel(later, "later"); wheel(older, "older")
page("abi", [later, older])
new = "glib-1.0-py3-none-manylinux_2_99_x86_64.whl"
old = "glib-1.0-py3-none-manylinux_2_17_x86_64.whl"
wheel(new, "new"); wheel(old, "old")
page("glib", [new, old])
peps = ["pep-%s-py3-none-manylinux2014_x86_64.whl" % v for v in ("1.0", "1.0.post3", "1.1rc1")]
for n in peps:
    wheel(n, n)
page("pep", peps)
nums = ["num-%s-py3-none-manylinux2014_x86_64.whl" % v
        for v in ("0.12.0", "0.12.0.1", "0.13.1", "0.13.2")]
for n in nums:
    wheel(n, n)
page("num", nums)
near = ["near-1.0-cp3%d-cp3%d-manylinux2014_x86_64.whl" % (m, m)
        for m in (minor - 4, minor - 2)]
for n in near:
    wheel(n, n)
page("near", near)
EOF_PY
serve_start "$idx" PYPI &&
	expect_code 0 cuenv needs --json --index "$PYPI_URL/simple" abi==1.0 &&
	check "abi3: not the cp38 wheel: $(cat "$E2E_OUT")" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fetched"][0]["wheel"] == "abi-1.0-cp38-abi3-manylinux2014_x86_64.whl", d["fetched"]' "$E2E_OUT" &&
	expect_code 0 cuenv needs --json --index "$PYPI_URL/simple" glib==1.0 &&
	check "manylinux: not the 2_17 wheel: $(cat "$E2E_OUT")" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fetched"][0]["wheel"] == "glib-1.0-py3-none-manylinux_2_17_x86_64.whl", d["fetched"]' "$E2E_OUT" &&
	expect_code 0 cuenv needs --index "$PYPI_URL/simple" near==1.0 &&
	stdout_has "near-1.0-cp3$((minor - 2))-cp3$((minor - 2))-manylinux2014_x86_64.whl: the nearest Python's, with no cp3$minor wheel of the release" &&
	expect_code 0 cuenv needs --json --index "$PYPI_URL/simple" --python-version 3.$((minor - 4)) near==1.0 &&
	check "--python-version: not the cp3$((minor - 4)) wheel: $(cat "$E2E_OUT")" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fetched"][0]["wheel"] == "near-1.0-cp3%s-cp3%s-manylinux2014_x86_64.whl" % (sys.argv[2], sys.argv[2]), d["fetched"]' "$E2E_OUT" "$((minor - 4))" &&
	expect_code 2 cuenv needs --python-version 3.x near==1.0 &&
	stderr_has "cuenv: error: '3.x' is not a CPython 3 version (3.11, 311)" &&
	for want in "pep==1.0.post3 pep-1.0.post3" "pep pep-1.0.post3" \
		"pep==1.1rc1 pep-1.1rc1" "pep==1.0 pep-1.0" "num==0.12.0 num-0.12.0" \
		"num==0.12 num-0.12.0.1" "num==0.13 num-0.13.2" "num==0.13.1 num-0.13.1"; do
		set -- $want
		expect_code 0 cuenv needs --json --index "$PYPI_URL/simple" "$1" &&
			check "$1: not $2: $(cat "$E2E_OUT")" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fetched"][0]["wheel"] == "%s-py3-none-manylinux2014_x86_64.whl" % sys.argv[2], d["fetched"]' "$E2E_OUT" "$2" ||
			exit 1
	done
