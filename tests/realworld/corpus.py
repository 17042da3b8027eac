#!/usr/bin/env python3
"""corpus.py: real artifacts from the package index, for `make realworld`.

Each artifact is one wheel on the index (PEP 691 JSON or PEP 503 HTML),
pinned by file name and the index's sha256 of the whole wheel. Wheels are
hundreds of megabytes, so only the few members cuenv reads are fetched, by
HTTP range requests into the zip: the end-of-central-directory record, the
central directory, then each member's local header and data. Every member
is pinned by its own sha256 (MEMBERS below), so a changed wheel or a lying
mirror is caught. The cache (CUENV_CORPUS, default
/var/cache/cuenv-corpus, else ~/.cache/cuenv-corpus) keeps them between
runs: a second run fetches nothing.

    corpus.py fetch            fetch what is missing; print the cache root
    corpus.py pins             fetch and print each member's sha256
    corpus.py list             artifact ids, one a line

Exit status: 0, 1 when a pin does not match, 77 when the index cannot be
reached (the caller skips).
"""
import hashlib
import io
import json
import os
import re
import struct
import sys
import urllib.error
import urllib.request
import zipfile
import zlib

INDEX = os.environ.get("CUENV_CORPUS_INDEX", "https://pypi.org/simple")

# id, project, wheel file name, the index's sha256 of the wheel, members
# (regular expressions over zip member names). Expected answers are not
# here: they are in expected.tsv, written from the publishers' tables.
ARTIFACTS = [
    ("tf-2.5.3", "tensorflow",
     "tensorflow-2.5.3-cp39-cp39-manylinux2010_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.6.5", "tensorflow",
     "tensorflow-2.6.5-cp39-cp39-manylinux2010_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.10.1", "tensorflow",
     "tensorflow-2.10.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.10.1-win", "tensorflow",
     "tensorflow-2.10.1-cp39-cp39-win_amd64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.12.1", "tensorflow",
     "tensorflow-2.12.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.13.1", "tensorflow",
     "tensorflow-2.13.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.15.1", "tensorflow",
     "tensorflow-2.15.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
    ("tf-2.17.1", "tensorflow",
     "tensorflow-2.17.1-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", None,
     [r"tensorflow/python/platform/build_info\.py", r"[^/]+\.dist-info/METADATA"]),
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
    for c in ("/var/cache/cuenv-corpus",
              os.path.expanduser("~/.cache/cuenv-corpus")):
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
    with open(os.path.join(d, ".wheel"), "w") as f:
        f.write("%s\t%s\t%s\n" % (filename, sha, size or ""))
    open(done, "w").close()
    return d, sums


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    load_pins(here)
    cmd = sys.argv[1] if len(sys.argv) > 1 else "fetch"
    if cmd == "list":
        for a in ARTIFACTS:
            print(a[0])
        return 0
    root = cache_root()
    try:
        for a in ARTIFACTS:
            if cmd == "pins":
                d, sums = fetch(root + "/.pins", a, check=False)
                for k, v in sorted(sums.items()):
                    print("%s\t%s" % (k, v))
            else:
                fetch(root, a)
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
