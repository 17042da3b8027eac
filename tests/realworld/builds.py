#!/usr/bin/env python3
"""builds.py: the corpus of real framework builds (issue 22), for `make
realworld`.

Each build is one whole wheel from the package index, pinned by file name,
size and sha256. `cuenv needs` is run on it three ways: the wheel in place,
the wheel unpacked into a folder, and NAME==VERSION asked of a local PEP
691 index (tests/fixtures/server.py) that serves the cached wheel, so the
index path (range requests, the wheel pip would pick) is exercised on
every run without the network. A few rows (LIVE) are also asked of the
real index. The three answers must agree, and equal the hand-written
table builds-expected.tsv.

The cache (CUENV_CORPUS/builds, else ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}
/builds) is outside the clone: wheels/ (the downloads) and simple/ (the
local index). A second run fetches nothing. Each wheel is unpacked for the
folder reading into a scratch folder of its own, removed as soon as its
checks are done: the unpacked trees (13 GB) are never kept.

    builds.py fetch           fetch and unpack what is missing; print root
    builds.py check CUENV     run needs the three ways, print the table
    builds.py list            artifact ids

Exit status: 0, 1 when an answer differs or a pin does not match, 77 when
the index cannot be reached (the caller skips).
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile

INDEX = os.environ.get("CUENV_CORPUS_INDEX", "https://pypi.org/simple")

# id, project, version, wheel file name, size, the index's sha256. (Six
# rows left on 2026-12-03, for the cache budget, each a rule another row
# keeps: ctranslate2 4.4.0 (4.0.0's), TF 2.15.1 (TF 2.16.1's), torch 2.0.1 (torch 2.1.2's),
# xgboost 1.7.6 (2.1.1's, catboost's, warp's: the runtime linked in);
# cupy-cuda12x 13.6.0 and onnxruntime-gpu 1.18.0 are installed whole in
# the loader matrix, whose doctor fixes run `cuenv needs` on them.) The
# wheels are those pip picks for CPython 3.11 on x86_64 Linux (this
# machine), so NAME==VERSION asked of the local index chooses the same.
ARTIFACTS = [
    ("ctranslate2-3.24.0", "ctranslate2", "3.24.0",
     "ctranslate2-3.24.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     37004082, "17f8a67684404a776cd2961ff98a6aa0b2fe0ec0488b58d903df3ae1cb6136f3"),
    ("ctranslate2-4.0.0", "ctranslate2", "4.0.0",
     "ctranslate2-4.0.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     36076948, "8c185580ef598c45e343ec3af33bcdb634c723100aef01d26b937da7b2f263dc"),
    ("ctranslate2-4.5.0", "ctranslate2", "4.5.0",
     "ctranslate2-4.5.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     38615237, "89db5b18dfc7f7bf84cafaf7cc36e885aafcaeac936977eefd3e4768fd7b2879"),
    ("paddlepaddle-gpu-2.6.1", "paddlepaddle-gpu", "2.6.1",
     "paddlepaddle_gpu-2.6.1-cp311-cp311-manylinux1_x86_64.whl",
     758871778, "94c4c4036412cfe8bde6e05c9821ff826829d04d79138a9bde6b8302496da42b"),
    ("jax-cuda11-plugin-0.4.25", "jax-cuda11-plugin", "0.4.25",
     "jax_cuda11_plugin-0.4.25-cp311-cp311-manylinux2014_x86_64.whl",
     12365571, "a20ca0817fe4b0d0a79a281dd7b2e2c783f698ad2e2bbf77365a1e3f507c3d7e"),
    ("jax-cuda12-plugin-0.4.25", "jax-cuda12-plugin", "0.4.25",
     "jax_cuda12_plugin-0.4.25-cp311-cp311-manylinux2014_x86_64.whl",
     12373183, "9b352cdb9abeb8c9dd11b1a42e3c476109566f6993d6e59df139c522b27b1822"),
    ("jax-cuda12-plugin-0.4.35", "jax-cuda12-plugin", "0.4.35",
     "jax_cuda12_plugin-0.4.35-cp311-cp311-manylinux2014_x86_64.whl",
     15520457, "1752de1060f4671be6da47b88c1e0bcb1d2fe9e99958e95aa375a9b17dfa1656"),
    ("jax-cuda12-plugin-0.9.2", "jax-cuda12-plugin", "0.9.2",
     "jax_cuda12_plugin-0.9.2-cp311-cp311-manylinux_2_27_x86_64.whl",
     5659276, "d5577cd867bd9267769e453bad850d4807a84396bc976f632a515edbd77e484b"),
    ("jax-cuda12-plugin-0.6.2", "jax-cuda12-plugin", "0.6.2",
     "jax_cuda12_plugin-0.6.2-cp311-cp311-manylinux2014_x86_64.whl",
     15879563, "0896cbb308d95291e205cd89d254029dee3a1df43d66e9831331a9afd2d27870"),
    ("jax-cuda12-pjrt-0.4.35", "jax-cuda12-pjrt", "0.4.35",
     "jax_cuda12_pjrt-0.4.35-py3-none-manylinux2014_x86_64.whl",
     100760554, "0ffe7e1ba65659bd5738c2cc5addaf0a56205d2188eec5da194b63c068e1fdd2"),
    ("jax-0.4.25", "jax", "0.4.25",
     "jax-0.4.25-py3-none-any.whl",
     1812358, "8158c837e5ecc195074b421609e85329a962785b36f9fe5ff53e844e8ad87dbc"),
    ("tensorflow-2.16.1", "tensorflow", "2.16.1",
     "tensorflow-2.16.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     589831274, "930c61100cce3a5cb63d30fe6776504405214e8398a26ca968222ecb8b8f9404"),
    ("cupy-cuda11x-13.6.0", "cupy-cuda11x", "13.6.0",
     "cupy_cuda11x-13.6.0-cp311-cp311-manylinux2014_x86_64.whl",
     99814083, "6fbbc042580d3c6170a449a2643235bef16e74cc997a143767c47d4d6ce95ed2"),
    ("xgboost-2.1.1", "xgboost", "2.1.1",
     "xgboost-2.1.1-py3-none-manylinux_2_28_x86_64.whl",
     153883159, "6475ca35dede1f87d1dc485b362caba08f69f6020f4440e97b167676a533850e"),
    ("catboost-1.2.7", "catboost", "1.2.7",
     "catboost-1.2.7-cp311-cp311-manylinux2014_x86_64.whl",
     98732749, "45b2e6f8d52fd6bbe02d1dee57c9950ab974a5e30af841020359cf7fb198bcbc"),
    ("taichi-1.7.2", "taichi", "1.7.2",
     "taichi-1.7.2-cp311-cp311-manylinux_2_27_x86_64.whl",
     54978095, "4d97a5d87839aabbe93083227cbd9049c1df03469f758209bdc516156d2f60d5"),
    ("warp-lang-1.7.0", "warp-lang", "1.7.0",
     "warp_lang-1.7.0-py3-none-manylinux_2_28_x86_64.whl",
     126537579, "43a6cec83455c85ab053dc77c9b99bacf3c84ae77e70ae79022410d9207c8e28"),
    ("onnxruntime-gpu-1.19.0", "onnxruntime-gpu", "1.19.0",
     "onnxruntime_gpu-1.19.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl",
     223132057, "c8bae9164d9586cbf7c7976915b515584d077470307a255b7ca03cf425ce38bf"),
    ("torch-2.1.2", "torch", "2.1.2",
     "torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl",
     670210421, "a6ebbe517097ef289cc7952783588c72de071d4b15ce0f8b285093f0916b1162"),
    ("faiss-gpu-cu12-1.9.0.0", "faiss-gpu-cu12", "1.9.0.0",
     "faiss_gpu_cu12-1.9.0.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     65338394, "499ef1ba499db19ce1b4423f5268c0194a1a8dab87624012e0cf68cb39783949"),
    ("bitsandbytes-0.45.5", "bitsandbytes", "0.45.5",
     "bitsandbytes-0.45.5-py3-none-manylinux_2_24_x86_64.whl",
     76059261, "a5453f30cc6aab6ccaac364e6bf51a7808d3da5f71763dffeb6d9694c59136e4"),
    ("nvidia-cudnn-frontend-1.8.0", "nvidia-cudnn-frontend", "1.8.0",
     "nvidia_cudnn_frontend-1.8.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl",
     1514424, "e3abf6a1dc03999be12714cbaf719e1d5b5a59d9fd5fa5214bca1022f9edcb7f"),
    ("torchaudio-2.5.1", "torchaudio", "2.5.1",
     "torchaudio-2.5.1-cp311-cp311-manylinux1_x86_64.whl",
     3374576, "7af3f7f92fd33bc9f036a60cdeda4cbeb6bccebd18eae89776dd1e8ed042672e"),
    ("xformers-0.0.28.post3", "xformers", "0.0.28.post3",
     "xformers-0.0.28.post3-cp311-cp311-manylinux_2_28_x86_64.whl",
     16715691, "825563e129f6b22885c2a91e464ff617382f4d78876cc92d96ff618e875aaee3"),
    ("nvidia-cuda-runtime-cu11-11.8.89", "nvidia-cuda-runtime-cu11", "11.8.89",
     "nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     875585, "f587bd726eb2f7612cf77ce38a2c1e65cf23251ff49437f6161ce0d647f64f7c"),
    ("nvidia-cuda-runtime-cu12-12.9.79", "nvidia-cuda-runtime-cu12", "12.9.79",
     "nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     3493179, "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3"),
    ("nvidia-cuda-runtime-13.0.96", "nvidia-cuda-runtime", "13.0.96",
     "nvidia_cuda_runtime-13.0.96-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     2243632, "7f82250d7782aa23b6cfe765ecc7db554bd3c2870c43f3d1821f1d18aebf0548"),
    ("nvidia-nvjitlink-cu12-12.9.86", "nvidia-nvjitlink-cu12", "12.9.86",
     "nvidia_nvjitlink_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
     39748338, "e3f1171dbdc83c5932a45f0f4c99180a70de9bd2718c1ab77d14104f6d7147f9"),
    ("nvidia-cuda-cupti-cu12-12.9.79", "nvidia-cuda-cupti-cu12", "12.9.79",
     "nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
     10814997, "096bcf334f13e1984ba36685ad4c1d6347db214de03dbb6eebb237b41d9d934f"),
]

# asked of the real index as well (small wheels: a warm run stays short)
LIVE = ["ctranslate2-4.5.0", "jax-cuda12-plugin-0.4.35"]


def cache_root():
    c = os.environ.get("CUENV_CORPUS")
    if c:
        return os.path.join(c, "builds")
    return os.path.join(os.environ.get("CUENV_CI_CACHE", "/var/cache/cuenv-ci"),
                        "builds")


FETCHED = [0]


def index_files(project):
    """{filename: (url, sha256, size)} of project on INDEX (PEP 691)."""
    base = INDEX.rstrip("/") + "/" + project + "/"
    req = urllib.request.Request(base, headers={
        "Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        body = r.read()
    FETCHED[0] += len(body)
    return {f["filename"]: (urllib.parse.urljoin(base, f["url"]),
                            f["hashes"].get("sha256"), f.get("size"))
            for f in json.loads(body)["files"]}


def fetch_wheel(root, art):
    aid, project, version, fn, size, sha = art
    path = os.path.join(root, "wheels", fn)
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    url, isha, _ = index_files(project)[fn]
    if isha != sha:
        raise RuntimeError("%s: the index says sha256 %s, pinned %s" % (fn, isha, sha))
    h = hashlib.sha256()
    n = 0
    with urllib.request.urlopen(url, timeout=300) as r, open(path + ".tmp", "wb") as f:
        while True:
            b = r.read(1 << 20)
            if not b:
                break
            h.update(b)
            n += len(b)
            f.write(b)
    FETCHED[0] += n
    if h.hexdigest() != sha or n != size:
        os.unlink(path + ".tmp")
        raise RuntimeError("%s: sha256 %s (%d bytes), pinned %s (%d)"
                           % (fn, h.hexdigest(), n, sha, size))
    os.rename(path + ".tmp", path)
    return path


def unpack(whl):
    """whl unpacked into a new scratch folder (the caller removes it)."""
    d = tempfile.mkdtemp(prefix="cuenv-builds-tree.")
    with zipfile.ZipFile(whl) as z:
        z.extractall(d)
    return d


def local_index(root):
    """root/simple/PROJECT/index.json for every cached wheel."""
    projects = {}
    for a in ARTIFACTS:
        projects.setdefault(a[1], []).append(a)
    for p, arts in projects.items():
        d = os.path.join(root, "simple", p)
        os.makedirs(d, exist_ok=True)
        files = [{"filename": a[3], "url": "../../wheels/" + a[3],
                  "hashes": {"sha256": a[5]}, "size": a[4]} for a in arts]
        doc = {"meta": {"api-version": "1.1"}, "name": p, "files": files,
               "versions": sorted({a[2] for a in arts})}
        with open(os.path.join(d, "index.json.tmp"), "w") as f:
            json.dump(doc, f)
        os.rename(os.path.join(d, "index.json.tmp"), os.path.join(d, "index.json"))


def fetch(only=()):
    root = cache_root()
    t0 = time.time()
    for a in ARTIFACTS:
        if only and a[0] not in only:
            continue
        fetch_wheel(root, a)
    # trees an earlier layout kept, wheels of rows since dropped
    shutil.rmtree(os.path.join(root, "tree"), ignore_errors=True)
    kept = {a[3] for a in ARTIFACTS}
    wheels = os.path.join(root, "wheels")
    for name in [] if only else sorted(os.listdir(wheels)):
        if name.endswith(".whl") and name not in kept:
            os.remove(os.path.join(wheels, name))
    local_index(root)
    print("builds: %s (%d bytes fetched in %.1f s)" % (root, FETCHED[0], time.time() - t0),
          file=sys.stderr)
    return root


# ---- the three entry points ------------------------------------------------


def norm(d, prefix):
    """cuenv's --json answer without the paths and what only one entry point
    says (what was fetched, which wheel was chosen): the part the three must
    agree on."""
    def rel(x):
        if x is None:
            return None
        for p in prefix:
            if x.startswith(p):
                return x[len(p):].lstrip("/")
        return x
    sonames = []
    for s in d.get("sonames", []):
        sonames.append((s["soname"], bool(s.get("required")),
                        rel(s.get("provided_by")) is not None,
                        tuple(sorted(rel(x) for x in s.get("loaded_by", []))),
                        tuple(sorted(rel(x) for x in s.get("needed_by", [])))))
    reps = ((r.get("framework"), r.get("version"), rel(r.get("source")),
                   r.get("cuda_min"), r.get("cudnn_min"),
                   tuple(r.get("dlls", [])), tuple(r.get("notes", [])))
            for r in d.get("reports", []))
    reps = sorted(reps, key=repr)
    prov = sorted(p["soname"] for p in d.get("provides", []))
    alts = sorted(rel(a["pattern"]) for a in d.get("alternatives", []))
    unknown = sorted(set(re.findall(r" loads (lib[^ ,]+)", " ".join(d.get("unknown", [])))))
    return {"sonames": sorted(sonames), "reports": reps, "provides": prov,
            "alternatives": alts, "unknown": unknown,
            "satisfied": d.get("satisfied"), "catalogue": d.get("catalogue"),
            "files_read": d.get("files_read")}


def vkey(v):
    return tuple(int(x) for x in re.findall(r"[0-9]+", v))


def answer(n):
    """(cuda, cudnn, required, provides) as the table spells them."""
    reps = n["reports"]
    cuda = max((r[3] for r in reps if r[3]), key=vkey, default="-")
    dnn = max((r[4] for r in reps if r[4]), key=vkey, default="-")
    # builds for several CUDA releases, one of which is loaded: "any:" and
    # the builds' name with its CUDA tag as "*"
    req = ",".join(sorted([s[0] for s in n["sonames"] if s[1]] +
                          ["any:" + os.path.basename(a)
                           for a in n["alternatives"]] +
                          ["unknown:" + u for u in n["unknown"]])) or "-"
    prov = ",".join(n["provides"]) or "-"
    return cuda, dnn, req, prov


NOT_ASKED = re.compile(r"^lib(nccl|nvinfer[a-z_]*)\.so")


def brings(e):
    """Does a build with the expected row e bring all it needs itself?"""
    prov = [] if e["provides"] == "-" else e["provides"].split(",")
    req = [] if e["required"] == "-" else e["required"].split(",")
    toolkit = [p for p in prov if not re.match(r"^lib(cudnn|nccl|cupti)", p)]
    return (all(r in prov or NOT_ASKED.match(r) for r in req) and
            (e["cuda"] == "-" or bool(toolkit)) and
            (e["cudnn"] == "-" or any(p.startswith("libcudnn") for p in prov)))


def run_needs(cuenv, env, argv):
    p = subprocess.run([cuenv, "needs", "--json"] + argv, env=env,
                       capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


def one(cuenv, env, root, art, url, live):
    aid, project, version, fn = art[:4]
    whl = os.path.join(root, "wheels", fn)
    tree = unpack(whl)
    try:
        return aid, three_ways(cuenv, env, whl, tree, url, project, version, fn, live)
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def three_ways(cuenv, env, whl, tree, url, project, version, fn, live):
    runs = [("wheel", [whl], [whl]), ("folder", [tree], [tree]),
            ("index", ["--index", url, "%s==%s" % (project, version)], [fn])]
    if live:
        runs.append(("live", ["%s==%s" % (project, version)], [fn]))
    out = []
    for how, argv, prefix in runs:
        t0 = time.time()
        rc, d, err = run_needs(cuenv, env, argv)
        dt = time.time() - t0
        if d is None:
            out.append((how, rc, None, "no JSON: " + err.strip()[-200:], dt, None))
            continue
        fx = (d.get("fetched") or [{}])[0]
        out.append((how, rc, norm(d, prefix), err, dt, fx))
    return out


def serve(root):
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="cuenv-builds.")
    pf = os.path.join(tmp, "port")
    srv = subprocess.Popen([sys.executable, os.path.join(here, "..", "fixtures", "server.py"),
                            "--root", root, "--port-file", pf],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(pf):
            break
        time.sleep(0.05)
    port = open(pf).read().strip()
    return srv, tmp, "http://127.0.0.1:%s/simple" % port


def expected(here):
    rows = {}
    for line in open(os.path.join(here, "builds-expected.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows[f[0]] = dict(cuda=f[1], cudnn=f[2], required=f[3], provides=f[4],
                          cuenv=f[5], source=f[6])
    return rows


def check(cuenv, only=()):
    here = os.path.dirname(os.path.abspath(__file__))
    root = cache_root()
    exp = expected(here)
    env = dict(os.environ)
    env["CUENV_ROOT"] = tempfile.mkdtemp(prefix="cuenv-builds-root.")
    env["CUENV_MANIFESTS"] = os.path.join(here, "..", "..", "manifests")
    env.pop("CUENV_PYPI_INDEX", None)
    live = set(os.environ.get("CUENV_BUILDS_LIVE", " ".join(LIVE)).split())
    srv, tmp, url = serve(root)
    arts = [a for a in ARTIFACTS if not only or a[0] in only]
    failed, table, known = 0, [], [0]
    try:
        with concurrent.futures.ThreadPoolExecutor(
                int(os.environ.get("CUENV_BUILDS_JOBS", "2"))) as ex:
            res = list(ex.map(lambda a: one(cuenv, env, root, a, url, a[0] in live), arts))
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(env["CUENV_ROOT"], ignore_errors=True)
    for aid, out in res:
        e = exp.get(aid)
        want = (e["cuda"], e["cudnn"], e["required"], e["provides"]) if e else None
        base = out[0][2]
        for how, rc, n, err, dt, fx in out:
            problems = []
            if how == "live" and rc == 4 and os.environ.get("CUENV_REALWORLD_REQUIRED") != "1":
                table.append((aid, how, "-", "-", "%.1fs" % dt,
                              "ok (skipped: the package index cannot be reached)"))
                continue
            if n is None:
                problems.append(err)
                got = ("?",) * 4
            else:
                got = answer(n)
                if e is None:
                    problems.append("no row in builds-expected.tsv")
                elif e["cuenv"] != "-":
                    # an open disagreement, recorded: cuenv must still give
                    # it (a fix updates the row), and it is said
                    if "/".join(got) != e["cuenv"]:
                        problems.append("cuenv's recorded answer changed: %s" % e["cuenv"])
                    elif how == "wheel":
                        known[0] += 1
                elif got != want:
                    problems += ["%s %s, expected %s" % (k, g, w) for k, g, w in
                                 zip(("cuda", "cudnn", "required", "provides"), got, want)
                                 if g != w]
                if base is not None and n != base:
                    diff = [k for k in n if n[k] != base.get(k)]
                    problems.append("differs from the wheel in place: " + ",".join(diff))
                # exit 1 exactly when not satisfied, 0 when satisfied
                if rc != (0 if n["satisfied"] else 1):
                    problems.append("exit %d" % rc)
                # nothing is installed (an empty CUENV_ROOT): satisfied
                # only when the build brings what the table says it
                # needs (a stated minimum with no library of its family
                # in provides is asked, as Paddle's CUDA 11.8)
                if e and e["cuenv"] == "-" and n["satisfied"] != brings(e):
                    problems.append("satisfied %s, expected %s" % (n["satisfied"], brings(e)))
            extra = ""
            if fx:
                extra = " [%d of %d bytes]" % (fx.get("bytes_fetched", 0), fx.get("size", 0))
            failed += bool(problems)
            verdict = "ok" if not problems else "FAIL: " + "; ".join(problems)
            if not problems and e and e["cuenv"] != "-":
                verdict = "ok (open: cuenv differs from the truth)"
            table.append((aid, how, "/".join(want) if want else "-", "/".join(got) + extra,
                          "%.1fs" % dt, verdict))
    w = [max(len(t[i]) for t in table) for i in range(5)]
    print("%-*s | %-*s | %-*s | %-*s | %-*s | %s" % (w[0], "artifact", w[1], "how", w[2],
          "expected cuda/cudnn/required/provides", w[3], "cuenv", w[4], "time", "verdict"))
    for t in table:
        print("%-*s | %-*s | %-*s | %-*s | %-*s | %s" % (w[0], t[0], w[1], t[1], w[2], t[2],
              w[3], t[3], w[4], t[4], t[5]))
    print("builds: %d artifacts, %d checks, %d failed; %d artifacts where cuenv differs "
          "from the truth (recorded in builds-expected.tsv)" % (len(arts), len(table), failed,
                                                               known[0]))
    return 1 if failed else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "fetch"
    if cmd == "list":
        for a in ARTIFACTS:
            print(a[0])
        return 0
    if cmd == "fetch":
        try:
            print(fetch(sys.argv[2:]))
        except (urllib.error.URLError, OSError) as e:
            if isinstance(e, urllib.error.HTTPError):
                raise
            print("builds: cannot reach %s: %s" % (INDEX, e), file=sys.stderr)
            return 77
        return 0
    if cmd == "check":
        return check(sys.argv[2], sys.argv[3:])
    sys.exit("usage: builds.py fetch|check CUENV|list")


if __name__ == "__main__":
    sys.exit(main())
