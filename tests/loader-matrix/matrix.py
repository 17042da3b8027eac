#!/usr/bin/env python3
"""The loader model against the real loader, in real venvs (issues 21, 31).

Eight venvs from the package index, every wheel pinned by sha256: torch
2.7.1 (CUDA 12.6, torch-2.7.1.txt), tensorflow[and-cuda] 2.16.1
(tensorflow-2.16.1.txt), jax[cuda12] 0.4.31 (jax-0.4.31.txt), torch
2.0.1 (CUDA 11.7, its nvidia-*-cu11 wheels, torch-2.0.1.txt),
onnxruntime-gpu 1.20.2 (CUDA 12, cuDNN 9), onnxruntime-gpu 1.18.0 (a
CUDA 11.8 + cuDNN 8 build, without the cu11 wheels: it cannot work on a
machine with CUDA 12 and 13 only), cupy-cuda12x 13.6.0 and ctranslate2
4.6.0, the CUDA 12 ones pinning torch 2.7.1's nvidia wheels (their
files hard-linked, one copy on disk); a ninth, torch-2.7.1-pth, whose
site-packages holds only a .pth file naming torch 2.7.1's; and five
single wheels in folders of their own (side.txt: an older nvJitLink,
CUDA runtimes 12.4 and 12.9, an older cuDNN 9, a CUDA 11.8 runtime).
Each case, for each venv whose CUDA major it fits, sets LD_LIBRARY_PATH
(nothing; one of those folders; the venv's own nvidia/*/lib folders,
alone or after cuDNN 9.0; the machine's CUDA 13 folder from the loader
cache; two at once), or makes a real selection (the folders registered
with `cuenv add` in the matrix's CUENV_ROOT, CUENV_VERSION as `cuenv
use` sets it, with and without CUENV_OVER_VENV=1) that the probe and
doctor run under through `cuenv exec`, as in a hooked shell, the venv
active (VIRTUAL_ENV, its bin on PATH) or not (its python by path); and
then:

  real    the framework's import in the venv's python, no GPU needed
          (torch: also torch.backends.cudnn.version(), which loads cuDNN's
          graph library; torch >= 2.6 itself dlopens the wheels' NVRTC
          and nvJitLink by path on import; jax: jax.devices(); cupy: the
          extension modules it imports on use, each DT_NEEDing its CUDA
          library); then what the framework loads only on a GPU is asked
          of the real loader in the same process: each NVIDIA wheel's
          front library (tensorflow, jax), the names it dlopens (cupy's
          libnvrtc.so.12, ctranslate2's libcublas.so.12), or each CUDA
          library its provider DT_NEEDs (onnxruntime, after preload_dlls()
          where it has it), dlopen'd through a helper library (cc) whose
          RUNPATH or RPATH is that of the asking object ($ORIGIN spelled
          out), and cuDNN's sub-libraries through one with its front
          library's (a wheel's, or one bundled under an auditwheel
          name), names tried as cuDNN does. The CUDA libraries
          /proc/self/maps then shows. "Broken" when any of that fails,
          when cuDNN comes from two folders, or a CUDA library from
          outside the venv is older than the venv's own wheel (versions
          from RECORDs or file names).
  model   `cuenv doctor --python VENV/bin/python --json`: the files its
          python-loads finding lists must equal, by real path, the CUDA
          libraries maps shows; its verdict (a python-selection or
          python-foreign problem, exit 15) must equal the real one.
  fix     each such problem's fix is run as printed (sh -c 'FIX; exec
          python ...') and the whole re-checked: it must then work.

The venvs and folders are cached in ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/
loader-matrix (about 17 GB once identical files are hard-linked), each
rebuilt when what it holds differs from its own pins, a venv no longer
here removed, from wheels fetched then (about 9 GB, removed once every
venv is built; MATRIX_ONLY="venv ..." runs those venvs only). Exits 77
when the index cannot be reached and nothing is cached, or no CPython
3.11 is found (run.sh skips).

    matrix.py CUENV_BIN
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.environ.get("CUENV_CI_CACHE", "/var/cache/cuenv-ci"),
                     "loader-matrix")
WHEELS = os.path.join(CACHE, "wheels")
CUDA = re.compile(r"^lib(cudart|cublas|cublasLt|cufft|cufftw|curand|cusolver|"
                  r"cusolverMg|cusparse|cusparseLt|cufile|nvrtc|nvrtc-builtins|"
                  r"nvJitLink|cudnn|cudnn_[a-z_]+|nccl|nvToolsExt|cupti|nvperf_host|"
                  r"nvperf_target)\.so(\.[0-9.]+)?$")
SIDES = {  # folder name: (its line in side.txt, the lib folder in it)
    "nvjitlink-12.0": ("nvidia-nvjitlink-cu12==12.0.140", "nvidia/nvjitlink/lib"),
    "cudart-12.4": ("nvidia-cuda-runtime-cu12==12.4.127", "nvidia/cuda_runtime/lib"),
    "cudart-12.9": ("nvidia-cuda-runtime-cu12==12.9.79", "nvidia/cuda_runtime/lib"),
    "cudnn-9.0": ("nvidia-cudnn-cu12==9.0.0.312", "nvidia/cudnn/lib"),
    "cudart-11.8": ("nvidia-cuda-runtime-cu11==11.8.89", "nvidia/cuda_runtime/lib"),
}

CUDNN9_SUBS = ["libcudnn_graph", "libcudnn_ops", "libcudnn_cnn", "libcudnn_adv",
               "libcudnn_engines_precompiled", "libcudnn_engines_runtime_compiled",
               "libcudnn_heuristic"]
CUDNN8_SUBS = ["libcudnn_ops_infer", "libcudnn_ops_train", "libcudnn_cnn_infer",
               "libcudnn_cnn_train", "libcudnn_adv_infer", "libcudnn_adv_train"]

# onnxruntime dlopens its CUDA provider by path when a CUDA session is
# made (RTLD_NOW); with no driver, 1.20's crashes in its own initializer
# once the loader has bound it, so the probe asks the real loader for
# each CUDA library it DT_NEEDs ("NEEDED"), through a helper with its
# search path (1.20: none; 1.18: RPATH $ORIGIN/../../onnxruntime_gpu.libs).
ORT_CUDA = [("onnxruntime/capi/libonnxruntime_providers_cuda.so", "NEEDED")]

# What Paddle's dynamic loader dlopens when it computes, each by its
# plain name from libphi.so (phi/backends/dynload/dynamic_loader.cc of
# 2.6: the ones whose failure it raises, and cuDNN).
PADDLE_NAMES = ["libcublas.so", "libcublasLt.so", "libcudnn.so", "libcurand.so",
                "libcusolver.so", "libcusparse.so", "libcufft.so"]

# Each venv: its requirements file, what the probe imports, the object
# its framework dlopens CUDA from by name (the wheels' front libraries;
# or a list of objects, each with the names it asks for; None: by
# DT_NEEDED, or by path from Python, only), and the CUDA major of its
# wheels (which cases apply).
VENVS = {
    "torch-2.7.1": ("torch-2.7.1.txt", "torch", None, 12),
    "tensorflow-2.16.1": ("tensorflow-2.16.1.txt", "tensorflow",
                          "tensorflow/libtensorflow_framework.so.2", 12),
    "jax-0.4.31": ("jax-0.4.31.txt", "jax", "jax_plugins/xla_cuda12/xla_cuda_plugin.so", 12),
    "torch-2.0.1": ("torch-2.0.1.txt", "torch", None, 11),
    "onnxruntime-1.20.2": ("onnxruntime-1.20.2.txt", "onnxruntime", ORT_CUDA, 12),
    "onnxruntime-1.18.0": ("onnxruntime-1.18.0.txt", "onnxruntime", ORT_CUDA, 11),
    "cupy-13.6.0": ("cupy-13.6.0.txt", "cupy",
                    [("cupy_backends/cuda/libs/nvrtc.cpython-311-x86_64-linux-gnu.so",
                      ["libnvrtc.so.12"])], 12),
    "paddle-2.6.1": ("paddle-2.6.1.txt", "paddle",
                     [("paddle/libs/libphi.so", [n]) for n in PADDLE_NAMES], 11),
    "ctranslate2-4.6.0": ("ctranslate2-4.6.0.txt", "ctranslate2",
                          [("ctranslate2.libs/libctranslate2-c75cca97.so.4.6.0",
                            ["libcublas.so.12"])], 12),
}
# Venvs whose site-packages holds only a .pth file naming another
# venv's site-packages, where the packages really are.
PTH = {"torch-2.7.1-pth": "torch-2.7.1"}
# The extension modules cupy imports when it computes, each DT_NEEDing
# its CUDA library (cuDNN, NCCL and cuTENSOR are optional to it).
CUPY_MODULES = ["cupy_backends.cuda.libs.cublas", "cupy_backends.cuda.libs.cusolver",
                "cupy_backends.cuda.libs.cusparse", "cupy_backends.cuda.libs.curand",
                "cupy_backends.cuda.libs.nvrtc", "cupy.cuda.cufft", "cupy.cuda.jitify",
                "cupyx.cusolver"]
FRONT = re.compile(r"^lib(cudart|cupti|cublas|cublasLt|cufft|curand|cusolver|cusparse|"
                   r"nvrtc|nvJitLink|cudnn|nccl)\.so\.[0-9]+$")
HELPER_C = r"""
#include <dlfcn.h>
const char *cuenv_probe_dlopen(const char *name)
{
	return dlopen(name, RTLD_NOW | RTLD_LOCAL) ? "" : dlerror();
}
"""

PROBE = r"""
import ctypes, json, os, re, sys
ok, msg = True, ""
fw = os.environ["MATRIX_FW"]
def maps():
    out = set()
    for line in open("/proc/self/maps"):
        p = line.split()
        if len(p) >= 6 and ".so" in p[5]:
            out.add(os.path.realpath(p[5]))
    return out
