#!/bin/sh
# cuenv needs NAME==VERSION reads the wheel's core metadata from the file
# the index serves beside it (PEP 658/714: JSON "core-metadata" or
# "data-dist-info-metadata", HTML data-dist-info-metadata; the file is
# the wheel's URL + ".metadata"), checked against the index's sha256, and
# goes into the wheel by range requests only when that file does not say
# the CUDA release (TensorFlow: its build_info.py) or cannot be trusted
# (a wrong sha256, a missing file: then a warning, and the wheel's own
# METADATA answers). A torch-like wheel: 8 MiB of noise, METADATA pinning
# nvidia-cuda-runtime-cu12==12.1.105 and nvidia-cudnn-cu12==8.9.2.26
# (torch 2.1.2's pins), version.py cuda '12.1'. Old cuenv never asked for
# the .metadata file.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
whl=torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl
tfw=tensorflow-2.6.5-cp39-cp39-manylinux2010_x86_64.whl
# $1: the JSON page's key for the metadata ("core-metadata",
# "data-dist-info-metadata" or "-": none); $2: "good", "wrong" (a file
# that does not match the sha256 given) or "absent" (no file served)
mkindex() {
	python3 - "$idx" "$1" "$2" <<'EOF_PY'
import hashlib, json, os, sys, zipfile
idx, key, how = sys.argv[1:4]
pk = os.path.join(idx, "packages")
for d in ("packages", "simple/torch", "simple/tensorflow"):
    os.makedirs(os.path.join(idx, d), exist_ok=True)
meta = ("Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\n"
        "Requires-Dist: filelock\n"
        "Requires-Dist: nvidia-cuda-runtime-cu12 (==12.1.105) ; "
        "platform_system == \"Linux\" and platform_machine == \"x86_64\"\n"
        "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; "
        "platform_system == \"Linux\" and platform_machine == \"x86_64\"\n\n"
        "PyTorch\n")
tfmeta = ("Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.6.5\n"
          "Requires-Dist: numpy\n\n")
bi = ("build_info = {'cuda_version': '11.2', 'cudnn_version': '8', "
      "'is_cuda_build': True}\n")
noise = os.urandom(8 << 20)
def wheel(name, members):
    with zipfile.ZipFile(os.path.join(pk, name), "w") as z:
        for m, data, comp in members:
            z.writestr(m, data, comp)
wheel("torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl", [
    ("torch/lib/libtorch_cuda.so", noise, zipfile.ZIP_STORED),
    ("torch/version.py", "cuda = '12.1'\n", zipfile.ZIP_DEFLATED),
    ("torch-2.1.2.dist-info/METADATA", meta, zipfile.ZIP_DEFLATED)])
wheel("tensorflow-2.6.5-cp39-cp39-manylinux2010_x86_64.whl", [
    ("tensorflow/libtensorflow_framework.so.2", noise, zipfile.ZIP_STORED),
    ("tensorflow/python/platform/build_info.py", bi, zipfile.ZIP_DEFLATED),
    ("tensorflow-2.6.5.dist-info/METADATA", tfmeta, zipfile.ZIP_DEFLATED)])
for project, name, text in (
        ("torch", "torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl", meta),
        ("tensorflow", "tensorflow-2.6.5-cp39-cp39-manylinux2010_x86_64.whl",
         tfmeta)):
    data = open(os.path.join(pk, name), "rb").read()
    f = {"filename": name, "url": "../../packages/" + name,
         "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
         "size": len(data)}
    mpath = os.path.join(pk, name + ".metadata")
    if os.path.exists(mpath):
        os.unlink(mpath)
    if key != "-":
        f[key] = {"sha256": hashlib.sha256(text.encode()).hexdigest()}
        if how == "good":
            open(mpath, "w").write(text)
        elif how == "wrong":
            # says cuDNN 9.9.9: used, the answer would change
            open(mpath, "w").write(text.replace("8.9.2.26", "9.9.9"))
    json.dump({"meta": {"api-version": "1.1"}, "name": project,
               "files": [f]},
              open(os.path.join(idx, "simple", project, "index.json"), "w"))
EOF_PY
}
# $1: cuDNN expected (the pin 8.9.2.26 read to three parts); $3: 1 when
# the metadata file must have been used, 0 when not; $4: the most bytes
facts() {
	python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
f = d["fetched"][0]
dnn = {r["cudnn_min"] for r in d["reports"] if r.get("cudnn_min")}
cuda = {r["cuda_min"] for r in d["reports"] if r.get("cuda_min")}
assert cuda == {"12.1"}, d["reports"]
assert dnn == {sys.argv[2]}, d["reports"]
assert f["core_metadata"] == (sys.argv[3] == "1"), f
assert 0 < f["bytes_fetched"] <= int(sys.argv[4]), f
print(f["bytes_fetched"])
' "$E2E_OUT" "$@"
}

