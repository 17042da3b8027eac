#!/usr/bin/env python3
"""pe.py: `cuenv needs` on real Windows files from the package index.

Each artifact is one DLL or .pyd inside a win_amd64 wheel that imports a
CUDA DLL directly, fetched alone by range requests (corpus.py's fetch,
pinned by sha256 in pe-pins.tsv, cached in CUENV_CORPUS). pe-expected.tsv
says, per file, its import table as `x86_64-w64-mingw32-objdump -p`
lists it ("DLL Name:" lines, written there by hand), and which of those
DLLs are CUDA's with the CUDA majors NVIDIA ships each in. This script
runs `cuenv needs --json FILE` and compares: every CUDA DLL of the import
table is required (needed_by the file), with those majors, and nothing
else is asked for. Where the mingw objdump is installed, its listing is
compared with pe-expected.tsv too, so the hand-written table is checked
by an independent reader.

    pe.py CUENV_BIN       fetch what is missing, compare; exit 1 on a mismatch
    pe.py pins            fetch and print each member's sha256 (pe-pins.tsv)

Exit status: 0, 1 on a mismatch, 77 when the index cannot be reached.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse  # noqa: F401  (corpus.find_wheel uses it)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402

ARTIFACTS = [
    ("pe-cufftw-12", "nvidia-cufft-cu12",
     "nvidia_cufft_cu12-11.4.1.4-py3-none-win_amd64.whl",
     "8e5bfaac795e93f80611f807d42844e8e27e340e0cde270dcb6c65386d795b80",
     [r"nvidia/cufft/bin/cufftw64_11\.dll"]),
    ("pe-cupy-cuda12x-curand", "cupy-cuda12x",
     "cupy_cuda12x-14.2.0-cp311-cp311-win_amd64.whl",
     "eceffbf02a5833c8ba1c94615da07c374284db76a60f8c8b217b0d9d2667162a",
     [r"cupy_backends/cuda/libs/curand\.cp311-win_amd64\.pyd"]),
]


def load(name):
    rows = []
    for line in open(os.path.join(HERE, name)):
        if line.startswith("#") or not line.strip():
            continue
        rows.append(line.rstrip("\n").split("\t"))
    return rows


def majors(releases):
    """{11, 12} from cuenv's "CUDA 10.1-10.2, 11.x, 12.x"."""
    return {int(m) for m in re.findall(r"(?:^|[ ,-])(\d+)\.(?:x|\d)", releases or "")}


def objdump_imports(path):
    tool = shutil.which("x86_64-w64-mingw32-objdump")
    if not tool:
        return None
    out = subprocess.run([tool, "-p", path], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"^\s*DLL Name: (\S+)", out, re.M)


def main():
    corpus.MEMBERS.clear()
    for key, sha in load("pe-pins.tsv"):
        corpus.MEMBERS[key] = sha
    cmd = sys.argv[1] if len(sys.argv) > 1 else None
    if not cmd:
        sys.exit("usage: pe.py CUENV_BIN | pins")
    base = corpus.fetch_set("pe", ARTIFACTS, cmd == "pins")
    if base is None:
        return 77
    if cmd == "pins":
        return 0
    ok = True
    for aid, member, imports, cuda in load("pe-expected.tsv"):
        path = os.path.join(base, aid, member)
        imports = imports.split()
        want = {}
        for item in cuda.split():
            dll, ms = item.split("=")
            want[dll] = {int(m) for m in ms.split(",")}
        got = objdump_imports(path)
        if got is not None and got != imports:
            ok = False
            print("pe: %s: objdump lists %s, pe-expected.tsv %s"
                  % (member, " ".join(got), " ".join(imports)))
        r = subprocess.run([cmd, "needs", "--json", path], capture_output=True,
                           text=True)
        try:
            j = json.loads(r.stdout)
        except ValueError:
            print("pe: %s: cuenv needs gave no JSON (exit %d): %s"
                  % (member, r.returncode, r.stderr.strip()))
            ok = False
            continue
        have = {}
        for w in j.get("sonames", []):
            have[w.get("dll") or w["soname"]] = w
        for dll, ms in want.items():
            w = have.get(dll)
            if not w:
                ok = False
                print("pe: %s: imports %s, cuenv needs does not name it"
                      % (member, dll))
                continue
            if not w.get("required") or path not in w.get("needed_by", []):
                ok = False
                print("pe: %s: %s is imported, cuenv needs says it is not "
                      "required" % (member, dll))
            if majors(w.get("releases")) != ms:
                ok = False
                print("pe: %s: %s ships in CUDA %s, cuenv needs says %s"
                      % (member, dll, sorted(ms), w.get("releases")))
        for dll in have:
            if dll not in want:
                ok = False
                print("pe: %s: cuenv needs names %s, which the file does not "
                      "import" % (member, dll))
        print("pe: %s: %s" % (member, ", ".join(
            "%s (%s)" % (d, have[d]["releases"]) for d in want if d in have)))
    print("pe: %s" % ("cuenv needs reads the import tables as objdump does"
                      if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
