#!/usr/bin/env python3
"""The loader model against the real loader, in a real venv (issue 21).

torch 2.4.1 (CUDA 12.1, with its nvidia-*-cu12 wheels) is installed from
the package index into a venv, every wheel pinned by sha256
(torch-2.4.1.txt), and three single wheels into folders of their own
(side.txt: an older nvJitLink, a newer CUDA runtime, an older cuDNN 9).
Each case of the matrix sets LD_LIBRARY_PATH (nothing; one of those
folders; the machine's CUDA 13 folder from the loader cache; two at once)
and then:

  real    `import torch` and torch.backends.cudnn.version() (which loads
          cuDNN's graph library) in the venv's python, no GPU needed; the
          CUDA libraries /proc/self/maps shows. The real verdict is
          "broken" when the import or the cuDNN check raises, when maps
          shows cuDNN's libraries from two folders, or a CUDA library from
          outside the venv older than the venv's own wheel (versions from
          the wheels' RECORDs).
  model   `cuenv doctor --python VENV/bin/python --json`: the files its
          python-loads finding predicts must equal, by real path, the CUDA
          libraries maps shows; its verdict (a python-selection or
          python-foreign problem, exit 15) must equal the real one.
  fix     each such problem's fix is run as printed (sh -c 'FIX; exec
          python ...') and the import re-checked: it must then work.

The wheels are cached in ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/loader-matrix
(about 3.9 GB, fetched once), the venv and folders beside them (rebuilt
when a requirements file changes). Exits 77 when the index cannot be
reached and nothing is cached, or no CPython 3.11 is found (run.sh skips).

    matrix.py CUENV_BIN
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.environ.get("CUENV_CI_CACHE", "/var/cache/cuenv-ci"),
                     "loader-matrix")
WHEELS = os.path.join(CACHE, "wheels")
CUDA = re.compile(r"^lib(cudart|cublas|cublasLt|cufft|cufftw|curand|cusolver|"
                  r"cusolverMg|cusparse|nvrtc|nvrtc-builtins|nvJitLink|cudnn|"
                  r"cudnn_[a-z_]+|nccl|nvToolsExt|cupti|nvperf_host|"
                  r"nvperf_target)\.so(\.[0-9.]+)?$")
SIDES = {  # folder name: (its line in side.txt, the lib folder in it)
    "nvjitlink-12.0": ("nvidia-nvjitlink-cu12==12.0.140", "nvidia/nvjitlink/lib"),
    "cudart-12.4": ("nvidia-cuda-runtime-cu12==12.4.127", "nvidia/cuda_runtime/lib"),
    "cudnn-9.0": ("nvidia-cudnn-cu12==9.0.0.312", "nvidia/cudnn/lib"),
}

PROBE = r"""
import json, os, sys
ok, msg = True, ""
try:
    import torch
    try:
        msg = "cudnn %s" % torch.backends.cudnn.version()
    except Exception as e:
        ok, msg = False, "cudnn: %s" % e
except Exception as e:
    ok, msg = False, "%s: %s" % (type(e).__name__, e)
libs = set()
for line in open("/proc/self/maps"):
    p = line.split()
    if len(p) >= 6 and ".so" in p[5]:
        libs.add(os.path.realpath(p[5]))
