#!/bin/sh
# The wheel's core metadata file the index serves beside it (PEP 658/714:
# the wheel's URL + ".metadata"): `install --for NAME==V` answers from it
# alone (one small request, the wheel untouched), while `needs NAME==V`
# reads the wheel itself by range requests, the members it reads in
# place (issue 22: the two cannot disagree), so a lying .metadata file
# changes nothing for needs. A torch-like wheel: 8 MiB of noise, METADATA
# pinning nvidia-cuda-runtime-cu12==12.1.105 and nvidia-cudnn-cu12==
# 8.9.2.26 (torch 2.1.2's pins), version.py cuda '12.1'.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
# the wheels are for the Python cuenv asks (python3), as pip would pick them
tag=$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])') || exit 1
idx=$HOME/index
whl=torch-2.1.2-$tag-$tag-manylinux1_x86_64.whl
tfw=tensorflow-2.6.5-$tag-$tag-manylinux2010_x86_64.whl
# $1: the JSON page's key for the metadata ("core-metadata",
# "data-dist-info-metadata" or "-": none); $2: "good", "wrong" (a file
# that does not match the sha256 given) or "absent" (no file served)
mkindex() {
	python3 - "$idx" "$1" "$2" <<'EOF_PY'
import hashlib, json, os, sys, zipfile
TAG = "cp%d%d" % sys.version_info[:2]
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
wheel("torch-2.1.2-" + TAG + "-" + TAG + "-manylinux1_x86_64.whl", [
    ("torch/lib/libtorch_cuda.so", noise, zipfile.ZIP_STORED),
    ("torch/version.py", "cuda = '12.1'\n", zipfile.ZIP_DEFLATED),
    ("torch-2.1.2.dist-info/METADATA", meta, zipfile.ZIP_DEFLATED)])
wheel("tensorflow-2.6.5-" + TAG + "-" + TAG + "-manylinux2010_x86_64.whl", [
    ("tensorflow/libtensorflow_framework.so.2", noise, zipfile.ZIP_STORED),
    ("tensorflow/python/platform/build_info.py", bi, zipfile.ZIP_DEFLATED),
    ("tensorflow-2.6.5.dist-info/METADATA", tfmeta, zipfile.ZIP_DEFLATED)])
for project, name, text in (
        ("torch", "torch-2.1.2-" + TAG + "-" + TAG + "-manylinux1_x86_64.whl", meta),
        ("tensorflow", "tensorflow-2.6.5-" + TAG + "-" + TAG + "-manylinux2010_x86_64.whl",
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
	size=$(wc -c <"$idx/packages/$whl") &&
	serve_start "$idx" PYPI &&
	# needs reads the wheel itself, by range requests, as it reads it in
	# place (issue 22): the metadata file is not asked for
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	facts 8.9.2 0 $((size + 4096)) >/dev/null &&
	check "the wheel was not read: $(cat "$PYPI_LOG")" \
		grep -q "GET /packages/$whl bytes=" "$PYPI_LOG" &&
	check "needs asked for the .metadata file: $(cat "$PYPI_LOG")" \
		sh -c "! grep -q 'GET /packages/$whl.metadata' '$PYPI_LOG'" &&
	# a .metadata file that lies changes nothing: the wheel answers
	mkindex core-metadata wrong &&
	expect_code 1 cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	facts 8.9.2 0 $((size + 4096)) >/dev/null &&
	# install --for still answers from the metadata file alone (NVIDIA's
	# source named: with none, NVIDIA out of reach here turns the dry run
	# to this index, which serves no nvidia-* wheel)
	mkindex core-metadata good &&
	: >"$PYPI_LOG" &&
	CUENV_PYPI_INDEX="$PYPI_URL/simple" &&
	export CUENV_PYPI_INDEX &&
	expect_code 0 cuenv install --for torch==2.1.2 --dry-run --source redist &&
	check "install --for read no .metadata: $(cat "$PYPI_LOG")" \
		grep -q "GET /packages/$whl.metadata - 200" "$PYPI_LOG" &&
	check "install --for read the wheel: $(cat "$PYPI_LOG")" \
		sh -c "! grep -q 'GET /packages/$whl ' '$PYPI_LOG'"
