#!/usr/bin/env python3
"""mkmirror.py: a file:// mirror of NVIDIA's redist tree, made from the
CUDA libraries already on this machine, for `cuenv install --mirror`.

    python3 tests/gpu/mkmirror.py --cuda PREFIX [--cudnn PREFIX] OUT
                                  [--compress xz|none]

PREFIX is a CUDA toolkit as it lies on disk: a classic install
(/usr/local/cuda: bin/, nvvm/, lib64/ or targets/<arch>/lib, extras/CUPTI),
NVIDIA's wheels gathered into one folder (bin/, lib/, include/, dist-info/),
or a wheel's own folder (site-packages/nvidia/cudnn). Its files are sorted
into the redist components cuenv installs, each keeping its path under
PREFIX (so nvcc.profile's relative paths still hold):

    cuda_cudart   libcudart*, libcudadevrt.a, libculibos.a, stubs/libcuda.so,
                  and the headers no other component below claims
    cuda_cupti    libcupti*, libnvperf*, libpcsamplingutil*, libcheckpoint*,
                  extras/CUPTI/, cupti*.h, nvperf*.h, generated_*_meta.h
    cuda_nvcc     nvcc and the tools it runs (bin/), nvvm/, include/crt/
    cudnn         libcudnn*, cudnn*.h (from --cudnn, or from --cuda)

Other libraries (cuBLAS, cuFFT, NCCL, ...) are left out. Folder links
(lib64 -> lib, targets/x86_64-linux/include -> ../../include) go into
cuda_cudart as links.

What it writes:

  OUT/mirror/compute/cuda/redist/<comp>/linux-x86_64/
          <comp>-linux-x86_64-<version>-archive.tar.xz
  OUT/mirror/compute/cudnn/redist/cudnn/linux-x86_64/
          cudnn-linux-x86_64-<version>_cuda<major>-archive.tar.xz
  OUT/manifests/   a catalogue for CUENV_MANIFESTS: cuda/redistrib_<label>
          .json and cudnn/redistrib_<label>.json with these archives'
          sha256 and size, empty runfile and tarball tables, the
          repository's compat/ tables
  OUT/mirror.json  {"cuda": label, "cudnn": label or null, "components": {}}

The CUDA release label is the catalogue's (the repository's manifests/)
whose cuda_cudart version is the one found here; otherwise the cudart
version itself. Component versions come from dist-info folder names,
version.json (classic installs), or the headers, in that order.

--compress none writes plain .tar archives (quick; the tests use it):
cuenv unpacks by content, not by name.

Python 3 standard library only; `xz` is used for compression when it is
on PATH (all cores), Python's lzma otherwise. None of the archives leaves
this machine: NVIDIA's licences cover what may be redistributed.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PLAT = "linux-x86_64"

# The programs nvcc runs from bin/ (cicc and libnvvm are under nvvm/).
NVCC_TOOLS = {"nvcc", "nvcc.profile", "ptxas", "fatbinary", "nvlink",
              "cudafe++", "bin2c", "__nvcc_device_query", "crt"}
CUPTI_LIBS = ("libcupti", "libnvperf", "libpcsamplingutil", "libcheckpoint")
CUDART_LIBS = ("libcudart", "libcudadevrt", "libculibos")
# Where a prefix keeps libraries and headers.
LIB_DIRS = ("lib", "lib64")
INC_DIR = "include"


def die(msg):
    sys.exit("mkmirror.py: " + msg)


def parts(rel):
    return rel.split("/")


def under(rel, top):
    """Is rel in folder top (a path relative to the prefix)?"""
    return rel == top or rel.startswith(top + "/")


def lib_dir(rel):
    """lib/, lib64/ or targets/<arch>/lib[64]/ (with stubs/ below)."""
    p = parts(rel)
    if len(p) >= 2 and p[0] in LIB_DIRS:
        return True
    return len(p) >= 4 and p[0] == "targets" and p[2] in LIB_DIRS


def inc_dir(rel):
    p = parts(rel)
    if len(p) >= 2 and p[0] == INC_DIR:
        return True
    return len(p) >= 4 and p[0] == "targets" and p[2] == INC_DIR


def component(rel):
    """The redist component a file under the prefix belongs to, or None."""
    base = os.path.basename(rel)
    if under(rel, "extras/CUPTI"):
        return "cuda_cupti"
    if under(rel, "nvvm"):
        return "cuda_nvcc"
    p = parts(rel)
    if p[0] == "bin":
        return "cuda_nvcc" if p[1] in NVCC_TOOLS else None
    if lib_dir(rel):
        if base.startswith("libcudnn"):
            return "cudnn"
        if base.startswith(CUPTI_LIBS):
            return "cuda_cupti"
        if base.startswith(CUDART_LIBS) or rel.endswith("/stubs/libcuda.so"):
            return "cuda_cudart"
        if base.startswith("libnvptxcompiler"):
            return "cuda_nvcc"
        return None
    if inc_dir(rel):
        if base.startswith("cudnn"):
            return "cudnn"
        if base.startswith(("cupti", "nvperf")) or \
                re.match(r"generated_.*_meta\.h$", base):
            return "cuda_cupti"
        if "/crt/" in rel:
            return "cuda_nvcc"
        return "cuda_cudart"
    return None


def walk(prefix):
    """(relative path, is a folder link) for every file and link."""
    out = []
    for dirpath, dirs, files in os.walk(prefix):
        for d in list(dirs):
            if os.path.islink(os.path.join(dirpath, d)):
                dirs.remove(d)
                files.append(d)
        for f in files:
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, prefix)
            out.append((rel, os.path.islink(full) and os.path.isdir(full)))
    return sorted(out)


def sort_files(prefix, want):
    """{component: [relative paths]} for the components in want."""
    comps = {c: [] for c in want}
    for rel, dir_link in walk(prefix):
        c = "cuda_cudart" if dir_link else component(rel)
        if c in comps:
            comps[c].append(rel)
    return comps


def header_define(path, name):
    try:
        with open(path, errors="replace") as f:
            m = re.search(r"#define\s+%s\s+(\d+)" % name, f.read())
    except OSError:
        return None
    return int(m.group(1)) if m else None


def find_header(prefix, name):
    for d in ("include", "targets/x86_64-linux/include",
              "extras/CUPTI/include"):
        if os.path.isfile(os.path.join(prefix, d, name)):
            return os.path.join(prefix, d, name)
    return None


def dist_info_versions(prefix):
    """{wheel project: version} from dist-info folders in or above prefix."""
    found = {}
    for d in (prefix, os.path.join(prefix, "dist-info"),
              os.path.dirname(os.path.dirname(prefix))):
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for n in names:
            m = re.match(r"(nvidia_[a-z0-9_]+?)-([0-9][0-9.]*)\.dist-info$", n)
            if m:
                found[m.group(1)] = m.group(2)
    return found


def classic_versions(prefix):
    try:
        with open(os.path.join(prefix, "version.json")) as f:
            j = json.load(f)
    except (OSError, ValueError):
        return {}
    return {k: v["version"] for k, v in j.items()
            if isinstance(v, dict) and "version" in v}


def cuda_release(prefix):
    v = header_define(find_header(prefix, "cuda.h") or "", "CUDA_VERSION")
    if not v:
        die("%s: no include/cuda.h with CUDA_VERSION: not a CUDA toolkit"
            % prefix)
    return v // 1000, v % 1000 // 10


def cudnn_version(prefix, wheels):
    h = find_header(prefix, "cudnn_version.h")
    for k, v in wheels.items():
        if k.startswith("nvidia_cudnn"):
            return v
    if not h:
        return None
    return "%d.%d.%d" % tuple(header_define(h, "CUDNN_" + n) or 0
                              for n in ("MAJOR", "MINOR", "PATCHLEVEL"))


def catalogue_label(cudart):
    """The release of the repository's catalogue that ships this cudart."""
    d = os.path.join(REPO, "manifests", "cuda")
    for n in sorted(os.listdir(d)) if os.path.isdir(d) else ():
        try:
            with open(os.path.join(d, n)) as f:
                j = json.load(f)
        except (OSError, ValueError):
            continue
        if j.get("cuda_cudart", {}).get("version") == cudart:
            return j.get("release_label") or n[len("redistrib_"):-5]
    return None


