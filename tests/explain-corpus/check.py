#!/usr/bin/env python3
"""check.py CORPUS WORK: run `cuenv explain --json -` on each message of the
corpus (CORPUS/NN-name.txt) and compare what it says with CORPUS/
expected.tsv (the readings written by hand; its header says what each
column means). Then run every command it prints under "fix" and "decide",
as printed, in a scratch root of its own (WORK/NN-name/root) against the
mirror the caller points cuenv at: an install or a local must succeed; a
`cuenv needs` must parse its command line (any status but 2, 126 and 127:
the package index of the test refuses, and a Python without frameworks has
nothing to report). Prints one line per message and exits 1 on any
difference."""
import json
import os
import subprocess
import sys


def commands(cell):
    return [] if cell == "-" else [c.strip() for c in cell.split(" ; ")]


def run_printed(argv, env, cwd):
    """Run one printed command (a list of words) as a shell would."""
    p = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def main():
    corpus, work = sys.argv[1], sys.argv[2]
    rows = []
    with open(os.path.join(corpus, "expected.tsv")) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    head = lines[0].split("\t")
    for l in lines[1:]:
        if l:
            rows.append(dict(zip(head, l.split("\t"))))
    sources = {}
    with open(os.path.join(corpus, "sources.tsv")) as f:
        for l in f.read().splitlines()[1:]:
            i, url = l.split("\t")
            sources[i] = url
    bad = 0
    for r in rows:
        i = r["id"]
        problems = []
        if not sources.get(i, "").startswith("https://"):
            problems.append("no source in sources.tsv")
        root = os.path.join(work, i, "root")
        proj = os.path.join(work, i, "project")
        os.makedirs(proj, exist_ok=True)
        env = dict(os.environ, CUENV_ROOT=root)
        with open(os.path.join(corpus, i + ".txt"), "rb") as msg:
            p = subprocess.run(["cuenv", "explain", "--json", "-"],
                               stdin=msg, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=proj)
        try:
            j = json.loads(p.stdout)
        except ValueError:
            j = None
            problems.append("stdout is not one JSON object: %r" %
                            p.stdout[:200])
        if p.returncode != int(r["exit"]):
            problems.append("exit %d, expected %s" % (p.returncode,
                                                      r["exit"]))
        if j is not None:
            kinds = {f["kind"] for f in j["findings"]}
            libs = {f["library"] for f in j["findings"]}
            if r["class"] == "none":
                if j["findings"]:
                    problems.append("findings %s, expected none" %
                                    sorted(kinds))
                if "error" not in j:
                    problems.append("no error in the JSON object")
            elif r["class"] not in kinds:
                problems.append("kinds %s lack %s" % (sorted(kinds),
                                                      r["class"]))
            if r["library"] != "-" and r["library"] not in libs:
                problems.append("libraries %s lack %s" % (sorted(libs),
                                                          r["library"]))
            # (read with .get: an older cuenv's object lacks keys, and
            # must fail here, not crash)
            ctx_cuda = j.get("context", {}).get("cuda")
            cuda = r["cuda"]
            if cuda == "unknown" and j.get("cuda_known", True):
                problems.append("cuda_known, expected unknown")
            elif cuda == "none" and ctx_cuda is not None:
                problems.append("context CUDA %s, expected none" % ctx_cuda)
            elif cuda not in ("-", "unknown", "none") and ctx_cuda != cuda:
                problems.append("context CUDA %s, expected %s" %
                                (ctx_cuda, cuda))
            argvs = [a if isinstance(a, list) else a.split()
                     for a in j.get("fix", []) + j.get("decide", [])]
            fix = [a if isinstance(a, str) else " ".join(a)
                   for a in j.get("fix", [])]
            decide = [" ".join(a) for a in j.get("decide", [])]
            if fix != commands(r["fix"]):
                problems.append("fix %s, expected %s" % (fix, r["fix"]))
            if decide != commands(r["decide"]):
                problems.append("decide %s, expected %s" % (decide,
                                                            r["decide"]))
            # every command, run as printed, in this message's root
            for argv in argvs:
                rc, out = run_printed(argv, env, proj)
                ok = rc == 0 if argv[1] in ("install", "local") else \
                    rc not in (2, 126, 127)
                if not ok:
                    problems.append("%s: exit %d: %s" %
                                    (" ".join(argv), rc,
                                     out.strip().splitlines()[-1:]))
        if problems:
            bad += 1
            print("FAIL %s (%s)" % (i, sources.get(i)))
            for x in problems:
                print("    " + x)
        else:
            print("ok   %s" % i)
    print("%d messages, %d failed" % (len(rows), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