try:
    if fw == "torch":
        import torch
        try:
            msg = "cudnn %s" % torch.backends.cudnn.version()
        except Exception as e:
            ok, msg = False, "cudnn: %s" % e
    elif fw == "tensorflow":
        import tensorflow
        msg = "tensorflow %s" % tensorflow.__version__
    elif fw == "onnxruntime":
        import onnxruntime
        if hasattr(onnxruntime, "preload_dlls"):
            onnxruntime.preload_dlls()
        msg = "onnxruntime %s" % onnxruntime.__version__
    elif fw == "ctranslate2":
        import ctranslate2
        msg = "ctranslate2 %s, %d CUDA devices" % (ctranslate2.__version__,
                                                   ctranslate2.get_cuda_device_count())
    elif fw == "paddle":
        import paddle
        msg = "paddle %s, cuDNN %s" % (paddle.__version__, paddle.device.get_cudnn_version())
    elif fw == "cupy":
        import importlib
        import cupy
        for m in json.loads(os.environ["MATRIX_CUPY"]):
            importlib.import_module(m)
        msg = "cupy %s" % cupy.__version__
    else:
        import jax
        msg = "jax %s on %s" % (jax.__version__, jax.devices()[0].platform)
except Exception as e:
    ok, msg = False, "%s: %s" % (type(e).__name__, e)
