#!/usr/bin/env python3
"""builds.py: the build sweep, for `make sweep` (online; not part of
`make test`).

For every project of packages.txt, the recent releases on the package
index (the newest two of each of the last MINORS minors, yanked files
and pre-releases left out) and, of each, the wheel pip would pick for
CPython 3.11 on manylinux x86_64 with glibc 2.36 (or, with none for
cp311, the nearest CPython's). In a fixed order (round robin over the
projects: every project's newest release first, then each one's second,
...), each artifact is:

  1. asked of cuenv as NAME==VERSION on the real index (--json), under
     /usr/bin/time (peak RSS) and a timeout;
  2. downloaded (the wheel cuenv's "fetched" says it chose; a different
     choice from ours is recorded), checked against the index's sha256,
     and given to cuenv again in place (WHEEL --json);
  3. read by oracle.py (readelf -d/-V and the bytes, no cuenv code);
  4. compared: dropped (a CUDA-ecosystem soname NEEDED by a member that
     cuenv's sonames[]/provides[] lack), named-missing (a CUDA name in a
     member's bytes cuenv lacks; lower severity), major (a stated or
     NEEDED CUDA/cuDNN major against what cuenv read or would install),
     exit (a signal, a timeout or an undocumented exit status), rss (peak
     above needs' 64 MiB bound, tests/bench/needs.sh), agree (the two
     entry points' sonames and minimums).

The cache (CUENV_SWEEP_CACHE, default /var/cache/cuenv-ci/sweep; kept
under 300 MB): index/ the listings (a day), results/CUENVSHA/WHEELSHA.json
each artifact's record, so a rerun with the same binary is instant (the
findings are judged again from the record by today's rules; with
--cached-only an artifact with no record is "not run (time)", not run). Each
wheel is downloaded into a scratch folder of its own and removed when its
artifact is done.

    builds.py CUENV [--limit N] [--max-wheel-mb M] [--out FILE]
                    [--minutes T] [--jobs J] [--only REGEX] [--cached-only]
    builds.py list            the artifacts in order (no cuenv run)

Exit status: 0 when no artifact fails, 1 when one does, 77 when the index
cannot be reached.
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
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402

INDEX = os.environ.get("CUENV_SWEEP_INDEX", "https://pypi.org/simple")
CACHE = os.environ.get("CUENV_SWEEP_CACHE", "/var/cache/cuenv-ci/sweep")
MINORS = int(os.environ.get("CUENV_SWEEP_MINORS", "3"))
PER_MINOR = 2
PY = 11                       # CPython 3.11
GLIBC = 36                    # glibc 2.36
TIMEOUT = 300
RSS_BOUND_KB = 65536          # tests/bench/needs.sh: <= 64 MiB
SCRATCH_MB = 3000
DOCUMENTED_EXITS = {0, 1, 2, 3, 4, 6, 7, 17}   # cuenv needs --help

# ---- PEP 440 ---------------------------------------------------------------

V_RE = re.compile(r"""^v?(?:(?P<epoch>[0-9]+)!)?(?P<rel>[0-9]+(?:\.[0-9]+)*)
    (?:[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>[0-9]*))?
    (?:-(?P<post_n1>[0-9]+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]*))?
    (?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]*))?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?$""", re.X | re.I)
INF = float("inf")


def vparse(v):
    """PEP 440 sort key, or None for what is not a version"""
    m = V_RE.match(v.strip().lower())
    if not m:
        return None
    rel = [int(x) for x in m.group("rel").split(".")]
    while len(rel) > 1 and rel[-1] == 0:
        rel.pop()
    pre_order = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
    pre = None
    if m.group("pre_l"):
        pre = (pre_order[m.group("pre_l")], int(m.group("pre_n") or 0))
    post = None
    if m.group("post_n1") is not None:
        post = int(m.group("post_n1"))
    elif m.group("post_l"):
        post = int(m.group("post_n2") or 0)
    dev = int(m.group("dev_n") or 0) if m.group("dev_l") else None
    if pre is None and post is None and dev is not None:
        kpre = (-INF, 0)
    elif pre is None:
        kpre = (INF, 0)
    else:
        kpre = pre
    kpost = (-INF,) if post is None else (post,)
    kdev = (INF,) if dev is None else (dev,)
    local = ()
    if m.group("local"):
        local = tuple((1, int(p), "") if p.isdigit() else (0, 0, p)
                      for p in re.split(r"[-_.]", m.group("local")))
    return (int(m.group("epoch") or 0), tuple(rel), kpre, kpost, kdev, local)


def is_final(v):
    k = vparse(v)
    return k is not None and k[2] == (INF, 0) and k[4] == (INF,)


def release(v):
    m = V_RE.match(v.strip().lower())
    return [int(x) for x in m.group("rel").split(".")]


def minor_of(v):
    r = release(v) + [0, 0, 0]
    # 0.0.x projects (xformers) have their minors one place down
    return tuple(r[:3]) if r[0] == 0 and r[1] == 0 else tuple(r[:2])


# ---- wheel tags, as pip orders them -----------------------------------------

def platforms():
    """manylinux_2_GLIBC ... manylinux_2_5, with the legacy aliases, then
    linux_x86_64: pip's order, best first"""
    out = []
    for g in range(GLIBC, 4, -1):
        out.append("manylinux_2_%d_x86_64" % g)
        alias = {17: "manylinux2014_x86_64", 12: "manylinux2010_x86_64",
                 5: "manylinux1_x86_64"}.get(g)
        if alias:
            out.append(alias)
    out.append("linux_x86_64")
    return out


