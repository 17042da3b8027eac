#!/usr/bin/env python3
"""check.py: run cuenv over the real-artifact corpus and compare its
answers with expected.tsv (written by hand from the publishers' tables).

    check.py CUENV CORPUS_ROOT [--index URL] [--no-index]

For each artifact: `cuenv needs --json CORPUS_ROOT/ID` (the members the
corpus fetched, as a folder), and for rows naming NAME==VERSION also
`cuenv needs --json NAME==VERSION` against the package index (range
requests: the bytes fetched must stay under 2% of the wheel). Prints one
table row per check (artifact, expected, cuenv's answer, verdict) and
exits 1 when any differs.
"""
import json
import os
import subprocess
import sys
import tempfile


def vt(v):
    return tuple(int(x) for x in v.split("."))


def le(a, b):
    """a <= b, shorter versions padded with zeros."""
    n = max(len(vt(a)), len(vt(b)))
    pa = vt(a) + (0,) * (n - len(vt(a)))
    pb = vt(b) + (0,) * (n - len(vt(b)))
    return pa <= pb


def top(reports, key):
    best = None
    for r in reports:
        v = r.get(key)
        if v and (best is None or not le(v, best)):
            best = v
    return best


def judge(exp, d):
    """(answer text, problems) for cuenv's JSON d against one row."""
    cuda, cudnn, extra = exp["cuda"], exp["cudnn"], exp["extra"]
    reps = d.get("reports", [])
    c, n = top(reps, "cuda_min"), top(reps, "cudnn_min")
    problems = []
    if cuda == "provides":
        provided = [s["soname"] for s in d.get("provides", [])]
        answer = "asks nothing" if not reps and d["satisfied"] else \
            "asks CUDA %s cuDNN %s" % (c, n)
        if provided:
            answer += "; provides " + ", ".join(provided)
        if reps or not d["satisfied"]:
            problems.append("an NVIDIA wheel taken as asking for CUDA")
        if extra != "-" and extra not in provided:
            problems.append("does not see that it provides " + extra)
        return answer, problems
    answer = "CUDA %s+" % c if c else "no CUDA"
    if n:
        answer += ", cuDNN %s+" % n
    dlls = [x for r in reps for x in r.get("dlls", [])]
    if dlls:
        answer += "; loads " + ",".join(dlls)
    if d.get("catalogue"):
        answer += "; " + d["catalogue"]["install"]
    if not c:
        problems.append("no CUDA found")
    elif "." in cuda and c != cuda:
        problems.append("CUDA %s, expected %s" % (c, cuda))
    elif "." not in cuda and c.split(".")[0] != cuda:
        problems.append("CUDA major %s, expected %s" % (c, cuda))
    if cudnn != "-":
        if not n:
            problems.append("no cuDNN found, expected %s" % cudnn)
        elif n.split(".")[0] != cudnn.split(".")[0] or not le(n, cudnn):
            problems.append("cuDNN %s+ does not admit %s" % (n, cudnn))
    if extra.startswith("dll:"):
        for x in extra[4:].split(","):
            if x not in dlls:
                problems.append("does not name " + x)
    if d.get("satisfied"):
        problems.append("satisfied with nothing installed")
    return answer, problems


def main():
    cuenv, root = sys.argv[1], sys.argv[2]
    index = None
    use_index = "--no-index" not in sys.argv
    if "--index" in sys.argv:
        index = sys.argv[sys.argv.index("--index") + 1]
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for line in open(os.path.join(here, "expected.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.append(dict(id=f[0], cuda=f[1], cudnn=f[2], extra=f[3],
                         index=f[4], source=f[5]))
    env = dict(os.environ)
    env["CUENV_ROOT"] = tempfile.mkdtemp(prefix="cuenv-realworld.")
    env["CUENV_MANIFESTS"] = os.path.join(here, "..", "..", "manifests")
    if index:
        env["CUENV_PYPI_INDEX"] = index
    failed = 0
    table = []
    for r in rows:
        runs = [("folder", [cuenv, "needs", "--json", os.path.join(root, r["id"])])]
        if r["index"] != "-" and use_index:
            runs.append(("index", [cuenv, "needs", "--json", r["index"]]))
        for how, argv in runs:
            p = subprocess.run(argv, env=env, capture_output=True, text=True)
            try:
                d = json.loads(p.stdout)
                answer, problems = judge(r, d)
            except ValueError:
                answer, problems = "exit %d: %s" % (p.returncode, p.stderr.strip()), ["no JSON"]
                d = {}
            if how == "index" and d.get("fetched"):
                fx = d["fetched"][0]
                answer += " [%d of %d bytes, %.2f%%]" % (
                    fx["bytes_fetched"], fx["size"],
                    100.0 * fx["bytes_fetched"] / fx["size"])
                if fx["bytes_fetched"] > 0.02 * fx["size"]:
                    problems.append("fetched more than 2% of the wheel")
            exp = r["cuda"] if r["cuda"] == "provides" else \
                "CUDA %s%s" % (r["cuda"], ", cuDNN %s" % r["cudnn"] if r["cudnn"] != "-" else "")
            if r["extra"] != "-":
                exp += " (%s)" % r["extra"]
            ok = "ok" if not problems else "FAIL: " + "; ".join(problems)
            failed += bool(problems)
            table.append((r["id"] + ("" if how == "folder" else " (" + r["index"] + ")"), exp, answer, ok))
    w = [max(len(t[i]) for t in table) for i in range(3)]
    print("%-*s | %-*s | %-*s | %s" % (w[0], "artifact", w[1], "expected", w[2], "cuenv", "verdict"))
    for t in table:
        print("%-*s | %-*s | %-*s | %s" % (w[0], t[0], w[1], t[1], w[2], t[2], t[3]))
    print("realworld: %d checked, %d failed" % (len(table), failed))
    subprocess.run(["rm", "-rf", env["CUENV_ROOT"]])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