print(json.dumps({"ok": ok, "msg": msg, "libs": sorted(libs)}))
"""


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def python311():
    for exe in ("python3.11", "python3"):
        p = shutil.which(exe)
        if p and run([p, "-c", "import sys, venv; sys.exit(sys.version_info[:2] != (3, 11))"]).returncode == 0:
            return p
    return None


def digest(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(open(p, "rb").read())
    return h.hexdigest()[:16]


def fetch(req, py):
    """pip download what req pins into WHEELS, unless all are there."""
    os.makedirs(WHEELS, exist_ok=True)
    have = {f.split("-")[0].lower() + "==" + f.split("-")[1] for f in os.listdir(WHEELS)}
    want = [l.split()[0].replace("-", "_").lower() for l in open(req)
            if l.strip() and not l.startswith("#")]
    if all(w in have for w in want):
        return True
    p = run([py, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes",
             "--only-binary=:all:", "-d", WHEELS, "-r", req])
    if p.returncode:
        print("loader-matrix: pip download: " + p.stderr.strip()[-300:], file=sys.stderr)
    return p.returncode == 0


def build(py):
    """The venv and the side folders, rebuilt when their pins change."""
    reqs = [os.path.join(HERE, "torch-2.4.1.txt"), os.path.join(HERE, "side.txt")]
    stamp = os.path.join(CACHE, "built-" + digest(reqs))
    venv = os.path.join(CACHE, "venv-torch-2.4.1")
    if os.path.exists(stamp):
        return venv
    for r in reqs:
        if not fetch(r, py):
            return None
    shutil.rmtree(venv, ignore_errors=True)
    os.environ["PIP_ROOT_USER_ACTION"] = "ignore"
    subprocess.run([py, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q",
                    "--no-index", "--find-links", WHEELS, "--no-deps",
                    "--require-hashes", "-r", reqs[0]], check=True)
    for name, (pin, _) in SIDES.items():
        d = os.path.join(CACHE, "side", name)
        shutil.rmtree(d, ignore_errors=True)
        line = [l for l in open(reqs[1]) if l.startswith(pin + " ")][0]
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as t:
            t.write(line)
            t.flush()
            subprocess.run([py, "-m", "pip", "install", "-q", "--no-index",
                            "--find-links", WHEELS, "--no-deps", "--require-hashes",
                            "--target", d, "-r", t.name], check=True)
    for old in os.listdir(CACHE):
        if old.startswith("built-"):
            os.remove(os.path.join(CACHE, old))
    open(stamp, "w").close()
    return venv


def wheel_versions(site):
    """Real path of each file a wheel in site installed: its version."""
    out = {}
    for d in os.listdir(site):
        m = re.match(r"(nvidia_[a-z0-9_]+)-([0-9.]+)\.dist-info$", d)
        if not m:
            continue
        for line in open(os.path.join(site, d, "RECORD")):
            f = line.split(",")[0]
            if "/lib/" in f:
                out[os.path.realpath(os.path.join(site, f))] = m.group(2)
    return out


def vkey(v):
    return [int(x) for x in v.split(".")]


def real_verdict(r, site, versions):
    """Broken, and why, from what the real loader did."""
    if not r["ok"]:
        return True, r["msg"]
    cuda = [p for p in r["libs"] if CUDA.match(os.path.basename(p))]
    cudnn_dirs = {os.path.dirname(p) for p in cuda if os.path.basename(p).startswith("libcudnn")}
    if len(cudnn_dirs) > 1:
        return True, "cuDNN from " + ", ".join(sorted(cudnn_dirs))
    own = {os.path.basename(p): v for p, v in versions.items() if p.startswith(site)}
    for p in cuda:
        if p.startswith(site) or p not in versions:
            continue
        mine = own.get(os.path.basename(p))
        if mine and vkey(versions[p]) < vkey(mine):
            return True, "%s %s older than the venv's %s" % (p, versions[p], mine)
    return False, r["msg"]


def real(py, env, prefix=None):
    cmd = [py, "-c", PROBE] if prefix is None else \
        ["sh", "-c", prefix + "; exec \"$0\" -c \"$1\"", py, PROBE]
    p = run(cmd, env=env, timeout=300)
    if p.returncode:
        return {"ok": False, "msg": "probe exit %d: %s" % (p.returncode, p.stderr[-300:]), "libs": []}
    return json.loads(p.stdout.strip().splitlines()[-1])


def model(cuenv, py, env):
    p = run([cuenv, "doctor", "--python", py, "--json"], env=env, timeout=120)
    rep = json.loads(p.stdout)
    loads = set()
    problems = []
    for f in rep["findings"]:
        if f["id"] == "python-loads":
            loads |= {os.path.realpath(x) for x in f["paths"]}
        if f["id"].startswith("python-") and f["severity"] == "problem":
            problems.append(f)
    return p.returncode, loads, problems


def cuda13_dir():
    p = run(["ldconfig", "-p"])
    for line in p.stdout.splitlines():
        m = re.search(r"libcublas\.so\.13 .*=> (\S+)", line)
        if m:
            return os.path.dirname(m.group(1))
    return None


def main():
    cuenv = os.path.abspath(sys.argv[1])
    py = python311()
    if not py:
        print("loader-matrix: skipped: no CPython 3.11 (the pinned wheels are cp311)")
        return 77
    try:
        venv = build(py)
    except subprocess.CalledProcessError as e:
        print("loader-matrix: building the venv failed: %s" % e, file=sys.stderr)
        return 1
    if not venv:
        return 77
    vpy = os.path.join(venv, "bin", "python")
    site = os.path.realpath(os.path.join(venv, "lib", "python3.11", "site-packages"))
    versions = wheel_versions(site)
    side = {}
    for name, (_, lib) in SIDES.items():
        d = os.path.join(CACHE, "side", name)
        versions.update(wheel_versions(d))
        side[name] = os.path.join(d, lib)
    c13 = cuda13_dir()
    cases = [("none", None),
             ("older minor: nvJitLink 12.0 on LD_LIBRARY_PATH", side["nvjitlink-12.0"]),
             ("newer minor: CUDA runtime 12.4 on LD_LIBRARY_PATH", side["cudart-12.4"]),
             ("mixed cuDNN: cuDNN 9.0 on LD_LIBRARY_PATH", side["cudnn-9.0"])]
    if c13:
        cases.append(("the machine's CUDA 13 (%s) on LD_LIBRARY_PATH" % c13, c13))
        cases.append(("CUDA 13 and nvJitLink 12.0", c13 + ":" + side["nvjitlink-12.0"]))
        cases.append(("CUDA 13 and CUDA runtime 12.4", c13 + ":" + side["cudart-12.4"]))
    root = tempfile.mkdtemp(prefix="cuenv-matrix.")
    base = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "VIRTUAL_ENV",
                                                             "CONDA_PREFIX", "CUENV_VERSION")}
    base.update(CUENV_ROOT=root, CUENV_DRIVER_VERSION="", PATH="/usr/bin:/bin",
                PIP_ROOT_USER_ACTION="ignore")
    bad = 0
    print("%-52s %-10s %-8s %-8s %s" % ("case", "files", "doctor", "real", "fix re-checked"))
    for name, ld in cases:
        env = dict(base)
        if ld:
            env["LD_LIBRARY_PATH"] = ld
        r = real(vpy, env)
        broken, why = real_verdict(r, site, versions)
        rc, loads, problems = model(cuenv, vpy, env)
        maps = {p for p in r["libs"] if CUDA.match(os.path.basename(p))}
        files_ok = loads == maps if r["ok"] else True  # a failed import unmaps
        verdict_ok = bool(problems) == broken and (rc == 15) == bool(problems)
        fixes = []
        for f in problems:
            for alt in f["fix"].split("; or "):
                fr = real(vpy, env, prefix=alt)
                fb, fwhy = real_verdict(fr, site, versions)
                fixes.append((alt, not fb, fwhy))
        fix_ok = all(ok for _, ok, _ in fixes)
        bad += not (files_ok and verdict_ok and fix_ok)
        print("%-52s %-10s %-8s %-8s %s" % (
            name[:52], "%d %s" % (len(maps), "agree" if files_ok else "DIFFER"),
            "problem" if problems else "ok", "broken" if broken else "works",
            ", ".join("%s: %s" % (a[:40], "works" if ok else "BROKEN") for a, ok, _ in fixes) or "-"))
        if not files_ok:
            for p in sorted(loads - maps):
                print("    model only: " + p)
            for p in sorted(maps - loads):
                print("    real only:  " + p)
        if not verdict_ok or broken:
            print("    real: " + why)
            for f in problems:
                print("    doctor: " + f["what"][:300])
        for a, ok, w in fixes:
            if not ok:
                print("    fix '%s' leaves: %s" % (a, w))
    shutil.rmtree(root, ignore_errors=True)
    print("loader-matrix: %d cases, %d agree" % (len(cases), len(cases) - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
