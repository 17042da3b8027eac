#!/usr/bin/env python3
"""oracle.py WHEEL [--scratch DIR]: what a wheel's own bytes say it needs,
independent of cuenv (for tests/sweep/builds.py).

  needed[]   {soname, by}: DT_NEEDED of every ELF member, as `readelf -d -W`
             prints it (each member extracted to scratch alone, then removed)
  verneed[]  {soname, by}: the files of `readelf -V`'s version needs, a
             check on needed[] (each must also be NEEDED; else a warning)
  named[]    {soname, by}: lib*.so[.N...] strings in the ELF members' bytes
             (dlopen targets; the NEEDED names and the member's own names
             are among them too)
  stated     {cuda[], cudnn[], from[]}: versions that .py/.json text members
             at the top two levels state in constants (cuda_version = "12.1",
             "cuda": 1201, CUDA_VERSION = 12010, cudnn_version = '8.6.0',
             +cu124 in a version string), and the CUDA tag of the project's
             name (cupy-cuda12x, cudf-cu12, spconv-cu118)
  provided[] the file names and DT_SONAMEs of the wheel's own ELF members
  cuda_needed[], cuda_named[]: the CUDA-ecosystem names (CUDA_RE) among
             needed[] and named[]
Python 3 stdlib and binutils' readelf only. Output: one JSON object.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

# CUDA-ecosystem library names: toolkit, math libraries, cuDNN, NCCL,
# TensorRT, cuTENSOR, nvCOMP, cuQuantum, driver (libcuda, NVML).
CUDA_RE = re.compile(
    rb"^lib(cuda|cudart|cublas|cublasLt|cufft|cufftw|curand|cusolver|cusolverMg|"
    rb"cusparse|cusparseLt|cudnn[A-Za-z_]*|nccl|nvrtc|nvrtc-builtins|nvJitLink|"
    rb"nvjitlink|nvToolsExt|nvtx3interop|cupti|cufile|cufile_rdma|nvinfer[A-Za-z_]*|"
    rb"nvonnxparser|nvparsers|cutensor[A-Za-z_]*|nvjpeg|npp[a-z]*|nvcomp[A-Za-z_]*|"
    rb"nvblas|nvptxcompiler_static|nvfatbin|cudla|nvidia-ml|custatevec|cutensornet|"
    rb"cudss|nvshmem[a-z_]*|nvperf_host|nvperf_target|cuda_runtime)"
    rb"(-[0-9a-f]{8})?\.so(\.[0-9]+)*$")
SONAME_RE = re.compile(rb"lib[A-Za-z0-9_+-]+\.so(?:\.[0-9]+)*")
HASH_RE = re.compile(r"-[0-9a-f]{8}(?=\.so)")

CHUNK = 8 << 20
OVERLAP = 256

# constants naming a CUDA or cuDNN version in text members
KEY = r"(?P<key>[A-Za-z_]*?(?P<what>cudnn|cuda)[A-Za-z_]*?)"
VAL = r"(?P<q>[\"']?)(?P<val>[0-9]+(?:\.[0-9]+)*)(?P=q)(?![0-9.:])"
CONST_RE = re.compile(
    # a quoted key and its value ("cuda": 1201, 'cuda_version': '12.3'), or
    # a name assigned (CUDA_VERSION = 12010, cuda: Optional[str] = '13.2');
    # never a device string ('cuda:0') nor a comparison (==)
    r"(?i)(?:(?P<kq>[\"'])" + KEY + r"(?P=kq)\s*:\s*|(?<![\"'\w.])" + KEY.replace(
        "key>", "key2>").replace("what>", "what2>") +
    r"\s*(?::\s*[A-Za-z_][A-Za-z_\[\]. ]*?\s*)?=(?!=)\s*)" + VAL)
PLUSCU_RE = re.compile(r"""["'][0-9][0-9.]*[^"'\s]*\+cu(?P<v>[0-9]{2,4})\b""")
NAME_TAG_RE = re.compile(r"(?:^|[-_])cu(?:da)?(?P<v>[0-9]{2,3})(?:x)?(?:$|[-_])")


# names that are not the build's version (counts, arches, paths)
SKIP_KEY = re.compile(r"arch|capab|count|device|min_|_min|max|major|minor|patch|"
                      r"compute|sm_|id$|index|num|flag|enable|use_|home|path|ptx")
# and only names of a version: cuda, CUDA_VERSION, tf_cuda_version,
# cudnn_version, _cuda_ver (not PYTORCH_NO_CUDA_MEMORY_CACHING)
VERSION_KEY = re.compile(r"^_*(?:[a-z]+_)?(cuda|cudnn)(?:_?(?:version|ver))?(?:_str|_string)?$")


def norm(name):
    """the soname without auditwheel's hash (libcudart-9335f6a2.so.12)"""
    return HASH_RE.sub("", name)


def cuda_lib(name):
    return bool(CUDA_RE.match(name.encode()))


def num_major(s, what):
    """the major of a stated version: '12.1' -> 12, 1201 -> 12, 12010 -> 12,
    cuDNN 8600 -> 8, 90100 -> 9"""
    if "." in s:
        return int(s.split(".")[0])
    n = int(s)
    if what == "cuda":
        if n >= 10000:
            return n // 1000
        if n >= 1000:
            return n // 100
        return n if n < 40 else None
    # cudnn
    if n >= 10000:
        return n // 10000
    if n >= 1000:
        return n // 1000
    return n if n < 20 else None


def tag_major(v):
    """+cu124 / -cu118 / cuda12x tags: 124 -> 12, 92 -> 9, 12 -> 12"""
    if len(v) == 2:
        return int(v) if int(v) >= 10 else int(v[0])
    return int(v[:2]) if v[0] == "1" else int(v[0])


def project_of(whl):
    return os.path.basename(whl).split("-")[0].replace("_", "-").lower()


def readelf(args, path):
    p = subprocess.run(["readelf"] + args + [path], capture_output=True, text=True,
                       errors="replace")
    return p.stdout


def scan_elf(z, info, scratch, out):
    """extract one member to scratch, scanning its bytes as it comes"""
    path = os.path.join(scratch, "member")
    named = set()
    tail = b""
    with z.open(info) as src, open(path, "wb") as dst:
        while True:
            b = src.read(CHUNK)
            if not b:
                break
            dst.write(b)
            buf = tail + b
            for m in SONAME_RE.finditer(buf):
                # a match that reaches the buffer's end may go on in the next
                if m.end() < len(buf) - 1:
                    named.add(m.group(0))
            tail = buf[-OVERLAP:]
    for m in SONAME_RE.finditer(tail):
        named.add(m.group(0))
    d = readelf(["-d", "-W"], path)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", d)
    soname = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", d)
    v = readelf(["-V", "-W"], path)
    verneed = re.findall(r"File: (\S+)\s+Cnt:", v)
    os.unlink(path)
    by = info.filename
    for n in needed:
        out["needed"].append({"soname": n, "by": by})
    for n in verneed:
        out["verneed"].append({"soname": n, "by": by})
        if n not in needed:
            out["warnings"].append("%s: readelf -V names %s, not NEEDED" % (by, n))
    for n in sorted(named):
        out["named"].append({"soname": n.decode(), "by": by})
    out["provided"].update(soname)
    if not d.strip():
        out["warnings"].append("%s: readelf -d printed nothing" % by)


def scan_text(z, info, out):
    if info.file_size > (8 << 20):
        return
    try:
        text = z.read(info).decode("utf-8", "replace")
    except (zipfile.BadZipFile, OSError) as e:
        out["warnings"].append("%s: %s" % (info.filename, e))
        return
    for m in CONST_RE.finditer(text):
        key = (m.group("key") or m.group("key2")).lower()
        what = (m.group("what") or m.group("what2")).lower()
        # names that are not the build's version (counts, arches, paths)
        if SKIP_KEY.search(key) or not VERSION_KEY.match(key):
            continue
        if what == "cuda" and "cudnn" in key:
            what = "cudnn"
        maj = num_major(m.group("val"), what)
        if maj is None:
            continue
        line = text.count("\n", 0, m.start()) + 1
        out["stated"][what].append(maj)
        out["stated"]["from"].append("%s:%d: %s" % (info.filename, line,
                                                     m.group(0).strip()[:80]))
    for m in PLUSCU_RE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out["stated"]["cuda"].append(tag_major(m.group("v")))
        out["stated"]["from"].append("%s:%d: %s" % (info.filename, line, m.group(0)[:80]))


# +cuNNN is the build's own only in a version file or a build's JSON
# (torchaudio's version.py, xformers' cpp_lib.json "torch": "2.5.1+cu121");
# elsewhere it is prose (onnxruntime/__init__.py's "2.0.0+cu121" example)
PLUSCU_FILES = re.compile(r"(^|/)(version|_version|build_info|_build_info|about|__about__)\.py$"
                          r"|\.json$")


def stated_of(froms):
    """(cuda majors, cuDNN majors, the entries kept) of stated["from"]
    entries: the rules applied again, so that a record is judged by
    today's (builds.py's judge)"""
    cuda, dnn, kept = set(), set(), []
    for f in froms:
        if f.startswith("project name "):
            m = NAME_TAG_RE.search(f[len("project name "):])
            if m:
                cuda.add(tag_major(m.group("v")))
                kept.append(f)
            continue
        path, _, text = f.partition(": ")
        path = path.rsplit(":", 1)[0]
        m = CONST_RE.search(text)
        if m:
            key = (m.group("key") or m.group("key2")).lower()
            what = (m.group("what") or m.group("what2")).lower()
            if SKIP_KEY.search(key) or not VERSION_KEY.match(key):
                continue
            if what == "cuda" and "cudnn" in key:
                what = "cudnn"
            maj = num_major(m.group("val"), what)
            if maj is not None:
                (cuda if what == "cuda" else dnn).add(maj)
                kept.append(f)
            continue
        m = PLUSCU_RE.search(text) or re.search(r"\+cu(?P<v>[0-9]{2,4})\b", text)
        if m and PLUSCU_FILES.search(path):
            cuda.add(tag_major(m.group("v")))
            kept.append(f)
    return cuda, dnn, kept


def oracle(whl, scratch):
    out = {"wheel": os.path.basename(whl), "needed": [], "verneed": [], "named": [],
           "stated": {"cuda": [], "cudnn": [], "from": []}, "provided": set(),
           "elf_members": 0, "warnings": []}
    proj = project_of(whl)
    m = NAME_TAG_RE.search(proj)
    if m:
        out["stated"]["cuda"].append(tag_major(m.group("v")))
        out["stated"]["from"].append("project name " + proj)
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            name = info.filename
            depth = name.count("/")
            if name.endswith((".py", ".json")) and depth <= 1:
                scan_text(z, info, out)
                continue
            if info.file_size < 64:
                continue
            try:
                with z.open(info) as f:
                    magic = f.read(4)
            except (zipfile.BadZipFile, OSError, NotImplementedError) as e:
                out["warnings"].append("%s: %s" % (name, e))
                continue
            if magic != b"\x7fELF":
                continue
            out["elf_members"] += 1
            out["provided"].add(os.path.basename(name))
            scan_elf(z, info, scratch, out)
    out["provided"] = sorted(out["provided"])
    prov = {norm(p) for p in out["provided"]} | set(out["provided"])
    out["cuda_needed"] = sorted({n["soname"] for n in out["needed"] if cuda_lib(n["soname"])})
    out["cuda_named"] = sorted({n["soname"] for n in out["named"]
                                if cuda_lib(n["soname"]) and n["soname"] not in prov})
    cuda, dnn, kept = stated_of(out["stated"]["from"])
    out["stated"] = {"cuda": sorted(cuda), "cudnn": sorted(dnn), "from": kept,
                     "dropped": [f for f in out["stated"]["from"] if f not in kept]}
    return out


def main():
    args = sys.argv[1:]
    scratch = None
    if "--scratch" in args:
        i = args.index("--scratch")
        scratch = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit("usage: oracle.py WHEEL [--scratch DIR]")
    own = scratch is None
    scratch = scratch or tempfile.mkdtemp(prefix="cuenv-oracle.")
    try:
        json.dump(oracle(args[0], scratch), sys.stdout, indent=1)
        print()
    finally:
        if own:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
