#!/bin/sh
# cuenv needs on a wheel read in place (nothing unpacked to disk) and on a
# requirement from a package index without downloading the wheel: a
# TensorFlow-like wheel (TF 2.6.5's build_info.py and METADATA, and an
# 8 MiB incompressible library) on a local PEP 691 index, then the same
# as PEP 503 HTML. The index answers by HTTP range requests: the end of
# the zip, then the members; the bytes fetched are reported and stay
# under 2% of the wheel. A wheel whose metadata says nothing of CUDA has
# its ELF members read (in memory). Old cuenv refused both forms.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
# the wheels are for the Python cuenv asks (python3), as pip would pick them
tag=$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])') || exit 1
idx=$HOME/index
whl=tensorflow-2.6.5-$tag-$tag-manylinux2010_x86_64.whl
stubs &&
	mkso "$HOME/build/libplain.so" libplain.so 'int plain(void) { return 0; }' libcudart.so.12 &&
	mkdir -p "$idx/simple/tensorflow" "$idx/simple/plain" "$idx/packages" &&
	python3 - "$idx/packages" "$HOME/build/libplain.so" <<'EOF_PY' &&
import hashlib, json, os, sys, zipfile
TAG = "cp%d%d" % sys.version_info[:2]
out, plain = sys.argv[1], sys.argv[2]
bi = ("import collections\n\nbuild_info = collections.OrderedDict(["
      "('cpu_compiler', '/dt7/usr/bin/gcc'), ('cuda_version', '11.2'), "
      "('cudnn_version', '8'), ('is_cuda_build', True)])\n")
def wheel(name, members):
    path = os.path.join(out, name)
    with zipfile.ZipFile(path, "w") as z:
        for m, data, how in members:
            z.writestr(m, data, how)
    return path
w = wheel("tensorflow-2.6.5-" + TAG + "-" + TAG + "-manylinux2010_x86_64.whl", [
    ("tensorflow/__init__.py", "# tf\n", zipfile.ZIP_DEFLATED),
    ("tensorflow/libtensorflow_framework.so.2", os.urandom(8 << 20),
     zipfile.ZIP_STORED),
    ("tensorflow/python/platform/build_info.py", bi, zipfile.ZIP_DEFLATED),
    ("tensorflow-2.6.5.dist-info/METADATA",
     "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.6.5\n",
     zipfile.ZIP_DEFLATED),
])
# a Windows wheel beside it, which this machine does not pick
wheel("tensorflow-2.6.5-" + TAG + "-" + TAG + "-win_amd64.whl", [
    ("tensorflow/python/platform/build_info.py",
     bi.replace("'11.2'", "'64_112'"), zipfile.ZIP_DEFLATED)])
p = wheel("plain-1.0-py3-none-manylinux2014_x86_64.whl", [
    ("plain/libplain.so", open(plain, "rb").read(), zipfile.ZIP_DEFLATED),
    ("plain-1.0.dist-info/METADATA", "Name: plain\nVersion: 1.0\n",
     zipfile.ZIP_DEFLATED)])