# what the framework dlopens when it computes (it needs a GPU to get
# there): each name asked for through a helper whose search path is the
# asking object's own (its RUNPATH or RPATH, $ORIGIN spelled out), by
# the real loader, in this process
def ask(helper, names):
    f = ctypes.CDLL(helper).cuenv_probe_dlopen
    f.restype = ctypes.c_char_p
    for n in names:
        err = f(n.encode()).decode()
        if not err:
            return None
    return err
plan = json.loads(os.environ.get("MATRIX_DLOPENS", "[]"))
for helper, names in plan:
    if ok and names:
        err = ask(helper, names)
        if err:
            ok, msg = False, "dlopen: " + err
sub = json.loads(os.environ.get("MATRIX_CUDNN", "{}"))
while ok and sub:
    # its front library: the wheel's, or one a wheel bundles under an
    # auditwheel name (libcudnn-HASH.so.9.1.0)
    fronts = [p for p in maps() if re.match(r"libcudnn(-[0-9a-f]{8})?\.so\.",
                                            os.path.basename(p))]
    if not fronts:
        break
    front = sorted(fronts)[0]
    helper = sub.get("helpers", {}).get(os.path.dirname(front))
    if not helper:
        ok, msg = False, "no helper for cuDNN in " + os.path.dirname(front)
        break
    ver = sub.get("versions", {}).get(front, "")
    major = os.path.basename(front).split(".so.")[1].split(".")[0]
    stems = sub["subs9"] if int(major) >= 9 else sub["subs8"]
    for stem in stems:
        v = ver.split(".")
        names = ([stem + ".so." + ".".join(v[:3]), stem + ".so." + ".".join(v[:2])]
                 if int(major) >= 9 and len(v) >= 3 and v[0] == major else [])
        names.append(stem + ".so." + major)
        err = ask(helper, names)
        if err and "cannot open shared object file" not in err:
            ok, msg = False, "dlopen: " + err
    break
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


