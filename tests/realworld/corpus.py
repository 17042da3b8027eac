#!/usr/bin/env python3
"""corpus.py: real artifacts from the package index, for `make realworld`.

Each artifact is one wheel on the index (PEP 691 JSON or PEP 503 HTML),
pinned by file name and the index's sha256 of the whole wheel. Wheels are
hundreds of megabytes, so only the few members cuenv reads are fetched, by
HTTP range requests into the zip: the end-of-central-directory record, the
central directory, then each member's local header and data. Every member
is pinned by its own sha256 (MEMBERS below), so a changed wheel or a lying
mirror is caught. The cache (CUENV_CORPUS, default $CUENV_CI_CACHE/corpus,
else ~/.cache/cuenv-corpus) keeps them between runs: a second run fetches
nothing.

    corpus.py fetch            fetch what is missing; print the cache root
    corpus.py pins [ID...]     fetch and print each member's sha256
    corpus.py list             artifact ids, one a line

`fetch` also downloads, with pip, the whole wheels venv-jax.txt pins (a
real framework for `needs --python`, about 151 MB) into CACHE/wheels.

Exit status: 0, 1 when a pin does not match, 77 when the index cannot be
reached (the caller skips).
"""
import hashlib
import io
import json
import os
import re
import struct
import time
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
import zlib

INDEX = os.environ.get("CUENV_CORPUS_INDEX", "https://pypi.org/simple")

# id, project, wheel file name, the index's sha256 of the wheel, members
# (regular expressions over zip member names). Expected answers are not
# here: they are in expected.tsv, written from the publishers' tables.
TF = [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]
TORCH = [r"torch/version\.py", r"[^/]+\.dist-info/METADATA"]
META = [r"[^/]+\.dist-info/METADATA"]
CUDART = META + [r"nvidia/cuda_runtime/lib/libcudart\.so\.[0-9.]+",
                 r"nvidia/cu13/lib/libcudart\.so\.[0-9.]+"]

# The real files `cuenv add`, `check` and `doctor` are run on (check.py
# lays them out as pip does and as a toolkit folder): NVIDIA's small
# shared libraries (cuDNN's dispatcher libcudnn.so.N, not its sub-
# libraries of hundreds of MB), the headers that say their versions, and
# the wheels' dist-info (METADATA, RECORD).
DIST = [r"[^/]+\.dist-info/METADATA", r"[^/]+\.dist-info/RECORD"]
LIB_CUDART = DIST + [r"nvidia/cuda_runtime/lib/libcudart\.so\.[0-9.]+",
                     r"nvidia/cuda_runtime/include/cuda_runtime_api\.h"]
LIB_CUPTI = DIST + [r"nvidia/cuda_cupti/lib/libcupti\.so\.[0-9.]+",
                    r"nvidia/cuda_cupti/include/cupti_version\.h"]
LIB_CUDNN = DIST + [r"nvidia/cudnn/lib/libcudnn\.so\.[0-9]+",
                    # cuDNN 9: cudnnGetVersion is answered by the graph
                    # library the dispatcher loads (1.3 MB in the zip)
                    r"nvidia/cudnn/lib/libcudnn_graph\.so\.9",
                    r"nvidia/cudnn/include/cudnn_version\.h"]