stubs &&
	mkindex core-metadata good &&
	metasize=$(wc -c <"$idx/packages/$whl.metadata") &&
	serve_start "$idx" PYPI &&
	# The .metadata file alone: one small request, the wheel untouched.
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	with_meta=$(facts 8.9.2 1 "$metasize") &&
	check "the wheel was read: $(cat "$PYPI_LOG")" \
		sh -c "! grep -q 'GET /packages/$whl ' '$PYPI_LOG'" &&
	check "no .metadata request: $(cat "$PYPI_LOG")" \
		grep -q "GET /packages/$whl.metadata - 200" "$PYPI_LOG" &&
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" torch==2.1.2 &&
	stdout_has "read $metasize bytes of $whl (" &&
	stdout_has "in 1 requests
    the index's metadata file (PEP 658)" &&
	stdout_has "torch 2.1.2 built for CUDA 12.1+, cuDNN 8.9.2+
    says        $whl.metadata" &&
	# Without it (the same wheel, no core-metadata): range requests.
	mkindex - - &&
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	without=$(facts 8.9.2 0 999999) &&
	echo "bytes fetched: $with_meta with the metadata file, $without without" &&
	check "the metadata file saved nothing: $with_meta vs $without" \
		[ "$with_meta" -lt "$without" ] &&
	# A file that does not match the index's sha256: not used, said so.
	mkindex core-metadata wrong &&
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	facts 8.9.2 0 999999 >/dev/null &&
	stderr_has "the index's metadata file of $whl: '$PYPI_URL/packages/$whl.metadata' has sha256 " &&
	stderr_has "; read from the wheel instead" &&
	# Served by the index's word, absent on the server: the wheel.
	mkindex data-dist-info-metadata absent &&
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	facts 8.9.2 0 999999 >/dev/null &&
	stderr_has "the index's metadata file of $whl: " &&
	# PEP 503 HTML with data-dist-info-metadata="sha256=...".
	mkindex core-metadata good &&
	rm "$idx/simple/torch/index.json" &&
	sha=$(sha256sum "$idx/packages/$whl" | cut -d' ' -f1) &&
	msha=$(sha256sum "$idx/packages/$whl.metadata" | cut -d' ' -f1) &&
	printf '<html><body>\n<a href="../../packages/%s#sha256=%s" data-dist-info-metadata="sha256=%s" data-core-metadata="sha256=%s">%s</a><br/>\n</body></html>\n' \
		"$whl" "$sha" "$msha" "$msha" "$whl" >"$idx/simple/torch/index.html" &&
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	facts 8.9.2 1 "$metasize" >/dev/null &&
	# TensorFlow: the metadata file, then build_info.py by range (its
	# METADATA member is not fetched again).
	: >"$PYPI_LOG" &&
	expect_code 1 cuenv needs --index "$PYPI_URL/simple" tensorflow==2.6.5 &&
	stdout_has "tensorflow built for CUDA 11.2+, cuDNN 8.x
    says        $tfw/tensorflow/python/platform/build_info.py" &&
	stdout_has "    the index's metadata file (PEP 658), then range requests into the wheel" &&
	check "no .metadata request: $(cat "$PYPI_LOG")" \
		grep -q "GET /packages/$tfw.metadata - 200" "$PYPI_LOG" &&
	check "not 3 range requests (end, build_info.py only): $(cat "$PYPI_LOG")" \
		[ "$(grep -c "GET /packages/$tfw bytes=" "$PYPI_LOG")" = 2 ]