def pinned(req):
    """(name, version) of each line of req, names as dist-info spells them."""
    out = set()
    for l in open(req):
        if l.strip() and not l.startswith("#"):
            name, ver = l.split()[0].split("==")
            out.add((re.sub(r"[-_.]+", "_", name).lower(), ver))
    return out


def current(site, req):
    """Does site hold exactly what req pins (each name at its version)?
    A venv or folder is rebuilt only when its own pins change."""
    have = set()
    for d in os.listdir(site) if os.path.isdir(site) else []:
        m = re.match(r"(.+)-([^-]+)\.dist-info$", d)
        if m:
            have.add((re.sub(r"[-_.]+", "_", m.group(1)).lower(), m.group(2)))
    return pinned(req) <= have


def share(roots):
    """Hard-link identical files across roots (same size, mode and
    sha256), the duplicate replaced atomically (a link under a temporary
    name, then os.replace): venvs pinning the same nvidia wheels keep one
    copy of their files on disk. Returns the bytes freed."""
    groups = {}
    for r in roots:
        for dp, _, fns in os.walk(r):
            for f in fns:
                p = os.path.join(dp, f)
                st = os.lstat(p)
                if stat.S_ISREG(st.st_mode) and st.st_size >= 65536:
                    groups.setdefault((st.st_dev, st.st_size, st.st_mode), {}).setdefault(
                        st.st_ino, p)
    freed = 0
    for (_, size, _), inodes in groups.items():
        if len(inodes) < 2:
            continue
        by_hash = {}
        for p in inodes.values():
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for b in iter(lambda: f.read(1 << 20), b""):
                    h.update(b)
            by_hash.setdefault(h.digest(), []).append(p)
        for keep, *dups in by_hash.values():
            for p in dups:
                tmp = p + ".matrix-link"
                os.link(keep, tmp)
                os.replace(tmp, p)
                freed += size
    return freed


def build(py):
    """The venvs and the side folders, each rebuilt when its pins change;
    venvs no longer in the matrix removed; identical files hard-linked."""
    venvs = {name: os.path.join(CACHE, "venv-" + name) for name in VENVS}
    side_req = os.path.join(HERE, "side.txt")
    os.environ["PIP_ROOT_USER_ACTION"] = "ignore"
    for d in os.listdir(CACHE) if os.path.isdir(CACHE) else []:
        if d.startswith("venv-") and d[5:] not in VENVS and d[5:] not in PTH:
            shutil.rmtree(os.path.join(CACHE, d), ignore_errors=True)
    for name, (req, _, _, _) in VENVS.items():
        venv, req = venvs[name], os.path.join(HERE, req)
        if current(os.path.join(venv, "lib", "python3.11", "site-packages"), req):
            continue
        if not fetch(req, py):
            return None
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([py, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q",
                        "--no-index", "--find-links", WHEELS, "--no-deps",
                        "--require-hashes", "-r", req], check=True)
    for name, (pin, _) in SIDES.items():
        d = os.path.join(CACHE, "side", name)
        line = [l for l in open(side_req) if l.startswith(pin + " ")][0]
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as t:
            t.write(line)
            t.flush()
            if current(d, t.name):
                continue
            if not fetch(t.name, py):
                return None
            shutil.rmtree(d, ignore_errors=True)
            subprocess.run([py, "-m", "pip", "install", "-q", "--no-index",
                            "--find-links", WHEELS, "--no-deps", "--require-hashes",
                            "--target", d, "-r", t.name], check=True)
    # A .pth venv: made with no packages, its site-packages given one
    # file naming the other venv's (a line python's site appends to
    # sys.path)
    for name, of in PTH.items():
        venv = venvs[name] = os.path.join(CACHE, "venv-" + name)
        site = os.path.join(venv, "lib", "python3.11", "site-packages")
        line = os.path.join(venvs[of], "lib", "python3.11", "site-packages") + "\n"
        pth = os.path.join(site, "matrix.pth")
        if os.path.isfile(pth) and open(pth).read() == line and os.listdir(site) == ["matrix.pth"]:
            continue
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([py, "-m", "venv", "--without-pip", venv], check=True)
        open(pth, "w").write(line)
    freed = share([venvs[n] for n in VENVS] + [os.path.join(CACHE, "side")])
    if freed:
        print("loader-matrix: %d MB of identical files hard-linked" % (freed >> 20))
    # Installed, the venvs and folders are the cache: the downloads (9 GB)
    # would only be kept twice; a change of pins fetches again.
    shutil.rmtree(WHEELS, ignore_errors=True)
    return venvs