def page(project, names):
    files = []
    for n in names:
        data = open(os.path.join(out, n), "rb").read()
        files.append({"filename": n, "url": "../../packages/" + n,
                      "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                      "size": len(data)})
    d = os.path.join(out, "..", "simple", project)
    json.dump({"meta": {"api-version": "1.1"}, "name": project,
               "files": files}, open(os.path.join(d, "index.json"), "w"))
page("tensorflow", ["tensorflow-2.6.5-" + TAG + "-" + TAG + "-win_amd64.whl",
                    "tensorflow-2.6.5-" + TAG + "-" + TAG + "-manylinux2010_x86_64.whl"])
page("plain", ["plain-1.0-py3-none-manylinux2014_x86_64.whl"])
EOF_PY
	# A wheel read in place: its metadata, nothing written.
	before=$(find "$HOME" "$E2E_SANDBOX/tmp" | wc -l) &&
	expect_code 1 cuenv needs "$idx/packages/$whl" &&
	cat "$E2E_OUT" &&
	stdout_has "tensorflow built for CUDA 11.2+, cuDNN 8.x
    says        $idx/packages/$whl/tensorflow/python/platform/build_info.py" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	check "files were written" [ "$(find "$HOME" "$E2E_SANDBOX/tmp" | wc -l)" = "$before" ] &&
	# No metadata about CUDA: the ELF members, read in memory.
	expect_code 1 cuenv needs "$idx/packages/plain-1.0-py3-none-manylinux2014_x86_64.whl" &&
	stdout_has "libcudart.so.12        CUDA 12.x
    needed by   $idx/packages/plain-1.0-py3-none-manylinux2014_x86_64.whl/plain/libplain.so" &&
	# From the index, by range requests.
	serve_start "$idx" PYPI &&
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" tensorflow==2.6.5 &&
	cat "$E2E_OUT" &&
	stdout_has "tensorflow built for CUDA 11.2+, cuDNN 8.x
    says        $whl/tensorflow/python/platform/build_info.py" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	check "no full GET of the wheel: $(cat "$PYPI_LOG")" \
		sh -c "! grep -q 'GET /packages/$whl - 200' '$PYPI_LOG'" &&
	check "no range requests: $(cat "$PYPI_LOG")" \
		grep -q "GET /packages/$whl bytes=[0-9]*- 206" "$PYPI_LOG" &&
	expect_code 1 env CUENV_PYPI_INDEX="$PYPI_URL/simple" cuenv needs --json Tensorflow==2.6.5 &&
	check "--json: the wheel not read as in place, or wrong" python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
f = d["fetched"][0]
size = os.path.getsize(sys.argv[2])
assert f["wheel"] == os.path.basename(sys.argv[2]), f
assert f["size"] == size, (f, size)
# its members, as in place, and the index page: no more than that
assert 0 < f["bytes_fetched"] <= size + 4096, (f, size)
assert f["chosen"].startswith(f["wheel"] + " for " + sys.argv[3]), f
assert d["reports"][0]["cuda_min"] == "11.2", d
' "$E2E_OUT" "$idx/packages/$whl" "$tag" &&
	# the Windows wheel, asked for
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" --platform win_amd64 tensorflow==2.6.5 &&
	stdout_has "read " &&
	stdout_has "tensorflow-2.6.5-$tag-$tag-win_amd64.whl (" &&
	# PEP 503 HTML, as proxies serve
	rm "$idx/simple/tensorflow/index.json" &&
	sha=$(sha256sum "$idx/packages/$whl" | cut -d' ' -f1) &&
	printf '<html><body>\n<a href="../../packages/%s#sha256=%s">%s</a><br/>\n</body></html>\n' \
		"$whl" "$sha" "$whl" >"$idx/simple/tensorflow/index.html" &&
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" tensorflow==2.6.5 &&
	stdout_has "read " &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	# what is not there: 17, "not in the index" (it was 4, a failed
	# download), and every release the index has, in version order (2.9
	# before 2.10; they were in the index's order, cut at 400 bytes)
	for v in 2.10.0 2.9.1 2.11.0; do
		printf '<a href="../../packages/%s#sha256=%s">tensorflow-%s-%s-%s-manylinux2010_x86_64.whl</a><br/>\n' \
			"$whl" "$sha" "$v" "$tag" "$tag" >>"$idx/simple/tensorflow/index.html" || exit 1
	done &&
	expect_code 17 cuenv needs --index "$PYPI_URL/simple" tensorflow==9.9 &&
	stderr_has "cuenv: error: no tensorflow 9.9 wheel for this machine and $tag on '$PYPI_URL/simple/tensorflow/'" &&
	check "the hint ends at its releases: $(cat "$E2E_ERR")" grep -qx "hint: it has 2.6.5, 2.9.1, 2.10.0, 2.11.0" "$E2E_ERR" &&
	# a release only on another platform than the one asked: the hint
	# names the platforms it is on, never the one given, and works
	expect_code 17 cuenv needs --index "$PYPI_URL/simple" --platform win_amd64 tensorflow==2.9.1 &&
	stderr_has "it has wheels for manylinux2010_x86_64: --platform manylinux2010_x86_64" &&
	stderr_lacks "--platform win_amd64" &&
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" --platform manylinux2010_x86_64 tensorflow==2.9.1 &&
	# a name alone: its newest release, as install --for takes it (it
	# read a file of that name); a file of that name is still read
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" tensorflow &&
	stdout_has "tensorflow-2.11.0-$tag-$tag-manylinux2010_x86_64.whl (" &&
	: >tensorflow &&
	expect_code 2 cuenv needs --index "$PYPI_URL/simple" tensorflow &&
	stderr_lacks "wheel" &&
	rm tensorflow