def tag_order(py):
    """[(interp, abi, plat)] best first for CPython 3.py (packaging.tags'
    cpython_tags then compatible_tags)"""
    plats = platforms()
    cp = "cp3%d" % py
    tags = []
    for abi in (cp, "abi3", "none"):
        tags += [(cp, abi, p) for p in plats]
    for minor in range(py - 1, 1, -1):
        tags += [("cp3%d" % minor, "abi3", p) for p in plats]
    for interp in ["py3%d" % py, "py3"] + ["py3%d" % m for m in range(py - 1, -1, -1)]:
        tags += [(interp, "none", p) for p in plats]
    tags.append((cp, "none", "any"))
    for interp in ["py3%d" % py, "py3"] + ["py3%d" % m for m in range(py - 1, -1, -1)]:
        tags.append((interp, "none", "any"))
    return {t: i for i, t in enumerate(tags)}


TAGS = {py: tag_order(py) for py in range(6, 15)}


def wheel_tags(fn):
    """(version, {(interp, abi, plat)}) of a wheel file name"""
    parts = fn[:-4].split("-")
    if len(parts) not in (5, 6):
        return None, set()
    ver = parts[1]
    interps, abis, plats = (parts[-3].split("."), parts[-2].split("."),
                            parts[-1].split("."))
    return ver, {(i, a, p) for i in interps for a in abis for p in plats}


def pick(files, py=PY):
    """the file pip would install for CPython 3.py, or None: the best tag;
    of equal tags the larger file"""
    order = TAGS[py]
    best = None
    for f in files:
        _, tags = wheel_tags(f["filename"])
        rank = min((order[t] for t in tags if t in order), default=None)
        if rank is None:
            continue
        key = (rank, -(f.get("size") or 0))
        if best is None or key < best[0]:
            best = (key, f)
    return best[1] if best else None


def pick_nearest(files):
    """(file, python) for cp311, else the nearest CPython's (newer first at
    equal distance)"""
    for py in sorted(range(6, 15), key=lambda p: (abs(p - PY), -p)):
        f = pick(files, py)
        if f:
            return f, py
    return None, None


# ---- the index ---------------------------------------------------------------

FETCHED = [0]


def http(url, headers=None, timeout=120):
    req = urllib.request.Request(url, headers=headers or {})
    return urllib.request.urlopen(req, timeout=timeout)


def listing(project):
    """the project's files on INDEX: [{filename, url, sha256, size, yanked}]
    (cached a day)"""
    path = os.path.join(CACHE, "index", project + ".json")
    try:
        if time.time() - os.path.getmtime(path) < 86400:
            with open(path) as f:
                return json.load(f)
    except OSError:
        pass
    base = INDEX.rstrip("/") + "/" + project + "/"
    try:
        with http(base, {"Accept": "application/vnd.pypi.simple.v1+json"}) as r:
            body = r.read()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise
    FETCHED[0] += len(body)
    files = []
    for f in json.loads(body)["files"]:
        fn = f["filename"]
        if not fn.endswith(".whl"):
            continue
        files.append({"filename": fn, "url": urllib.parse.urljoin(base, f["url"]),
                      "sha256": f["hashes"].get("sha256"), "size": f.get("size") or 0,
                      "yanked": bool(f.get("yanked"))})
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as out:
        json.dump(files, out, separators=(",", ":"))
    os.rename(path + ".tmp", path)
    return files