def search_path(obj):
    """(RUNPATH or RPATH, the list with $ORIGIN spelled out) of obj."""
    p = run(["readelf", "-d", obj])
    for kind in ("RUNPATH", "RPATH"):
        m = re.search(r"\(%s\)\s+Library \w+: \[(.*)\]" % kind, p.stdout)
        if m:
            origin = os.path.dirname(os.path.realpath(obj))
            dirs = [d.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
                    for d in m.group(1).split(":")]
            return kind, ":".join(os.path.normpath(d) for d in dirs if d)
    return None, ""


def helper(obj, root):
    """A library whose dlopen searches what obj's own would: cc, cached."""
    kind, dirs = search_path(obj)
    h = os.path.join(root, "helper-%s.so" % hashlib.sha256(
        ("%s %s" % (kind, dirs)).encode()).hexdigest()[:12])
    with HELPERS:  # venvs run side by side (one_venv)
        return made(h, root, kind, dirs)


HELPERS = threading.Lock()


def made(h, root, kind, dirs):
    """h, compiled from HELPER_C with that search path if not there."""
    if not os.path.exists(h):
        src = os.path.join(root, "helper.c")
        open(src, "w").write(HELPER_C)
        argv = ["cc", "-shared", "-fPIC", "-o", h, src, "-ldl"]
        if kind:
            argv += ["-Wl,--%s-new-dtags" % ("enable" if kind == "RUNPATH" else "disable"),
                     "-Wl,-rpath," + dirs]
        subprocess.run(argv, check=True)
    return h


def fronts(site):
    """The wheels' front libraries in site, the CUDA runtime first."""
    names = set()
    nv = os.path.join(site, "nvidia")
    for d in os.listdir(nv) if os.path.isdir(nv) else []:
        lib = os.path.join(nv, d, "lib")
        for f in os.listdir(lib) if os.path.isdir(lib) else []:
            if FRONT.match(f):
                names.add(f)
    return sorted(names, key=lambda n: (not n.startswith("libcudart."), n))


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


def real_verdict(r, site, versions, major, c13):
    """Broken, and why, from what the real loader did."""
    if not r["ok"]:
        return True, r["msg"]
    cuda = [p for p in r["libs"] if CUDA.match(os.path.basename(p))]
    # the machine's CUDA 13 folder (its cuDNN 9.19 is CUDA 13's too) in a
    # build of another major: no compatibility across majors
    other = [p for p in cuda if major != 13 and c13 and p.startswith(c13 + "/")]
    if other:
        return True, "CUDA 13's %s in a CUDA %d build" % (", ".join(
            sorted(os.path.basename(p) for p in other)), major)
    cudnn_dirs = {os.path.dirname(p) for p in cuda if os.path.basename(p).startswith("libcudnn")}
    if len(cudnn_dirs) > 1:
        return True, "cuDNN from " + ", ".join(sorted(cudnn_dirs))
    own = {os.path.basename(p): v for p, v in versions.items() if p.startswith(site)}
    for p in cuda:
        if p.startswith(site):
            continue
        m = re.search(r"\.so\.([0-9]+\.[0-9]+\.[0-9.]+)$", p)
        theirs = versions.get(p) or (m and m.group(1))
        # the venv's copy of the same soname: the file a name in maps
        # stands for (libcusparse.so.12.0.0.76 -> libcusparse.so.12)
        so = re.sub(r"(\.so\.[0-9]+)\..*$", r"\1", os.path.basename(p))
        mine = own.get(os.path.basename(p)) or own.get(so)
        if theirs and mine and vkey(theirs) < vkey(mine):
            return True, "%s %s older than the venv's %s" % (p, theirs, mine)
    return False, r["msg"]