ARTIFACTS = [
    ("tf-2.5.3", "tensorflow", "tensorflow-2.5.3-cp39-cp39-manylinux2010_x86_64.whl",
     "d44ca21e797590117cfa6ef99e916d983d40c6ac6e0c05afc6c4c51cde06e8d7", TF),
    ("tf-2.6.5", "tensorflow", "tensorflow-2.6.5-cp39-cp39-manylinux2010_x86_64.whl",
     "9d1c677ea56e8448c0c99119e97825bc5f13dc5989aab579f8b02da8ff82aa2b", TF),
    ("tf-2.10.1", "tensorflow",
     "tensorflow-2.10.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     "ab2d33039fc8b340feb3d1f56db2c3d4bb25f059089a42dbe067b879add61815", TF),
    ("tf-2.10.1-win", "tensorflow", "tensorflow-2.10.1-cp39-cp39-win_amd64.whl",
     "153111af1d773033264f8591f5deffece180a1f16935b579f43edd83acb17584", TF),
    ("tf-2.12.1", "tensorflow",
     "tensorflow-2.12.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     "4856c8e3f45df4dd7bc1f47cdf275bdb759895d386141d8234f4d83f58707db7", TF),
    ("tf-2.13.1", "tensorflow",
     "tensorflow-2.13.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     "04538df649aa0be5050695cdb0c8f2c26e6122ca04c7c1e4471b23c0d6c490cf", TF),
    ("tf-2.15.1", "tensorflow",
     "tensorflow-2.15.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     "89b5aa1022dec47e567512eaf4e1271b8e6c1ff1984e30d0d9127bd1093ed4c5", TF),
    ("tf-2.17.1", "tensorflow",
     "tensorflow-2.17.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     "92c4bbd80013d3ce2f2908923907317286d80be15f8687eb02a54b0af4ff4351", TF),
    ("torch-2.1.2", "torch", "torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl",
     "3a871edd6c02dae77ad810335c0833391c1a4ce49af21ea8cf0f6a5d2096eea8", TORCH),
    ("torch-2.14.1", "torch", "torch-2.14.1-cp310-cp310-manylinux_2_28_x86_64.whl",
     "1fee6b20869a90ccec05e35559a706338ac8aab40a9c4fb58f16667e93af36ae", TORCH),
    ("torch-2.15.0", "torch", "torch-2.15.0-cp311-cp311-manylinux_2_28_x86_64.whl",
     "48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e", TORCH),
    ("jax-cuda12-plugin-0.4.35", "jax-cuda12-plugin",
     "jax_cuda12_plugin-0.4.35-cp310-cp310-manylinux2014_x86_64.whl",
     "5fcc47ef49cb8ff5ceaa67d143a18b22c78456a0967d243963312901d978e96e", META),
    ("cupy-cuda11x-13.6.0", "cupy-cuda11x", "cupy_cuda11x-13.6.0-cp310-cp310-manylinux2014_x86_64.whl",
     "0d7f29e4644b468a00d1ef443e9394bba79932b57b8f77746c19d31dccd9ec94", META),
    ("cupy-cuda12x-14.2.0", "cupy-cuda12x", "cupy_cuda12x-14.2.0-cp310-cp310-manylinux2014_x86_64.whl",
     "0d3205b1ac1093b6019530ba3b7f7080e2283820f452f0c543a3560d58e0b9bf", META),
    ("onnxruntime-gpu-1.31.1", "onnxruntime-gpu",
     "onnxruntime_gpu-1.31.1-cp311-cp311-manylinux_2_28_x86_64.whl",
     "e26c475fe361b2015f45b4b824bd13f0bb20204e59b62814e6f0acd5f3d491a6", META),
    ("nvidia-cuda-runtime-cu11", "nvidia-cuda-runtime-cu11",
     "nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     "f587bd726eb2f7612cf77ce38a2c1e65cf23251ff49437f6161ce0d647f64f7c", CUDART),
    ("nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime-cu12",
     "nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3", CUDART),
    ("nvidia-cuda-runtime-13", "nvidia-cuda-runtime",
     "nvidia_cuda_runtime-13.0.96-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "7f82250d7782aa23b6cfe765ecc7db554bd3c2870c43f3d1821f1d18aebf0548", CUDART),
    ("nvidia-cuda-cupti-cu11", "nvidia-cuda-cupti-cu11",
     "nvidia_cuda_cupti_cu11-11.8.87-py3-none-manylinux1_x86_64.whl",
     "0e50c707df56c75a2c0703dc6b886f3c97a22f37d6f63839f75b7418ba672a8d", META),
    ("nvidia-cuda-cupti-cu12", "nvidia-cuda-cupti-cu12",
     "nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
     "096bcf334f13e1984ba36685ad4c1d6347db214de03dbb6eebb237b41d9d934f", META),
    ("nvidia-cuda-cupti-13", "nvidia-cuda-cupti",
     "nvidia_cuda_cupti-13.0.85-py3-none-manylinux_2_25_x86_64.whl",
     "4eb01c08e859bf924d222250d2e8f8b8ff6d3db4721288cf35d14252a4d933c8", META),
    ("nvidia-cuda-nvrtc-cu11", "nvidia-cuda-nvrtc-cu11",
     "nvidia_cuda_nvrtc_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     "1f27d67b0f72902e9065ae568b4f6268dfe49ba3ed269c9a3da99bb86d1d2008", META),
    ("nvidia-cuda-nvrtc-cu12", "nvidia-cuda-nvrtc-cu12",
     "nvidia_cuda_nvrtc_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
     "210cf05005a447e29214e9ce50851e83fc5f4358df8b453155d5e1918094dcb4", META),
    ("nvidia-cuda-nvrtc-13", "nvidia-cuda-nvrtc",
     "nvidia_cuda_nvrtc-13.0.88-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
     "ad9b6d2ead2435f11cbb6868809d2adeeee302e9bb94bcf0539c7a40d80e8575", META),
    ("nvidia-cudnn-cu11", "nvidia-cudnn-cu11", "nvidia_cudnn_cu11-9.1.0.70-py3-none-manylinux2014_x86_64.whl",
     "e6135ac63fe9d5b0b89cfb35c3fc1c1349f2b995becadf2e9dc21bca89d9633d", META),
    ("nvidia-cudnn-cu12", "nvidia-cudnn-cu12", "nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_x86_64.whl",
     "949452be657fa16687d0930933f032835951ef0892b37d2d53824d1a84dc97a8", META),
    ("nvidia-cudnn-cu13", "nvidia-cudnn-cu13", "nvidia_cudnn_cu13-9.26.0.51-py3-none-manylinux_2_27_x86_64.whl",
     "9c976d539786698c71d6bcdbe2053b7485fae062ff7e1215d2f2ff67b1a2149a", META),
    ("lib-cudart-cu11", "nvidia-cuda-runtime-cu11",
     "nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     "f587bd726eb2f7612cf77ce38a2c1e65cf23251ff49437f6161ce0d647f64f7c", LIB_CUDART),
    ("lib-cudart-cu12", "nvidia-cuda-runtime-cu12",
     "nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3", LIB_CUDART),
    ("lib-cupti-cu11", "nvidia-cuda-cupti-cu11",
     "nvidia_cuda_cupti_cu11-11.8.87-py3-none-manylinux1_x86_64.whl",
     "0e50c707df56c75a2c0703dc6b886f3c97a22f37d6f63839f75b7418ba672a8d", LIB_CUPTI),
    ("lib-cupti-cu12", "nvidia-cuda-cupti-cu12",
     "nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
     "096bcf334f13e1984ba36685ad4c1d6347db214de03dbb6eebb237b41d9d934f", LIB_CUPTI),
    ("lib-cudnn-cu11", "nvidia-cudnn-cu11",
     "nvidia_cudnn_cu11-8.9.6.50-py3-none-manylinux1_x86_64.whl",
     "319a8f7ca3d65139f1b69998595c7076ae0e4271a325e5dfde50a3ca31f55584", LIB_CUDNN),
    ("lib-cudnn-cu12", "nvidia-cudnn-cu12",
     "nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_x86_64.whl",
     "949452be657fa16687d0930933f032835951ef0892b37d2d53824d1a84dc97a8", LIB_CUDNN),
]

MEMBERS = {}  # "id/member": sha256, filled from pins.tsv


def load_pins(here):
    p = os.path.join(here, "pins.tsv")
    if not os.path.exists(p):
        return
    for line in open(p):
        if line.startswith("#") or not line.strip():
            continue
        key, sha = line.split("\t")[:2]
        MEMBERS[key] = sha.strip()


def cache_root():
    c = os.environ.get("CUENV_CORPUS")
    if c:
        return c
    ci = os.environ.get("CUENV_CI_CACHE")
    for c in ([os.path.join(ci, "corpus")] if ci else []) + [
            os.path.expanduser("~/.cache/cuenv-corpus")]:
        try:
            os.makedirs(c, exist_ok=True)
            if os.access(c, os.W_OK):
                return c
        except OSError:
            pass
    sys.exit("corpus: no writable cache folder: set CUENV_CORPUS")


FETCHED = [0]


def get(url, start=None, end=None, accept=None):
    req = urllib.request.Request(url)
    if start is not None:
        req.add_header("Range", "bytes=%d-%s" % (start, "" if end is None else end))
    if accept:
        req.add_header("Accept", accept)
    with urllib.request.urlopen(req, timeout=120) as r:
        data = r.read()
        if start is not None and r.status != 206:
            raise RuntimeError("%s: no range support (HTTP %d)" % (url, r.status))
        FETCHED[0] += len(data)
        return data, r.headers


def find_wheel(project, filename):
    """(url, sha256, size) of filename on the index."""
    base = INDEX.rstrip("/") + "/" + project + "/"
    body, hdr = get(base, accept="application/vnd.pypi.simple.v1+json, "
                    "text/html;q=0.1")
    if "json" in hdr.get("Content-Type", ""):
        for f in json.loads(body)["files"]:
            if f["filename"] == filename:
                return (urllib.parse.urljoin(base, f["url"]),
                        f["hashes"].get("sha256"), f.get("size"))
    else:
        for m in re.finditer(rb'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', body):
            if m.group(2).decode().strip() == filename:
                href = m.group(1).decode()
                sha = re.search(r"#sha256=([0-9a-f]{64})", href)
                return (urllib.parse.urljoin(base, href.split("#")[0]),
                        sha.group(1) if sha else None, None)
    raise RuntimeError("%s: no %s on %s" % (project, filename, INDEX))


def members(url, size, patterns):
    """{name: bytes} of the members matching patterns, by range reads."""
    if not size:
        _, hdr = get(url, 0, 0)
        size = int(hdr["Content-Range"].split("/")[1])
    tail_len = min(size, 65536 + 22)
    tail, _ = get(url, size - tail_len, size - 1)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0:
        raise RuntimeError("%s: no end of central directory" % url)
    (_, _, _, _, n, cd_size, cd_off, _) = struct.unpack("<IHHHHIIH", tail[at:at + 22])
    if cd_off == 0xFFFFFFFF:
        raise RuntimeError("%s: zip64 is not handled" % url)
    if cd_off >= size - tail_len:
        cd = tail[cd_off - (size - tail_len):][:cd_size]
    else:
        cd, _ = get(url, cd_off, cd_off + cd_size - 1)
    out, p = {}, 0
    rx = [re.compile(x + r"\Z") for x in patterns]
    for _ in range(n):
        (sig, _, _, _, method, _, _, _, csize, usize, nlen, xlen, clen, _, _, _,
         off) = struct.unpack("<IHHHHHHIIIHHHHHII", cd[p:p + 46])
        name = cd[p + 46:p + 46 + nlen].decode("utf-8", "replace")
        p += 46 + nlen + xlen + clen
        if not any(r.match(name) for r in rx):
            continue
        hdr, _ = get(url, off, off + 30 + 1024 + csize)
        hn, hx = struct.unpack("<HH", hdr[26:30])
        data = hdr[30 + hn + hx:30 + hn + hx + csize]
        if method == 8:
            data = zlib.decompress(data, -15)
        elif method != 0:
            raise RuntimeError("%s: %s: method %d" % (url, name, method))
        out[name] = data
    return out


def fetch(root, art, check=True):
    aid, project, filename, wheel_sha, pats = art
    d = os.path.join(root, aid)
    done = os.path.join(d, ".done")
    if os.path.exists(done):
        return d, {}
    url, sha, size = find_wheel(project, filename)
    if wheel_sha and sha and sha != wheel_sha:
        raise RuntimeError("%s: the index says sha256 %s, pinned %s" %
                           (filename, sha, wheel_sha))
    got = members(url, size, pats)
    sums = {}
    for name, data in got.items():
        h = hashlib.sha256(data).hexdigest()
        key = aid + "/" + name
        sums[key] = h
        if check and key in MEMBERS and MEMBERS[key] != h:
            raise RuntimeError("%s: sha256 %s, pinned %s" % (key, h, MEMBERS[key]))
        if check and key not in MEMBERS:
            raise RuntimeError("%s: not pinned (pins.tsv)" % key)
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.rename(path + ".tmp", path)
    sums[aid + "/.wheel"] = sha
    with open(os.path.join(d, ".wheel"), "w") as f:
        f.write("%s\t%s\t%s\n" % (filename, sha, size or ""))
    open(done, "w").close()
    return d, sums


def fetch_set(name, artifacts, pins):
    """Fetch a named set of artifacts (abi.py, pe.py) into its own cache
    folder, named after the list: a changed list (another wheel, another
    member pattern) fetches afresh. pins is True to print each member's
    sha256 instead (for NAME-pins.tsv). Returns the folder, or None when
    the index cannot be reached (said on stderr)."""
    tag = hashlib.sha256(repr(artifacts).encode()).hexdigest()[:12]
    root = cache_root()
    base = os.path.join(root, name, tag)
    t0 = time.time()
    try:
        for a in artifacts:
            if pins:
                _, sums = fetch(os.path.join(root, ".pins", name, tag), a,
                                check=False)
                for k, v in sorted(sums.items()):
                    if not k.endswith("/.wheel"):
                        print("%s\t%s" % (k, v))
            else:
                fetch(base, a)
    except (urllib.error.URLError, OSError) as e:
        if isinstance(e, urllib.error.HTTPError):
            raise
        print("%s: cannot reach %s: %s" % (name, INDEX, e), file=sys.stderr)
        return None
    print("%s: %s (%d bytes fetched in %.1f s)"
          % (name, base, FETCHED[0], time.time() - t0), file=sys.stderr)
    return base


def fetch_wheels(root, here):
    """The wheels of venv-jax.txt (whole wheels, pinned by sha256) into
    root/wheels, with pip, once."""
    d = os.path.join(root, "wheels")
    done = os.path.join(d, ".done")
    if os.path.exists(done):
        return
    if subprocess.run([sys.executable, "-c", "import pip"],
                      capture_output=True).returncode:
        print("corpus: no pip: the venv-jax rows are skipped", file=sys.stderr)
        return
    os.makedirs(d, exist_ok=True)
    p = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        "--require-hashes", "--only-binary=:all:",
                        "--python-version", "3.11", "--platform", "manylinux2014_x86_64",
                        "--platform", "manylinux_2_28_x86_64",
                        "--index-url", INDEX, "-d", d,
                        "-r", os.path.join(here, "venv-jax.txt")],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("pip download of venv-jax.txt: %s" % p.stderr.strip()[-500:])
    FETCHED[0] += sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    open(done, "w").close()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    load_pins(here)
    cmd = sys.argv[1] if len(sys.argv) > 1 else "fetch"
    if cmd == "list":
        for a in ARTIFACTS:
            print(a[0])
        return 0
    root = cache_root()
    only = sys.argv[2:]
    try:
        for a in ARTIFACTS:
            if only and a[0] not in only:
                continue
            if cmd == "pins":
                d, sums = fetch(root + "/.pins", a, check=False)
                for k, v in sorted(sums.items()):
                    print("%s\t%s" % (k, v))
            else:
                fetch(root, a)
        if cmd == "fetch" and not only:
            fetch_wheels(root, here)
    except (urllib.error.URLError, OSError) as e:
        if isinstance(e, urllib.error.HTTPError):
            raise
        print("corpus: cannot reach %s: %s" % (INDEX, e), file=sys.stderr)
        return 77
    print("corpus: %s (%d bytes fetched this run)" % (root, FETCHED[0]),
          file=sys.stderr)
    print(root)
    return 0


if __name__ == "__main__":
    import urllib.parse
    sys.exit(main())