def packages():
    """[(project, note)] of packages.txt"""
    out = []
    for line in open(os.path.join(HERE, "packages.txt")):
        body = line.split("#", 1)[0].strip()
        if body:
            out.append((body.split()[0], line.split("#", 1)[1].strip() if "#" in line else ""))
    return out


def artifacts_of(project):
    """[(project, version, file, python)] newest first: the newest PER_MINOR
    releases of each of the last MINORS minors with a wheel for this
    machine, yanked files and pre-releases left out"""
    files = listing(project)
    if files is None:
        return []
    byver = {}
    for f in files:
        if f["yanked"]:
            continue
        v, _ = wheel_tags(f["filename"])
        if v and vparse(v) and is_final(v):
            byver.setdefault(v, []).append(f)
    chosen = {}
    for v, fs in byver.items():
        f, py = pick_nearest(fs)
        if f:
            chosen[v] = (f, py)
    vs = sorted(chosen, key=vparse, reverse=True)
    minors = []
    for v in vs:
        if minor_of(v) not in minors:
            minors.append(minor_of(v))
    out = []
    for mn in minors[:MINORS]:
        for v in [v for v in vs if minor_of(v) == mn][:PER_MINOR]:
            out.append((project, v, chosen[v][0], chosen[v][1]))
    return out


def ordered():
    """the fixed order: round robin over packages.txt, newest first"""
    per = [artifacts_of(p) for p, _ in packages()]
    out = []
    for i in range(max(len(a) for a in per)):
        out += [a[i] for a in per if i < len(a)]
    return out


# ---- running cuenv ------------------------------------------------------------

