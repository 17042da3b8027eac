#!/usr/bin/env python3
"""abi.py: core/nvidia/cuda_abi.h against NVIDIA's real headers and libraries.

cuenv never links CUDA: core/nvidia/cuda_abi.h declares the values, signatures
and CUPTI record offsets `cuenv check` relies on, and core/check/check_cuda.c
looks the functions up with dlsym. This script takes, for every CUDA
major cuenv supports (11, 12, 13), the headers (include/) and the
libraries (libcudart, libcupti, libcudnn) out of NVIDIA's own wheels on
the package index, by range requests into the zips (corpus.py's fetch,
members pinned by sha256 in abi-pins.tsv, cached in CUENV_CORPUS), and:

  1. compiles and runs, per major and cuDNN, a C program that includes
     NVIDIA's cuda.h, cuda_runtime_api.h, cupti.h, cudnn.h and
     core/nvidia/cuda_abi.h, and prints each value cuda_abi.h declares beside the
     header's own (enum constants, sizes, offsetof in every
     CUpti_ActivityKernelN record the header defines);
  2. compiles, in that program, a call of every function check_cuda.c
     looks up, declared by NVIDIA's header, with as many arguments as
     cuda_abi.h's typedef has (pointers as pointers, integers as
     integers), and checks the return types' sizes: a parameter count
     that differs does not compile;
  3. reads the dynamic symbol tables (nm -D) of the wheel's libcudart,
     libcupti and libcudnn and checks that every name check_cuda.c passes
     to dlsym for them is exported.

The expected side is always NVIDIA's: header constants by their NVIDIA
names (NAMES below: which NVIDIA name each cuenv constant stands for),
symbols from the libraries. The driver (libcuda) is not in any wheel: its
signatures are checked against cuda.h, its exports are not.

    abi.py [check]     fetch what is missing, compare; exit 1 on a mismatch
    abi.py pins        fetch and print each member's sha256 (abi-pins.tsv)

Exit status: 0, 1 on a mismatch or a pin that does not match, 77 when the
index cannot be reached (the caller skips).
"""
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import corpus  # noqa: E402  (fetch by range, pins, cache)

INC = r"nvidia/[a-z0-9_]+/include/[A-Za-z0-9_]+\.hp?p?"
LIB = r"nvidia/[a-z0-9_]+/lib/"
RUNTIME = [INC, LIB + r"libcudart\.so\.[0-9.]+"]
CUPTI = [INC, LIB + r"libcupti\.so\.[0-9.]+"]
CUDNN = [INC, LIB + r"libcudnn\.so\.[0-9]+"]
# cuda_runtime_api.h includes crt/host_defines.h, which the runtime wheel
# lacks: NVIDIA ships crt/ in nvcc's wheel (cu11, cu12) and nvidia-cuda-crt
CRT = [r"nvidia/[a-z0-9_]+/include/crt/[A-Za-z0-9_]+\.hp?p?"]

