#!/usr/bin/env python3
"""wheels.py: NVIDIA's real aarch64 wheels (issue 25), for make test-aarch64.

The members cuenv reads of three manylinux aarch64 wheels on the package
index (the CUDA 12.4 runtime and CUPTI, cuDNN 9.10 for CUDA 12), fetched
by range requests (tests/realworld/corpus.py), each pinned by sha256 in
wheels-pins.tsv and the wheel by the index's sha256, cached in
CUENV_CORPUS (default $CUENV_CI_CACHE/corpus, CUENV_CI_CACHE's default
/var/cache/cuenv-ci); and the whole runtime
wheel (894 KB, pinned) for the install test, in the same cache.

    wheels.py fetch     fetch what is missing; print the cache folder
    wheels.py pins      fetch and print each member's sha256

Exit status 77 when the index cannot be reached.
"""
import hashlib
import os
import sys
import urllib.parse  # noqa: F401  (corpus.find_wheel uses it)

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("CUENV_CORPUS", os.path.join(
    os.environ.get("CUENV_CI_CACHE", "/var/cache/cuenv-ci"), "corpus"))
sys.path.insert(0, os.path.join(HERE, "..", "realworld"))
import corpus  # noqa: E402

DIST = [r"[^/]+\.dist-info/METADATA", r"[^/]+\.dist-info/RECORD"]
RUNTIME = ("nvidia-cuda-runtime-cu12",
           "nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_aarch64.whl",
           "961fe0e2e716a2a1d967aab7caee97512f71767f852f67432d572e36cb3a11f3")
ARTIFACTS = [
    ("cudart-12.4-aarch64",) + RUNTIME +
    (DIST + [r"nvidia/cuda_runtime/lib/libcudart\.so\.12",
             r"nvidia/cuda_runtime/include/cuda_runtime_api\.h"],),
    ("cupti-12.4-aarch64", "nvidia-cuda-cupti-cu12",
     "nvidia_cuda_cupti_cu12-12.4.127-py3-none-manylinux2014_aarch64.whl",
     "79279b35cf6f91da114182a5ce1864997fd52294a87a16179ce275773799458a",
     DIST + [r"nvidia/cuda_cupti/lib/libcupti\.so\.12",
             r"nvidia/cuda_cupti/include/cupti_version\.h"]),
    ("cudnn-9.10-aarch64", "nvidia-cudnn-cu12",
     "nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_aarch64.whl",
     "c9132cc3f8958447b4910a1720036d9eff5928cc3179b0a51fb6d167c6cc87d8",
     DIST + [r"nvidia/cudnn/lib/libcudnn\.so\.9",
             r"nvidia/cudnn/lib/libcudnn_graph\.so\.9",
             r"nvidia/cudnn/include/cudnn_version\.h"]),
]


def whole_wheel(base, project, filename, sha):
    """The whole wheel into base/wheels/filename, checked, once."""
    path = os.path.join(base, "wheels", filename)
    if os.path.exists(path):
        return path
    url, isha, _ = corpus.find_wheel(project, filename)
    if isha != sha:
        raise RuntimeError("%s: the index says sha256 %s, pinned %s"
                           % (filename, isha, sha))
    data, _ = corpus.get(url)
    if hashlib.sha256(data).hexdigest() != sha:
        raise RuntimeError("%s: sha256 does not match the pin" % filename)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.rename(path + ".tmp", path)
    return path


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd not in ("fetch", "pins"):
        sys.exit("usage: wheels.py fetch | pins")
    for line in open(os.path.join(HERE, "wheels-pins.tsv")):
        if line.strip() and not line.startswith("#"):
            key, sha = line.split("\t")[:2]
            corpus.MEMBERS[key] = sha.strip()
    base = corpus.fetch_set("aarch64", ARTIFACTS, cmd == "pins")
    if base is None:
        sys.exit(77)
    if cmd == "fetch":
        try:
            whole_wheel(base, *RUNTIME)
        except OSError as e:
            print("aarch64: cannot reach the index: %s" % e, file=sys.stderr)
            sys.exit(77)
        print(base)


if __name__ == "__main__":
    main()