def cuenv_sha(cuenv):
    h = hashlib.sha256()
    real = os.path.realpath(cuenv)
    paths = [real]
    net = os.path.join(os.path.dirname(os.path.dirname(real)), "libexec", "cuenv")
    if os.path.isdir(net):
        paths += sorted(os.path.join(net, x) for x in os.listdir(net))
    paths.append(os.path.join(os.path.dirname(real), "cuenv-net"))   # a build tree
    for p in paths:
        if os.path.isfile(p):
            with open(p, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def run_needs(cuenv, argv, scratch):
    """(rc, json or None, peak KB, seconds, stderr tail, how it ended)"""
    root = tempfile.mkdtemp(prefix="root.", dir=scratch)
    tf = os.path.join(scratch, "time.%d" % threading.get_ident())
    env = dict(os.environ, CUENV_ROOT=root)
    env.pop("CUENV_PYPI_INDEX", None)
    t0 = time.time()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", tf, cuenv, "needs", "--json"]
                         + argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    RUNNING.add(p.pid)
    end = "exit"
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        end = "timeout"
    RUNNING.discard(p.pid)
    dt = time.time() - t0
    rss = None
    try:
        t = open(tf).read()
        m = re.search(r"terminated by signal ([0-9]+)", t)
        if m and end == "exit":
            end = "signal %s" % m.group(1)
        nums = re.findall(r"^([0-9]+)$", t, re.M)
        rss = int(nums[-1]) if nums else None
        os.unlink(tf)
    except OSError:
        pass
    shutil.rmtree(root, ignore_errors=True)
    try:
        d = json.loads(out)
    except ValueError:
        d = None
    return p.returncode, d, rss, dt, err.decode("utf-8", "replace").strip()[-300:], end


def download(f, path):
    h = hashlib.sha256()
    n = 0
    with http(f["url"], timeout=300) as r, open(path, "wb") as out:
        while True:
            b = r.read(4 << 20)
            if not b:
                break
            h.update(b)
            n += len(b)
            out.write(b)
    FETCHED[0] += n
    if f["sha256"] and h.hexdigest() != f["sha256"]:
        raise RuntimeError("%s: sha256 %s, the index says %s" % (f["filename"], h.hexdigest(),
                                                                 f["sha256"]))


# ---- comparing ----------------------------------------------------------------

MAJOR_OF = {"libcudart": 0, "libcublas": 0, "libcublasLt": 0, "libnvrtc": 0,
            "libnvJitLink": 0, "libcupti": 0, "libcufft": 1}   # CUDA major = soname major + k


def soname_cuda_major(n):
    m = re.match(r"^(lib[A-Za-z]+)(?:-[0-9a-f]{8})?\.so\.([0-9]+)", n)
    if m and m.group(1) in MAJOR_OF and 9 <= int(m.group(2)) <= 20:
        return int(m.group(2)) + MAJOR_OF[m.group(1)]
    return None


DRIVER_RE = re.compile(r"^lib(cuda|nvidia-ml)\.so")


def soname_cudnn_major(n):
    m = re.match(r"^libcudnn(?:_[a-z_]+)?(?:-[0-9a-f]{8})?\.so\.([0-9]+)", n)
    return int(m.group(1)) if m else None


def vmajor(v):
    m = re.match(r"([0-9]+)", v or "")
    return int(m.group(1)) if m else None


def cuenv_names(d):
    names = set()
    for s in d.get("sonames", []):
        names.add(s["soname"])
    for p in d.get("provides", []):
        names.add(p["soname"])
        names.add(p.get("path") or "")
    names |= set(re.findall(r"(lib[A-Za-z0-9_+-]+\.so(?:\.[0-9]+)*)",
                            " ".join(d.get("unknown", []))))
    return {oracle.norm(n) for n in names if n}


def cuenv_read(d):
    """CUDA and cuDNN majors cuenv read: the reports' minimums, the
    releases its sonames were matched to"""
    cuda, dnn = set(), set()
    for r in d.get("reports", []):
        if vmajor(r.get("cuda_min")) is not None:
            cuda.add(vmajor(r.get("cuda_min")))
        if vmajor(r.get("cudnn_min")) is not None:
            dnn.add(vmajor(r.get("cudnn_min")))
    return cuda, dnn


def compare(o, d_name, d_wheel):
    """the findings of one artifact"""
    res = {}
    d = d_wheel if d_wheel is not None else d_name
    if d is None:
        return res
    have = cuenv_names(d)
    prov = {oracle.norm(p) for p in o["provided"]}
    dropped = []
    for n in o["needed"]:
        s = n["soname"]
        # one the wheel itself holds (a member of that name) is not asked
        if oracle.cuda_lib(s) and oracle.norm(s) not in have and oracle.norm(s) not in prov:
            dropped.append("%s NEEDED by %s" % (s, n["by"]))
    # the driver's libraries (libcuda, NVML) are not cuenv's to install:
    # counted apart
    res["driver"] = sorted({x for x in dropped if DRIVER_RE.match(x)})
    res["dropped"] = sorted(set(dropped) - set(res["driver"]))
    needed = {oracle.norm(n["soname"]) for n in o["needed"]}
    named = []
    for n in o["named"]:
        s = oracle.norm(n["soname"])
        # an unversioned name beside a versioned soname of the library
        # that cuenv lists is the documented rule (the versioned one decides)
        unversioned = s.endswith(".so") and any(h.startswith(s + ".") for h in have)
        if oracle.cuda_lib(n["soname"]) and s not in needed and s not in prov \
                and s not in have and not unversioned:
            named.append("%s named in %s" % (n["soname"], n["by"]))
    res["driver"] = sorted(set(res["driver"]) | {x for x in named if DRIVER_RE.match(x)})
    res["named_missing"] = sorted({x for x in named if not DRIVER_RE.match(x)})
    # majors
    problems = []
    rcuda, rdnn = cuenv_read(d)
    scuda, sdnn, _ = oracle.stated_of(o["stated"]["from"])
    ncuda = {soname_cuda_major(n["soname"]) for n in o["needed"]} - {None}
    ndnn = {soname_cudnn_major(n["soname"]) for n in o["needed"]} - {None}
    if scuda and rcuda and not (scuda & rcuda):
        problems.append("stated CUDA %s, cuenv read cuda_min %s" % (sorted(scuda), sorted(rcuda)))
    if sdnn and rdnn and not (sdnn & rdnn):
        problems.append("stated cuDNN %s, cuenv read cudnn_min %s" % (sorted(sdnn), sorted(rdnn)))
    # a minimum cuenv read that nothing in the wheel supports, when the
    # wheel does say its CUDA (stated, NEEDED or bundled sonames)
    pcuda = {soname_cuda_major(p) for p in o["provided"]} - {None}
    evidence = scuda | ncuda | pcuda
    if rcuda and evidence and not (rcuda & evidence) and not (scuda and not (scuda & rcuda)):
        problems.append("cuenv read cuda_min %s; the wheel says CUDA %s (stated %s, NEEDED %s, "
                        "bundled %s)" % (sorted(rcuda), sorted(evidence), sorted(scuda),
                                         sorted(ncuda), sorted(pcuda)))
    cat = d.get("catalogue") or {}
    icuda, idnn = vmajor(cat.get("cuda")), vmajor(cat.get("cudnn"))
    want = ncuda if len(ncuda) == 1 else (scuda if len(scuda) == 1 else
                                          (pcuda if not ncuda and not scuda else set()))
    if icuda is not None and want and icuda not in want:
        problems.append("%s CUDA %s, cuenv would install CUDA %s (%s)" % (
            "NEEDED" if len(ncuda) == 1 else "stated" if len(scuda) == 1 else "bundled", sorted(want), cat.get("cuda"),
            cat.get("install")))
    wantd = ndnn if len(ndnn) == 1 else (sdnn if len(sdnn) == 1 else set())
    if idnn is not None and wantd and idnn not in wantd:
        problems.append("%s cuDNN %s, cuenv would install cuDNN %s" % (
            "NEEDED" if len(ndnn) == 1 else "stated", sorted(wantd), cat.get("cudnn")))
    res["major"] = problems
    # stated but not read at all (lower severity)
    unread = []
    sreleases = set()
    for s in d.get("sonames", []):
        m = re.match(r"CUDA ([0-9]+)", s.get("releases") or "")
        if m:
            sreleases.add(int(m.group(1)))
    if scuda and not rcuda and not (scuda & (sreleases | ncuda | pcuda)):
        unread.append("stated CUDA %s (%s) not in cuenv's reports" % (
            sorted(scuda), "; ".join(x for x in o["stated"]["from"] if "cudnn" not in x.lower())[:160]))
    if sdnn and not rdnn and not (sdnn & ndnn):
        unread.append("stated cuDNN %s not in cuenv's reports" % sorted(sdnn))
    res["unread"] = unread
    return res


def entry_key(d):
    if d is None:
        return None
    son = sorted((s["soname"], bool(s.get("required"))) for s in d.get("sonames", []))
    reps = sorted({(r.get("cuda_min"), r.get("cudnn_min")) for r in d.get("reports", [])},
                  key=repr)
    return {"sonames": son, "minimums": reps, "satisfied": d.get("satisfied")}


def slim(d):
    if d is None:
        return None
    return {"sonames": [{k: s.get(k) for k in ("soname", "releases", "required", "alternative")}
                        for s in d.get("sonames", [])],
            "reports": [{k: r.get(k) for k in ("framework", "source", "cuda_min", "cudnn_min", "notes")}
                        for r in d.get("reports", [])],
            "provides": [{"soname": p["soname"], "path": os.path.basename(p.get("path") or "")}
                         for p in d.get("provides", [])],
            "unknown": d.get("unknown", []), "catalogue": d.get("catalogue"),
            "satisfied": d.get("satisfied"), "fetched": d.get("fetched")}


# ---- one artifact --------------------------------------------------------------

RUNNING = set()     # process groups of cuenv runs in flight
SCRATCH = set()     # scratch folders in use


def on_term(signum, frame):
    """a killed sweep leaves no process and no scratch behind"""
    for pg in list(RUNNING):
        try:
            os.killpg(pg, signal.SIGKILL)
        except OSError:
            pass
    for d in list(SCRATCH):
        shutil.rmtree(d, ignore_errors=True)
    os._exit(128 + signum)

class Budget:
    """scratch megabytes in use, at most SCRATCH_MB at once"""
    def __init__(self, total):
        self.free = total
        self.total = total
        self.cv = threading.Condition()

    def take(self, n):
        n = min(n, self.total)
        with self.cv:
            while self.free < n:
                self.cv.wait()
            self.free -= n
        return n

    def give(self, n):
        with self.cv:
            self.free += n
            self.cv.notify_all()


def one(cuenv, csha, art, budget):
    project, version, f, py = art
    rpath = os.path.join(CACHE, "results", csha[:16], "%s.json" % f["sha256"])
    try:
        with open(rpath) as fh:
            rec = json.load(fh)
            rec["cached"] = True
            return rec
    except (OSError, ValueError):
        pass
    mb = f["size"] / 1e6
    need = budget.take(int(mb * 3) + 100)
    scratch = tempfile.mkdtemp(prefix="cuenv-sweep.")
    SCRATCH.add(scratch)
    rec = {"project": project, "version": version, "wheel": f["filename"],
           "sha256": f["sha256"], "mb": round(mb, 1), "python": "cp3%d" % py}
    try:
        rc, d, rss, dt, err, end = run_needs(cuenv, ["%s==%s" % (project, version)], scratch)
        rec.update(name_rc=rc, name_rss_kb=rss, name_s=round(dt, 1), name_end=end,
                   name_err=err if d is None else "", name=slim(d))
        chosen = ((d or {}).get("fetched") or [{}])[0].get("wheel")
        rec["cuenv_chose"] = chosen
        use = f
        if chosen and chosen != f["filename"]:
            alt = [x for x in listing(project) if x["filename"] == chosen]
            if alt:
                use = alt[0]
        whl = os.path.join(scratch, use["filename"])
        download(use, whl)
        rc2, d2, rss2, dt2, err2, end2 = run_needs(cuenv, [whl], scratch)
        rec.update(wheel_rc=rc2, wheel_rss_kb=rss2, wheel_s=round(dt2, 1), wheel_end=end2,
                   wheel_err=err2 if d2 is None else "", wheel_json=slim(d2))
        # paths in the wheel's answer are WHEEL/...: make them the file name
        t0 = time.time()
        o = oracle.oracle(whl, scratch)
        rec["oracle_s"] = round(time.time() - t0, 1)
        # what compare() reads of the oracle: the CUDA names only
        rec["oracle"] = {k: o[k] for k in ("cuda_needed", "cuda_named", "stated", "warnings",
                                           "elf_members", "provided")}
        rec["oracle"]["needed"] = [n for n in o["needed"] if oracle.cuda_lib(n["soname"])]
        rec["oracle"]["named"] = [n for n in o["named"] if oracle.cuda_lib(n["soname"])]
        rec["error"] = ""
    except Exception as e:  # noqa: BLE001: recorded, the sweep goes on
        rec["error"] = "%s: %s" % (type(e).__name__, e)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        SCRATCH.discard(scratch)
        budget.give(need)
    if not rec["error"]:
        os.makedirs(os.path.dirname(rpath), exist_ok=True)
        with open(rpath + ".tmp", "w") as fh:
            json.dump(rec, fh, separators=(",", ":"))
        os.rename(rpath + ".tmp", rpath)
    rec["cached"] = False
    return rec


def judge(rec):
    """the findings, from the record (so a cached record is judged by
    today's rules)"""
    if rec.get("error") or "oracle" not in rec:
        return rec
    d, d2 = rec.get("name"), rec.get("wheel_json")
    rec["findings"] = compare(rec["oracle"], d, d2)
    k1, k2 = entry_key(d), entry_key(d2)
    rec["agree"] = (k1 == k2) if (k1 is not None and k2 is not None) else None
    if rec["agree"] is False:
        rec["disagree"] = [k for k in k1 if k1[k] != k2[k]]
    return rec


def verdicts(r):
    """(exit-problem, rss-problem) strings, empty when fine"""
    ex = []
    for how in ("name", "wheel"):
        rc, end = r.get(how + "_rc"), r.get(how + "_end")
        if rc is None:
            continue
        if end != "exit":
            ex.append("%s %s" % (how, end))
        elif rc not in DOCUMENTED_EXITS:
            ex.append("%s exit %d" % (how, rc))
    rss = [how for how in ("name", "wheel")
           if (r.get(how + "_rss_kb") or 0) > RSS_BOUND_KB]
    return ex, rss


def failed(r):
    if r.get("status") != "run":
        return False
    f = r.get("findings", {})
    ex, rss = verdicts(r)
    return bool(r.get("error") or f.get("dropped") or f.get("major") or ex or rss
                or r.get("agree") is False)


COLS = ["artifact", "wheel", "python", "mb", "status", "exit_name", "exit_wheel",
        "peak_mb_name", "peak_mb_wheel", "s_name", "s_wheel", "dropped", "named_missing",
        "major", "unread", "driver", "agree", "exit_problem", "rss_problem", "chose_differs",
        "dropped_list", "named_missing_list", "driver_list", "major_list", "unread_list", "error"]


def row(r):
    f = r.get("findings", {})
    ex, rss = verdicts(r)
    mbk = lambda k: "%.1f" % (r[k] / 1024) if r.get(k) else "-"  # noqa: E731
    return {
        "artifact": "%s==%s" % (r["project"], r["version"]), "wheel": r["wheel"],
        "python": r.get("python", "-"), "mb": "%.1f" % r["mb"], "status": r["status"],
        "exit_name": str(r.get("name_rc", "-")), "exit_wheel": str(r.get("wheel_rc", "-")),
        "peak_mb_name": mbk("name_rss_kb"), "peak_mb_wheel": mbk("wheel_rss_kb"),
        "s_name": str(r.get("name_s", "-")), "s_wheel": str(r.get("wheel_s", "-")),
        "dropped": str(len(f.get("dropped", []))) if f else "-",
        "named_missing": str(len(f.get("named_missing", []))) if f else "-",
        "major": str(len(f.get("major", []))) if f else "-",
        "driver": str(len(f.get("driver", []))) if f else "-",
        "unread": str(len(f.get("unread", []))) if f else "-",
        "agree": {True: "yes", False: "NO:" + ",".join(r.get("disagree", [])),
                  None: "-"}[r.get("agree")],
        "exit_problem": ",".join(ex) or "-", "rss_problem": ",".join(rss) or "-",
        "chose_differs": (r.get("cuenv_chose") or "-") if r.get("cuenv_chose") not in
        (None, r["wheel"]) else "-",
        "dropped_list": "; ".join(f.get("dropped", [])) or "-",
        "named_missing_list": "; ".join(f.get("named_missing", [])) or "-",
        "driver_list": "; ".join(f.get("driver", [])) or "-",
        "major_list": "; ".join(f.get("major", [])) or "-",
        "unread_list": "; ".join(f.get("unread", [])) or "-",
        "error": (r.get("error") or r.get("name_err") or "-").replace("\t", " ").replace("\n", " "),
    }


def main():
    args = sys.argv[1:]
    opts = {"--limit": None, "--max-wheel-mb": None, "--out": None, "--minutes": None,
            "--jobs": "1", "--only": None}
    cached_only = "--cached-only" in args
    args = [a for a in args if a != "--cached-only"]
    rest = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            rest.append(args[i])
            i += 1
    try:
        arts = ordered()
    except (urllib.error.URLError, OSError) as e:
        if isinstance(e, urllib.error.HTTPError):
            raise
        print("sweep: cannot reach %s: %s" % (INDEX, e), file=sys.stderr)
        return 77
    if rest == ["list"]:
        for n, (p, v, f, py) in enumerate(arts, 1):
            print("%d\t%s==%s\t%s\tcp3%d\t%.1f MB" % (n, p, v, f["filename"], py, f["size"] / 1e6))
        return 0
    if len(rest) != 1:
        sys.exit(__doc__)
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    cuenv = os.path.abspath(rest[0])
    csha = cuenv_sha(cuenv)
    limit = int(opts["--limit"]) if opts["--limit"] else len(arts)
    maxmb = float(opts["--max-wheel-mb"]) if opts["--max-wheel-mb"] else None
    deadline = time.time() + float(opts["--minutes"]) * 60 if opts["--minutes"] else None
    budget = Budget(SCRATCH_MB)
    records = [None] * len(arts)
    todo = []
    for n, a in enumerate(arts):
        p, v, f, py = a
        base = {"project": p, "version": v, "wheel": f["filename"], "mb": f["size"] / 1e6,
                "python": "cp3%d" % py}
        if opts["--only"] and not re.search(opts["--only"], "%s==%s" % (p, v)):
            records[n] = dict(base, status="not run (--only)")
        elif n >= limit:
            records[n] = dict(base, status="not run (--limit)")
        elif maxmb is not None and f["size"] / 1e6 > maxmb:
            records[n] = dict(base, status="not run (> %g MB)" % maxmb)
        else:
            todo.append(n)
    stop = threading.Event()

    def work(n):
        if stop.is_set() or (deadline and time.time() > deadline):
            stop.set()
            a = arts[n]
            return n, {"project": a[0], "version": a[1], "wheel": a[2]["filename"],
                       "mb": a[2]["size"] / 1e6, "python": "cp3%d" % a[3],
                       "status": "not run (time)"}
        if cached_only and not os.path.exists(os.path.join(
                CACHE, "results", csha[:16], "%s.json" % arts[n][2]["sha256"])):
            a = arts[n]
            return n, {"project": a[0], "version": a[1], "wheel": a[2]["filename"],
                       "mb": a[2]["size"] / 1e6, "python": "cp3%d" % a[3],
                       "status": "not run (time)"}
        r = judge(one(cuenv, csha, arts[n], budget))
        r["status"] = "run"
        f = r.get("findings", {})
        print("[%d/%d] %s==%s %.0f MB: exit %s/%s, %s s, dropped %d, named %d, major %d%s%s" % (
            n + 1, len(arts), r["project"], r["version"], r["mb"], r.get("name_rc"),
            r.get("wheel_rc"), r.get("name_s"), len(f.get("dropped", [])),
            len(f.get("named_missing", [])), len(f.get("major", [])),
            " (cached)" if r.get("cached") else "", " ERROR " + r["error"] if r.get("error") else ""),
            file=sys.stderr, flush=True)
        return n, r

    with concurrent.futures.ThreadPoolExecutor(int(opts["--jobs"])) as ex:
        for n, r in ex.map(work, todo):
            records[n] = r
    rows = [row(r) for r in records]
    if opts["--out"]:
        with open(opts["--out"], "w") as fh:
            fh.write("# tests/sweep/builds.py %s (sha256 %s), %s; index %s; minors %d, "
                     "%d per minor\n" % (rest[0], csha[:16], time.strftime("%Y-%m-%d"),
                                        INDEX, MINORS, PER_MINOR))
            fh.write("\t".join(COLS) + "\n")
            for rw in rows:
                fh.write("\t".join(rw[c] for c in COLS) + "\n")
    show = ["artifact", "mb", "exit_name", "peak_mb_name", "dropped", "named_missing",
            "major", "agree", "status"]
    w = {c: max(len(c), *(len(rw[c]) for rw in rows)) for c in show}
    print("  ".join("%-*s" % (w[c], c) for c in show))
    for rw in rows:
        print("  ".join("%-*s" % (w[c], rw[c]) for c in show))
    ran = [r for r in records if r["status"] == "run"]
    nr = len(ran) or 1
    cnt = lambda pred: sum(1 for r in ran if pred(r))  # noqa: E731
    fx = lambda k: cnt(lambda r: r.get("findings", {}).get(k))  # noqa: E731
    print("\nsweep: %d artifacts in %d projects; %d run, %d not run (%s)" % (
        len(records), len({r["project"] for r in records}), len(ran), len(records) - len(ran),
        ", ".join("%s: %d" % (s, sum(1 for r in records if r["status"] == s))
                  for s in sorted({r["status"] for r in records} - {"run"})) or "-"))
    for label, k in (("dropped", "dropped"), ("named-missing", "named_missing"),
                     ("major", "major"), ("stated-unread", "unread"),
                     ("driver-unlisted", "driver")):
        c = fx(k)
        print("  %-16s %4d of %d (%.1f%%)" % (label, c, len(ran), 100.0 * c / nr))
    for label, pred in (("exit problem", lambda r: verdicts(r)[0]),
                        ("rss > 64 MiB", lambda r: verdicts(r)[1]),
                        ("entry points differ", lambda r: r.get("agree") is False),
                        ("chose other wheel", lambda r: r.get("cuenv_chose") not in (None, r["wheel"])),
                        ("error (sweep)", lambda r: r.get("error")),
                        ("failed (any)", failed)):
        c = cnt(pred)
        print("  %-16s %4d of %d (%.1f%%)" % (label, c, len(ran), 100.0 * c / nr))
    print("  %.0f MB fetched by the sweep itself" % (FETCHED[0] / 1e6))
    return 1 if any(failed(r) for r in ran) else 0


if __name__ == "__main__":
    sys.exit(main())