def real(py, env, prefix=None, via=None, active=True, cwd=None):
    """The probe in py; through `via exec` (a real cuenv selection) when
    via names cuenv; after the shell code prefix (a fix) when given.
    Not active: py run by path with the environment a hooked shell gives
    every program (`cuenv exec env PY`), as doctor in that shell sees it;
    `cuenv exec PY` itself keeps the venv's wheels first (t3030)."""
    env = dict(env)
    run_py = ('"$0" -c "$1"' if not via else
              '"$2" exec "$0" -c "$1"' if active else '"$2" exec env "$0" -c "$1"')
    cmd = ["sh", "-c", (prefix + "; " if prefix else "") + "exec " + run_py,
           py, PROBE] + ([via] if via else [])
    p = run(cmd, env=env, timeout=300, cwd=cwd)
    if p.returncode:
        return {"ok": False, "msg": "probe exit %d: %s" % (p.returncode, p.stderr[-300:]), "libs": []}
    return json.loads(p.stdout.strip().splitlines()[-1])


def model(cuenv, py, env, via=False):
    """doctor's account; via: inside `cuenv exec` (an activated shell)."""
    p = run(([cuenv, "exec"] if via else []) + [cuenv, "doctor", "--python", py, "--json"],
            env=env, timeout=120)
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


def plans(site, fw_obj, root, versions, cudnn_dirs):
    """The probe's environment: what the framework's object dlopens, and
    a helper for each folder a cuDNN front library may come from."""
    dl = []
    for obj, names in ([(fw_obj, fronts(site))] if isinstance(fw_obj, str)
                       else fw_obj or []):
        obj = os.path.join(site, obj)
        if names == "NEEDED":
            names = [n for n in re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]",
                                           run(["readelf", "-d", obj]).stdout)
                     if CUDA.match(n)]
        dl.append([helper(obj, root), names])
    # one dlopen per name: each its own list of one
    dl = [[h, [n]] for h, names in dl for n in names]
    helpers, vers = {}, {}
    for d in cudnn_dirs:
        for f in os.listdir(d) if os.path.isdir(d) else []:
            if re.match(r"libcudnn(-[0-9a-f]{8})?\.so\.", f):
                front = os.path.realpath(os.path.join(d, f))
                helpers[os.path.dirname(front)] = helper(front, root)
                m = re.search(r"\.so\.([0-9]+\.[0-9]+\.[0-9.]+)$", front)
                vers[front] = versions.get(front) or (m.group(1) if m else "")
    return {"MATRIX_DLOPENS": json.dumps(dl),
            "MATRIX_CUDNN": json.dumps({"helpers": helpers, "versions": vers,
                                        "subs9": CUDNN9_SUBS, "subs8": CUDNN8_SUBS})}