# id, project, wheel, the index's sha256 of the wheel, members
ARTIFACTS = [
    ("abi-runtime-11", "nvidia-cuda-runtime-cu11",
     "nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     "f587bd726eb2f7612cf77ce38a2c1e65cf23251ff49437f6161ce0d647f64f7c", RUNTIME),
    ("abi-runtime-12", "nvidia-cuda-runtime-cu12",
     "nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3", RUNTIME),
    ("abi-runtime-13", "nvidia-cuda-runtime",
     "nvidia_cuda_runtime-13.0.96-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "7f82250d7782aa23b6cfe765ecc7db554bd3c2870c43f3d1821f1d18aebf0548", RUNTIME),
    ("abi-crt-11", "nvidia-cuda-nvcc-cu11",
     "nvidia_cuda_nvcc_cu11-11.8.89-py3-none-manylinux1_x86_64.whl",
     "3e25894debe6ce87e6dbb99b2311fba6f56c1b647daae2c4e5de537dc5d88876", CRT),
    ("abi-crt-12", "nvidia-cuda-nvcc-cu12",
     "nvidia_cuda_nvcc_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
     "5d6a0d32fdc7ea39917c20065614ae93add6f577d840233237ff08e9a38f58f0", CRT),
    ("abi-crt-13", "nvidia-cuda-crt",
     "nvidia_cuda_crt-13.0.88-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "2c8043c7c9e02492716426e9919fc78d2c5b3b2a7a768a88e952676b08aa55a4", CRT),
    ("abi-cupti-11", "nvidia-cuda-cupti-cu11",
     "nvidia_cuda_cupti_cu11-11.8.87-py3-none-manylinux1_x86_64.whl",
     "0e50c707df56c75a2c0703dc6b886f3c97a22f37d6f63839f75b7418ba672a8d", CUPTI),
    ("abi-cupti-12", "nvidia-cuda-cupti-cu12",
     "nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
     "096bcf334f13e1984ba36685ad4c1d6347db214de03dbb6eebb237b41d9d934f", CUPTI),
    ("abi-cupti-13", "nvidia-cuda-cupti",
     "nvidia_cuda_cupti-13.0.85-py3-none-manylinux_2_25_x86_64.whl",
     "4eb01c08e859bf924d222250d2e8f8b8ff6d3db4721288cf35d14252a4d933c8", CUPTI),
    ("abi-cudnn8-11", "nvidia-cudnn-cu11",
     "nvidia_cudnn_cu11-8.9.6.50-py3-none-manylinux1_x86_64.whl",
     "319a8f7ca3d65139f1b69998595c7076ae0e4271a325e5dfde50a3ca31f55584", CUDNN),
    ("abi-cudnn9-11", "nvidia-cudnn-cu11",
     "nvidia_cudnn_cu11-9.1.0.70-py3-none-manylinux2014_x86_64.whl",
     "e6135ac63fe9d5b0b89cfb35c3fc1c1349f2b995becadf2e9dc21bca89d9633d", CUDNN),
    ("abi-cudnn9-12", "nvidia-cudnn-cu12",
     "nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_x86_64.whl",
     "949452be657fa16687d0930933f032835951ef0892b37d2d53824d1a84dc97a8", CUDNN),
    ("abi-cudnn9-13", "nvidia-cudnn-cu13",
     "nvidia_cudnn_cu13-9.26.0.51-py3-none-manylinux_2_27_x86_64.whl",
     "9c976d539786698c71d6bcdbe2053b7485fae062ff7e1215d2f2ff67b1a2149a", CUDNN),
]

# CUDA major: runtime, crt/, CUPTI, and each cuDNN built for it
MAJORS = [
    ("11", "abi-runtime-11", "abi-crt-11", "abi-cupti-11",
     ["abi-cudnn8-11", "abi-cudnn9-11"]),
    ("12", "abi-runtime-12", "abi-crt-12", "abi-cupti-12", ["abi-cudnn9-12"]),
    ("13", "abi-runtime-13", "abi-crt-13", "abi-cupti-13", ["abi-cudnn9-13"]),
]

# Which NVIDIA name each constant of cuda_abi.h stands for (written from
# NVIDIA's documentation, not from the values). Every CUENV_ constant of
# cuda_abi.h must be here, so a new one cannot go unchecked.
NAMES = {
    "CUENV_CUDA_SUCCESS": "CUDA_SUCCESS",
    "CUENV_CUDA_ERROR_INVALID_VALUE": "CUDA_ERROR_INVALID_VALUE",
    "CUENV_CUDA_ERROR_OUT_OF_MEMORY": "CUDA_ERROR_OUT_OF_MEMORY",
    "CUENV_CUDA_ERROR_NOT_INITIALIZED": "CUDA_ERROR_NOT_INITIALIZED",
    "CUENV_CUDA_ERROR_STUB_LIBRARY": "CUDA_ERROR_STUB_LIBRARY",
    "CUENV_CUDA_ERROR_DEVICE_UNAVAILABLE": "CUDA_ERROR_DEVICE_UNAVAILABLE",
    "CUENV_CUDA_ERROR_NO_DEVICE": "CUDA_ERROR_NO_DEVICE",
    "CUENV_CUDA_ERROR_INVALID_DEVICE": "CUDA_ERROR_INVALID_DEVICE",
    "CUENV_CUDA_ERROR_INVALID_IMAGE": "CUDA_ERROR_INVALID_IMAGE",
    "CUENV_CUDA_ERROR_NO_BINARY_FOR_GPU": "CUDA_ERROR_NO_BINARY_FOR_GPU",
    "CUENV_CUDA_ERROR_INVALID_PTX": "CUDA_ERROR_INVALID_PTX",
    "CUENV_CUDA_ERROR_UNSUPPORTED_PTX_VERSION": "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
    "CUENV_CUDA_ERROR_NOT_FOUND": "CUDA_ERROR_NOT_FOUND",
    "CUENV_CUDA_ERROR_LAUNCH_FAILED": "CUDA_ERROR_LAUNCH_FAILED",
    "CUENV_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH": "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
    "CUENV_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE":
        "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    "CUENV_CUDA_ERROR_UNKNOWN": "CUDA_ERROR_UNKNOWN",
    "CUENV_CUDART_SUCCESS": "cudaSuccess",
    "CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER": "cudaErrorInsufficientDriver",
    "CUENV_CUDART_ERROR_NO_DEVICE": "cudaErrorNoDevice",
    "CUENV_CUDART_ERROR_INVALID_DEVICE": "cudaErrorInvalidDevice",
    "CUENV_CUDART_ATTR_CC_MAJOR": "cudaDevAttrComputeCapabilityMajor",
    "CUENV_CUDART_ATTR_CC_MINOR": "cudaDevAttrComputeCapabilityMinor",
    "CUENV_CUDART_MEMCPY_H2D": "cudaMemcpyHostToDevice",
    "CUENV_CUDART_MEMCPY_D2H": "cudaMemcpyDeviceToHost",
    "CUENV_CUDNN_STATUS_SUCCESS": "CUDNN_STATUS_SUCCESS",
    "CUENV_CUDNN_TENSOR_NCHW": "CUDNN_TENSOR_NCHW",
    "CUENV_CUDNN_DATA_FLOAT": "CUDNN_DATA_FLOAT",
    "CUENV_CUDNN_CROSS_CORRELATION": "CUDNN_CROSS_CORRELATION",
    "CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM": "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM",
    "CUENV_CUPTI_SUCCESS": "CUPTI_SUCCESS",
    "CUENV_CUPTI_ERROR_MAX_LIMIT_REACHED": "CUPTI_ERROR_MAX_LIMIT_REACHED",
    "CUENV_CUPTI_KIND_KERNEL": "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUENV_CUPTI_KIND_RUNTIME": "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUENV_CUPTI_KIND_CONCURRENT_KERNEL": "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL",
    "CUENV_CUPTI_FLUSH_FORCED": "CUPTI_ACTIVITY_FLAG_FLUSH_FORCED",
    # kernel records: the same offsets in every CUpti_ActivityKernelN from
    # 3 on; CUpti_ActivityKernel2's start must differ (the older layout)
    "CUENV_CUPTI_KERNEL_START": ("start", None),
    "CUENV_CUPTI_KERNEL_END": ("end", None),
    "CUENV_CUPTI_KERNEL_CORRELATION": ("correlationId", None),
    "CUENV_CUPTI_KERNEL_NAME": ("name", None),
    "CUENV_CUPTI_KERNEL_PREFIX": ("name", "end"),
    "CUENV_CUPTI_KERNEL_MIN_API": ">=CUPTI_API_VERSION",
}

# cuenv's types that stand for an NVIDIA type of the same size
SIZES = [
    ("cuenv_CUresult", "CUresult"), ("cuenv_CUdevice", "CUdevice"),
    ("cuenv_CUdeviceptr", "CUdeviceptr"), ("cuenv_CUcontext", "CUcontext"),
    ("cuenv_CUmodule", "CUmodule"), ("cuenv_CUfunction", "CUfunction"),
    ("cuenv_CUstream", "CUstream"), ("int", "cudaError_t"),
    ("int", "enum cudaDeviceAttr"), ("int", "enum cudaMemcpyKind"),
    ("int", "cudnnStatus_t"), ("int", "cudnnTensorFormat_t"),
    ("int", "cudnnDataType_t"), ("int", "cudnnConvolutionMode_t"),
    ("int", "cudnnConvolutionFwdAlgo_t"), ("cuenv_cudnnHandle", "cudnnHandle_t"),
    ("cuenv_cudnnTensorDesc", "cudnnTensorDescriptor_t"),
    ("cuenv_cudnnFilterDesc", "cudnnFilterDescriptor_t"),
    ("cuenv_cudnnConvDesc", "cudnnConvolutionDescriptor_t"),
    ("int", "CUptiResult"), ("int", "CUpti_ActivityKind"),
]

# Names check_cuda.c asks dlsym for that NVIDIA's headers of these majors
# no longer declare: the pre-11 driver's cuDevicePrimaryCtxRelease (a
# fallback; cuda.h maps the name to _v2).
UNDECLARED = {"cuDevicePrimaryCtxRelease"}


def lookups():
    """[(typedef, symbol)] of every function check_cuda.c looks up."""
    src = open(os.path.join(TOP, "core", "check", "check_cuda.c")).read()
    out = [("cuenv_%s_fn" % m.group(1), m.group(1))
           for m in re.finditer(r"(?<!define )\bSYM\(\s*[^,]+,\s*[^,]+,\s*(\w+)\s*,", src)]
    out += [(m.group(1), m.group(2)) for m in re.finditer(
        r"\((cuenv_\w+_fn)\)\s*(?:sym|dlsym)\(\s*\w+\s*,\s*\"(\w+)\"", src)]
    return out


def abi_header():
    return open(os.path.join(TOP, "core", "nvidia", "cuda_abi.h")).read()


def typedefs(text):
    """{typedef: (return type, [parameter declarations])} of cuda_abi.h."""
    flat = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    flat = re.sub(r"\s+", " ", flat)
    out = {}
    for m in re.finditer(r"typedef ([^;()]+?) ?\(\*(cuenv_\w+_fn)\)\(([^;]*)\);", flat):
        params = [p.strip() for p in m.group(3).split(",")]
        if params == ["void"]:
            params = []
        out[m.group(2)] = (m.group(1).strip(), params)
    return out


def pointer_types(text):
    """cuda_abi.h's typedef names that are pointers."""
    flat = re.sub(r"\s+", " ", text)
    names = set(re.findall(r"typedef [^;()]*\* ?(\w+);", flat))
    names |= set(re.findall(r"typedef [^;]*?\(\*(\w+)\)", flat))
    return names


def constants(text):
    """cuda_abi.h's CUENV_ constants (enum members and #defines)."""
    return sorted(set(re.findall(r"^\s*(CUENV_[A-Z0-9_]+)\s*=", text, re.M)) |
                  set(re.findall(r"^#define (CUENV_CUPTI_[A-Z0-9_]+) ", text, re.M)))


def kernel_records(inc):
    """CUpti_ActivityKernelN numbers the CUPTI headers in inc define."""
    ns = set()
    for f in os.listdir(inc):
        if f.startswith("cupti_activity"):
            ns |= {int(n) for n in re.findall(
                r"\}\s*CUpti_ActivityKernel(\d+)\s*;", open(os.path.join(inc, f),
                                                           errors="replace").read())}
    return sorted(ns)


def program(cupti_inc, rows):
    """The C program: prints `cuenv-name  ours  nvidia` lines."""
    text = abi_header()
    defs = typedefs(text)
    ptrs = pointer_types(text)
    c = ["#include <stddef.h>", "#include <stdio.h>", "#include <cuda.h>",
         "#include <cuda_runtime_api.h>", "#include <cupti.h>",
         "#include <cudnn.h>", '#include "nvidia/cuda_abi.h"', "",
         "#define ROW(name, ours, theirs) printf(\"%s %lld %lld\\n\", name,"
         " (long long)(ours), (long long)(theirs))", ""]
    # 2. signatures: one call per looked-up function, never run
    c.append("void cuenv_abi_calls(void);")
    c.append("void cuenv_abi_calls(void)\n{")
    for td, symname in lookups():
        if symname in UNDECLARED:
            continue
        if td not in defs:
            rows.append(("sig " + symname, "no typedef %s in cuda_abi.h" % td))
            continue
        ret, params = defs[td]
        args = []
        for p in params:
            words = re.findall(r"\w+|\*", p)
            is_ptr = "*" in words or any(w in ptrs for w in words)
            args.append("(void *)0" if is_ptr else "1")
        call = "%s(%s)" % (symname, ", ".join(args))
        c.append("\t/* %s: %s */" % (symname, td))
        c.append("\t_Static_assert(sizeof(%s) == sizeof(%s), \"%s returns %s\");"
                 % (call, ret, symname, ret))
    c.append("}\n")
    # 1. values
    c.append("int main(void)\n{")
    for name in constants(text):
        what = NAMES.get(name)
        if what is None:
            rows.append((name, "not in abi.py's NAMES: which NVIDIA name is it?"))
        elif isinstance(what, str) and what.startswith(">="):
            c.append("\tROW(\"%s <=\", %s, %s);" % (name, name, what[2:]))
        elif isinstance(what, str):
            c.append("\tROW(\"%s\", %s, %s);" % (name, name, what))
    for ours, theirs in SIZES:
        c.append("\tROW(\"sizeof(%s)/%s\", sizeof(%s), sizeof(%s));"
                 % (ours, theirs.replace(" ", "_"), ours, theirs))
    ks = kernel_records(cupti_inc)
    if not ks:
        rows.append(("CUpti_ActivityKernel", "no kernel record in the CUPTI headers"))
    for n in ks:
        t = "CUpti_ActivityKernel%d" % n
        for name, what in NAMES.items():
            if not isinstance(what, tuple):
                continue
            field, end = what
            if n < 3 and name != "CUENV_CUPTI_KERNEL_START":
                continue
            expr = "offsetof(%s, %s)" % (t, field)
            if end:
                expr += " + sizeof(((%s *)0)->%s)" % (t, field)
            if n < 3:   # the layout before: must differ
                c.append("\tROW(\"%s != %s.%s\", %s, %s == %s ? -1 : %s);"
                         % (name, t, field, name, expr, name, name))
            else:
                c.append("\tROW(\"%s %s.%s\", %s, %s);" % (name, t, field, name, expr))
    c.append("\treturn 0;\n}")
    return "\n".join(c) + "\n", ks


def nm_exports(path):
    r = subprocess.run(["nm", "-D", "--defined-only", path],
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("nm -D %s: %s" % (path, r.stderr.strip()))
    return {line.split()[-1].split("@")[0] for line in r.stdout.splitlines()
            if line.strip()}


def find(d, rx):
    for base, _, files in os.walk(d):
        for f in files:
            if re.fullmatch(rx, f):
                return os.path.join(base, f)
    return None


def incdir(d):
    p = find(d, r"cuda_runtime_api\.h|cupti\.h|cudnn\.h")
    return os.path.dirname(p) if p else None


def foreign(deps, root):
    """Headers the compiler took from outside the wheels, the C library and
    the compiler that look like CUDA's (a toolkit in /usr/local/include
    would otherwise stand in for a header the wheels lack)."""
    out = []
    for p in deps.replace("\\\n", " ").split()[2:]:  # target: abi.c deps
        p = os.path.realpath(p)
        if p.startswith(os.path.realpath(root) + "/") or p.startswith(TOP + "/"):
            continue
        if p.startswith("/usr/lib/gcc/") or (
                p.startswith("/usr/include/") and not re.search(
                    r"cuda|cupti|cudnn|nvperf|/crt/|/(host|driver|vector|device|"
                    r"builtin|surface|texture|library|channel)_", p)):
            continue
        out.append(p)
    return out


def library_of(symname):
    if symname.startswith("cudnn"):
        return "cudnn"
    if symname.startswith("cupti"):
        return "cupti"
    if symname.startswith("cuda"):
        return "cudart"
    return "cuda"  # the driver: not in the wheels


def check(root, cc):
    ok = True
    dirs = {a[0]: os.path.join(root, a[0]) for a in ARTIFACTS}
    looked = lookups()
    for major, rt, crt, pti, dnns in MAJORS:
        for dnn in dnns:
            rows = []
            src, ks = program(incdir(dirs[pti]), rows)
            for name, why in rows:
                ok = False
                print("abi: CUDA %s: %s: %s" % (major, name, why))
            with tempfile.TemporaryDirectory() as t:
                cfile, exe = os.path.join(t, "abi.c"), os.path.join(t, "abi")
                dep = os.path.join(t, "abi.d")
                crtdir = find(dirs[crt], r"host_defines\.h")
                open(cfile, "w").write(src)
                r = subprocess.run(
                    [cc, "-std=c11", "-Wall", "-Werror", "-Wno-unused-function",
                     "-Werror=implicit-function-declaration",
                     "-Werror=int-conversion", "-Werror=incompatible-pointer-types",
                     "-MD", "-MF", dep,
                     "-I" + os.path.join(TOP, "core"), "-I" + incdir(dirs[rt]),
                     "-I" + os.path.dirname(os.path.dirname(crtdir)),
                     "-I" + incdir(dirs[pti]), "-I" + incdir(dirs[dnn]),
                     "-o", exe, cfile], capture_output=True, text=True)
                if r.returncode:
                    ok = False
                    print("abi: CUDA %s + %s: NVIDIA's headers reject cuda_abi.h's "
                          "signatures or names:" % (major, dnn))
                    lines = src.splitlines()
                    for m in re.finditer(r"abi\.c:(\d+):\d+: error: (.*)", r.stderr):
                        n = int(m.group(1))
                        label = lines[n - 2].strip() if n >= 2 else ""
                        print("  %s  %s" % (label, m.group(2)))
                    if not re.search(r"abi\.c:\d+:\d+: error", r.stderr):
                        print(r.stderr[:4000])
                    continue
                for bad in foreign(open(dep).read(), root):
                    ok = False
                    print("abi: CUDA %s + %s: %s is not from the wheels" %
                          (major, dnn, bad))
                out = subprocess.run([exe], capture_output=True, text=True,
                                     check=True).stdout
            n = 0
            for line in out.splitlines():
                *name, ours, theirs = line.split(" ")
                name = " ".join(name)
                n += 1
                if name.endswith(" <="):
                    good = int(ours) <= int(theirs)
                else:
                    good = ours == theirs
                if not good:
                    ok = False
                    print("abi: CUDA %s + %s: %s: cuda_abi.h has %s, NVIDIA's "
                          "header %s" % (major, dnn, name, ours, theirs))
            print("abi: CUDA %s + %s: %d values, %d signatures, kernel records %s"
                  % (major, dnn, n, len(looked), ",".join(map(str, ks))))
        # 3. exports
        libs = {"cudart": [find(dirs[rt], r"libcudart\.so\.[0-9.]+")],
                "cupti": [find(dirs[pti], r"libcupti\.so\.[0-9.]+")],
                "cudnn": [find(dirs[d], r"libcudnn\.so\.[0-9]+") for d in dnns]}
        for lib, paths in libs.items():
            want = sorted({s for _, s in looked if library_of(s) == lib})
            for p in paths:
                if not p:
                    ok = False
                    print("abi: CUDA %s: no %s in the wheel" % (major, lib))
                    continue
                have = nm_exports(p)
                miss = [s for s in want if s not in have]
                rel = os.path.relpath(p, root)
                if miss:
                    ok = False
                    print("abi: %s does not export %s" % (rel, ", ".join(miss)))
                else:
                    print("abi: %s exports all %d names" % (rel, len(want)))
    return ok


def main():
    corpus.MEMBERS.clear()
    p = os.path.join(HERE, "abi-pins.tsv")
    for line in open(p):
        if line.startswith("#") or not line.strip():
            continue
        key, sha = line.split("\t")[:2]
        corpus.MEMBERS[key] = sha.strip()
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    # the cache folder is named after the list: a changed list (another
    # wheel, another member pattern) fetches afresh
    base = corpus.fetch_set("abi", ARTIFACTS, cmd == "pins")
    if base is None:
        return 77
    if cmd == "pins":
        return 0
    ok = check(base, os.environ.get("CC", "cc"))
    print("abi: %s" % ("cuda_abi.h agrees with NVIDIA's headers and libraries"
                       if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