def write_archive(prefix, files, top, path, compress):
    """tar (or tar.xz) of files under the folder top; (sha256, size)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        xz = None
        if compress == "xz" and shutil.which("xz"):
            xz = subprocess.Popen(["xz", "-T0", "-1", "-c"],
                                  stdin=subprocess.PIPE, stdout=out)
            tf = tarfile.open(fileobj=xz.stdin, mode="w|",
                              format=tarfile.GNU_FORMAT)
        elif compress == "xz":
            tf = tarfile.open(fileobj=out, mode="w|xz", preset=1,
                              format=tarfile.GNU_FORMAT)
        else:
            tf = tarfile.open(fileobj=out, mode="w|",
                              format=tarfile.GNU_FORMAT)
        dirs = set()
        for rel in files:
            p = parts(rel)
            for i in range(1, len(p)):
                d = "/".join(p[:i])
                if d not in dirs:
                    dirs.add(d)
                    ti = tarfile.TarInfo(top + "/" + d)
                    ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                    tf.addfile(ti)
            tf.add(os.path.join(prefix, rel), top + "/" + rel,
                   recursive=False)
        tf.close()
        if xz:
            xz.stdin.close()
            if xz.wait():
                die("xz failed on %s" % path)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest(), os.path.getsize(path)


def entry(relpath, sha, size):
    return {"relative_path": relpath, "sha256": sha, "size": str(size)}


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=4)
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda", required=True, help="a CUDA toolkit prefix")
    ap.add_argument("--cudnn", help="a cuDNN prefix (default: --cuda's)")
    ap.add_argument("--compress", choices=("xz", "none"), default="xz")
    ap.add_argument("out")
    a = ap.parse_args()

    cuda = os.path.realpath(a.cuda)
    dnn_prefix = os.path.realpath(a.cudnn or a.cuda)
    major, minor = cuda_release(cuda)
    wheels = dist_info_versions(cuda)
    classic = classic_versions(cuda)
    base = "%d.%d" % (major, minor)

    def version(comp, wheel):
        return wheels.get(wheel) or classic.get(comp) or base

    versions = {
        "cuda_cudart": version("cuda_cudart", "nvidia_cuda_runtime"),
        "cuda_cupti": version("cuda_cupti", "nvidia_cuda_cupti"),
        "cuda_nvcc": version("cuda_nvcc", "nvidia_cuda_nvcc"),
    }
    label = catalogue_label(versions["cuda_cudart"])
    if not label:
        label = versions["cuda_cudart"]
        if label.count(".") < 2:
            label += ".0"
    dnn = cudnn_version(dnn_prefix,
                        dist_info_versions(dnn_prefix) if a.cudnn else wheels)

    files = sort_files(cuda, versions)
    if dnn:
        files["cudnn"] = sort_files(dnn_prefix, ["cudnn"])["cudnn"]
    for c in ("cuda_cudart", "cudnn") if dnn else ("cuda_cudart",):
        if not any("lib" in f for f in files[c]):
            die("%s: no libraries for %s found" % (cuda, c))

    out = os.path.abspath(a.out)
    mirror = os.path.join(out, "mirror")
    cat = os.path.join(out, "manifests")
    ext = ".tar.xz" if a.compress == "xz" else ".tar"
    pins = []
    release = {"release_date": "2026-01-01", "release_label": label,
               "release_product": "cuda"}
    for comp in sorted(versions):
        if not files[comp]:
            print("note: no files for %s under %s" % (comp, cuda))
            continue
        ver = versions[comp]
        top = "%s-%s-%s-archive" % (comp, PLAT, ver)
        rel = "%s/%s/%s%s" % (comp, PLAT, top, ext)
        sha, size = write_archive(cuda, files[comp], top,
                                  os.path.join(mirror, "compute/cuda/redist",
                                               rel), a.compress)
        release[comp] = {"name": comp, "license": "local copy",
                         "version": ver, PLAT: entry(rel, sha, size)}
        print("%-12s %-10s %5d files %9.1f MiB  %s" %
              (comp, ver, len(files[comp]), size / 1048576.0, sha[:16]))
    pins.append(("cuda", label, write_json(
        os.path.join(cat, "cuda", "redistrib_%s.json" % label), release)))

    dnn_label = None
    if dnn:
        dnn_label = ".".join(dnn.split(".")[:3])
        top = "cudnn-%s-%s_cuda%d-archive" % (PLAT, dnn, major)
        rel = "cudnn/%s/%s%s" % (PLAT, top, ext)
        sha, size = write_archive(dnn_prefix, files["cudnn"], top,
                                  os.path.join(mirror, "compute/cudnn/redist",
                                               rel), a.compress)
        print("%-12s %-10s %5d files %9.1f MiB  %s" %
              ("cudnn", dnn, len(files["cudnn"]), size / 1048576.0, sha[:16]))
        pins.append(("cudnn", dnn_label, write_json(
            os.path.join(cat, "cudnn", "redistrib_%s.json" % dnn_label),
            {"release_date": "2026-01-01", "release_label": dnn_label,
             "release_product": "cudnn",
             "cudnn": {"name": "cudnn", "license": "local copy",
                       "version": dnn, "cuda_variant": [str(major)],
                       PLAT: {"cuda%d" % major: entry(rel, sha, size)}}})))

    with open(os.path.join(cat, "cuda-runfiles.tsv"), "w") as f:
        f.write("cuda_version\tplatform\turl\tsha256\tsource\tcross_check\n")
    with open(os.path.join(cat, "cudnn-tarballs.tsv"), "w") as f:
        f.write("cudnn_version\tcuda_major_or_range\tplatform\turl\tsha256"
                "\tsource\tcross_check\n")
    with open(os.path.join(cat, "redistrib-json-sha256.tsv"), "w") as f:
        f.write("product\tversion\turl\tsha256_of_json\tsource"
                "\tlocal_copy_check\n")
        for product, ver, sha in pins:
            f.write("%s\t%s\tfile://%s/compute/%s/redist/redistrib_%s.json"
                    "\t%s\tmkmirror.py\t-\n"
                    % (product, ver, mirror, product, ver, sha))
    compat = os.path.join(REPO, "manifests", "compat")
    if os.path.isdir(compat):
        shutil.copytree(compat, os.path.join(cat, "compat"),
                        dirs_exist_ok=True)
    write_json(os.path.join(out, "mirror.json"),
               {"cuda": label, "cudnn": dnn_label, "cuda_major": major,
                "components": {c: v for c, v in versions.items()
                               if files[c]}})
    print("mirror: file://%s  catalogue: %s  cuda %s  cudnn %s"
          % (mirror, cat, label, dnn_label or "none"))


if __name__ == "__main__":
    main()