def one_venv(vname, spec, c):
    """The cases of one venv: (the lines it prints, cases, disagreements)."""
    _, fwname, fw_obj, major = spec
    cases, side, c13, versions = c["cases"], c["side"], c["c13"], c["versions"]
    base, root, cuenv, venvs = c["base"], c["root"], c["cuenv"], c["venvs"]
    out, bad, total = [], 0, 0
    venv = venvs[vname]
    vpy = os.path.join(venv, "bin", "python")
    # where its packages are: its own site-packages, or the folder
    # its .pth names
    site = os.path.realpath(os.path.join(venvs.get(PTH.get(vname), venv), "lib",
                                         "python3.11", "site-packages"))
    vers = dict(versions)
    vers.update(wheel_versions(site))
    cudnn_dirs = [os.path.join(site, "nvidia", "cudnn", "lib"),
                  side["cudnn-9.0"]] + ([c13] if c13 else []) + [
                      os.path.join(site, d) for d in os.listdir(site) if d.endswith(".libs")]
    extra = plans(site, fw_obj, root, vers, cudnn_dirs)
    extra.update(MATRIX_FW=fwname, MATRIX_CUPY=json.dumps(CUPY_MODULES))
    own = ":".join(sorted(os.path.join(site, "nvidia", d, "lib") for d in (
        os.listdir(os.path.join(site, "nvidia")) if os.path.isdir(os.path.join(site, "nvidia"))
        else []) if os.path.isdir(os.path.join(site, "nvidia", d, "lib"))))
    for name, ld, majors, selection, active in cases:
        if major not in majors or (ld and "WHEELS" in ld and not own):
            continue
        total += 1
        env = dict(base)
        via = cuenv if selection else None
        if ld:
            env["LD_LIBRARY_PATH"] = ld.replace("WHEELS", own)
        if selection:
            env.update(selection)
        if selection and active:
            env.update(VIRTUAL_ENV=venv, PATH=os.path.join(venv, "bin") + ":" + env["PATH"])
        r = real(vpy, dict(env, **extra), via=via, active=active)
        broken, why = real_verdict(r, site, vers, major, c13)
        rc, loads, problems = model(cuenv, vpy, env, via=bool(via))
        maps = {p for p in r["libs"] if CUDA.match(os.path.basename(p))}
        files_ok = loads == maps if r["ok"] else True  # a failed load unmaps
        # through a selection, doctor may also find the thin registered
        # folders incomplete (no CUPTI): a problem, exit 15, that is
        # not the environment's; the verdict is its python- findings'
        verdict_ok = bool(problems) == broken and (
            rc == 15 if problems else (rc != 15 or bool(selection)))
        fixes = []
        for f in problems:
            for alt in f["fix"].split("; or "):
                # `cuenv needs SITE/PKG` changes nothing: it decides what
                # to install (onnxruntime 1.18's CUDA 11); it is run and
                # must answer, the import is not re-checked
                if alt.startswith("cuenv needs "):
                    d = run(["sh", "-c", alt], env=env)
                    fixes.append((alt, "install them with:" in d.stdout,
                                  "decides: " + d.stdout[-200:]))
                    continue
                # in a folder of its own: what `cuenv local` writes
                # there reaches no other case (the venvs run side by side)
                with tempfile.TemporaryDirectory(prefix="cuenv-matrix-fix.") as here:
                    fr = real(vpy, dict(env, **extra), prefix=alt, via=via, active=active,
                              cwd=here)
                fb, fwhy = real_verdict(fr, site, vers, major, c13)
                fixes.append((alt, not fb, fwhy))
        fix_ok = all(ok for _, ok, _ in fixes)
        agree = files_ok and verdict_ok and fix_ok
        bad += not agree
        out.append("%s %-18s %-36s %-10s %-8s %-8s %s" % (
            " " if agree else "!", vname, name[:36], "%d %s" % (len(maps), "agree" if files_ok else "DIFFER"),
            "problem" if problems else "ok", "broken" if broken else "works",
            ", ".join("%s: %s" % (a[:30], ("decides" if a.startswith("cuenv needs ")
                                            else "works") if ok else "BROKEN")
                      for a, ok, _ in fixes) or "-"))
        if not files_ok:
            for p in sorted(loads - maps):
                out.append("    model only: " + p)
            for p in sorted(maps - loads):
                out.append("    real only:  " + p)
        if not verdict_ok or broken:
            out.append("    real: " + why[:300])
            if not verdict_ok:
                out.append("    doctor exit %d" % rc)
            for f in problems:
                out.append("    doctor: " + f["what"][:300])
        for a, ok, w in fixes:
            if not ok:
                out.append("    fix '%s' leaves: %s" % (a, w[:300]))
    return out, total, bad


def main():
    cuenv = os.path.abspath(sys.argv[1])
    py = python311()
    if not py:
        print("loader-matrix: skipped: no CPython 3.11 (the pinned wheels are cp311)")
        return 77
    try:
        venvs = build(py)
    except subprocess.CalledProcessError as e:
        print("loader-matrix: building the venvs failed: %s" % e, file=sys.stderr)
        return 1
    if not venvs:
        return 77
    side, versions = {}, {}
    for name, (_, lib) in SIDES.items():
        d = os.path.join(CACHE, "side", name)
        versions.update(wheel_versions(d))
        side[name] = os.path.join(d, lib)
    c13 = cuda13_dir()
    # (name, LD_LIBRARY_PATH, the CUDA majors of the venvs it is run
    # for, a real selection: CUENV_* for `cuenv exec`, or None)
    cases = [("none", None, (11, 12), None, True),
             ("older minor: nvJitLink 12.0", side["nvjitlink-12.0"], (12,), None, True),
             ("other minor: CUDA runtime 12.4", side["cudart-12.4"], (11, 12), None, True),
             ("newer minor: CUDA runtime 12.9", side["cudart-12.9"], (12,), None, True),
             ("mixed cuDNN: cuDNN 9.0", side["cudnn-9.0"], (12,), None, True),
             ("CUDA 11: CUDA runtime 11.8", side["cudart-11.8"], (11,), None, True),
             # WHEELS: the venv's own nvidia/*/lib folders (what the
             # frameworks without a RUNPATH to them are told to use)
             ("own wheels: the venv's nvidia libs", "WHEELS", (11, 12), None, True),
             ("cuDNN 9.0, then the venv's wheels", side["cudnn-9.0"] + ":WHEELS", (12,),
              None, True)]
    if c13:
        cases.append(("other major: the machine's CUDA 13", c13, (11, 12), None, True))
        cases.append(("CUDA 13 and nvJitLink 12.0", c13 + ":" + side["nvjitlink-12.0"],
                      (12,), None, True))
        cases.append(("CUDA 13 and CUDA runtime 12.4", c13 + ":" + side["cudart-12.4"],
                      (12,), None, True))
    # through a real selection: the side folders registered (cuenv add)
    # in the matrix's CUENV_ROOT, selected as `cuenv use` does, the venv
    # active (VIRTUAL_ENV, its bin first on PATH), or not (its python
    # run by path, no VIRTUAL_ENV)
    sel = {"CUENV_VERSION": "12.4", "CUENV_CUDNN_VERSION": "9.0"}
    cases += [("exec: cuda 12.4, cudnn 9.0", None, (11, 12), sel, True),
              ("exec: 12.4, cudnn 9.0, OVER_VENV", None, (12,),
               dict(sel, CUENV_OVER_VENV="1"), True),
              ("exec: cuda 11.8", None, (11,), {"CUENV_VERSION": "11.8"}, True),
              ("exec: cuda 11.8, OVER_VENV", None, (11,),
               {"CUENV_VERSION": "11.8", "CUENV_OVER_VENV": "1"}, True),
              ("exec, inactive: cuda 12.4, cudnn 9.0", None, (11, 12), sel, False),
              ("exec, inactive: 12.4, 9.0, OVER_VENV", None, (12,),
               dict(sel, CUENV_OVER_VENV="1"), False),
              ("exec, inactive: cuda 11.8", None, (11,), {"CUENV_VERSION": "11.8"}, False)]
    root = tempfile.mkdtemp(prefix="cuenv-matrix.")
    base = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "VIRTUAL_ENV",
                                                             "CONDA_PREFIX", "CUENV_VERSION")}
    # the cuenv under test first on PATH: a fix's `cuenv local system`
    # runs as the user who pastes it runs it
    base.update(CUENV_ROOT=root, CUENV_DRIVER_VERSION="",
                PATH=os.path.dirname(cuenv) + ":/usr/bin:/bin",
                PIP_ROOT_USER_ACTION="ignore", TF_CPP_MIN_LOG_LEVEL="3",
                JAX_PLATFORMS="")
    for what, d in (("cuda", side["cudart-12.4"] + "/../.."),
                    ("cudnn", side["cudnn-9.0"] + "/.."),
                    ("cuda", side["cudart-11.8"] + "/../..")):
        p = run([cuenv, "add", what, os.path.normpath(d)], env=base)
        if p.returncode:
            print("loader-matrix: cuenv add %s %s: %s" % (what, d, p.stderr.strip()),
                  file=sys.stderr)
            return 1
    only = os.environ.get("MATRIX_ONLY", "").split()
    bad = total = 0
    print("%s %-18s %-36s %-10s %-8s %-8s %s" % ("!", "venv", "LD_LIBRARY_PATH", "files", "doctor",
                                            "real", "fix re-checked"))
    ctx = dict(cases=cases, side=side, c13=c13, versions=versions, base=base, root=root,
               cuenv=cuenv, venvs=venvs)
    todo = [(n, s) for n, s in list(VENVS.items()) + [(n, VENVS[of]) for n, of in PTH.items()]
            if not only or n in only]
    # venvs side by side (MATRIX_JOBS, default 2): each case waits on
    # its children, and the venvs share nothing but the compiled helpers
    jobs = int(os.environ.get("MATRIX_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        per = []
        for (vname, _), (lines, n, b) in zip(todo, pool.map(
                lambda t: one_venv(t[0], t[1], ctx), todo)):
            print("\n".join(lines), flush=True)
            per.append("%s %d/%d" % (vname, n - b, n))
            total += n
            bad += b
    print("loader-matrix: agree by venv: " + ", ".join(per))
    shutil.rmtree(root, ignore_errors=True)
    print("loader-matrix: %d cases, %d agree" % (total, total - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
