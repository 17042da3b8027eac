#!/usr/bin/env python3
"""logs.py CUENV [--out FILE]: score `CUENV explain --json -` on the sweep
corpus of real error messages (tests/sweep/logs/).

Reads every tests/sweep/logs/expected-*.tsv (the readings written by hand;
each file's # header says what its columns mean: id, source, library,
class, cuda, note), runs `CUENV explain --json -` on each message
(tests/sweep/logs/<id>.txt) in a fresh CUENV_ROOT of its own (a temporary
folder, removed after; the command runs there too), 60 s at most each, and
classifies its answer:

  right         expected class is not none; the class is among the JSON's
                findings[].kind; the library is - or among
                findings[].library; and the cuda is - , or "unknown" with
                cuda_known false, or equal to context.cuda
  wrong         findings that do not match the above, findings where none
                were expected, or a crash (killed by a signal, exit >= 128,
                a timeout, or stdout that is not a JSON object)
  unrecognised  no findings where a class was expected (explain says it
                knows nothing in the text: exit 1 with an "error" key)
  right-none    class none expected and no findings

The comparison is strict. Library names are compared in lower case
(cuenv may spell cublasLt). Where a wrong answer is wrong only by
cublas for cublaslt (or back), or symbol-version for mixed-copies (or
back), the line says so ("near: ...") and the summary counts those, so
both readings can be seen; they stay wrong.

Prints one line per message (for wrong and unrecognised also what cuenv
said: kinds, libraries, context cuda and cuda_known), then a summary per
file and for all: counts, precision = right/(right+wrong) (of the answers
given), recall = right/(messages expected with a finding), and the
unrecognised rate (of the same). With --out FILE also writes a TSV: id,
outcome, kinds, libraries, cuda.

Exit status: 0 whatever the scores; 2 when the corpus is malformed (a
missing or empty message, a malformed row or header, an unknown class or
library, a duplicate id), with a one-line error naming the file and line;
2 also for a usage error (no CUENV, or CUENV not executable). Python 3
standard library only.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LOGS = os.path.join(HERE, "logs")
COLUMNS = ["id", "source", "library", "class", "cuda", "note"]
LIBRARIES = {"cudart", "cudnn", "cublas", "cublaslt", "cufft", "curand",
             "cusolver", "cusparse", "cupti", "nvrtc", "nvjitlink", "nccl",
             "nvinfer", "cuda", "-"}
CLASSES = {"library", "driver-too-old", "mixed-copies", "cudnn-mismatch",
           "library-too-old", "cupti-privileges", "symbol-version",
           "driver", "toolkit-mismatch", "none"}
NEAR_KINDS = {"mixed-copies": "symbol-version",
              "symbol-version": "mixed-copies"}
NEAR_LIBS = {"cublas": "cublaslt", "cublaslt": "cublas"}
TIMEOUT = 60


class Malformed(Exception):
    pass


def shown(path):
    """A path as the error names it: relative to here, when under here."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def read_expected(path):
    """The rows of one expected-*.tsv, each with its line number."""
    rows = []
    header = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#") or not line.strip():
                continue
            cells = line.split("\t")
            where = "%s:%d" % (shown(path), n)
            if header is None:
                if cells != COLUMNS:
                    raise Malformed("%s: header is not %s" %
                                    (where, "\\t".join(COLUMNS)))
                header = cells
                continue
            if len(cells) != len(COLUMNS):
                raise Malformed("%s: %d cells, not %d" %
                                (where, len(cells), len(COLUMNS)))
            r = dict(zip(COLUMNS, cells))
            r["where"] = where
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", r["id"]):
                raise Malformed("%s: bad id %r" % (where, r["id"]))
            if not r["source"].startswith("https://"):
                raise Malformed("%s: source is not an https:// URL" % where)
            if r["library"] not in LIBRARIES:
                raise Malformed("%s: unknown library %r" %
                                (where, r["library"]))
            if r["class"] not in CLASSES:
                raise Malformed("%s: unknown class %r" % (where, r["class"]))
            if not (r["cuda"] in ("-", "unknown") or
                    re.fullmatch(r"\d+(\.\d+)?", r["cuda"])):
                raise Malformed("%s: cuda %r is not -, unknown or X[.Y]" %
                                (where, r["cuda"]))
            if not r["note"].strip():
                raise Malformed("%s: empty note" % where)
            msg = os.path.join(os.path.dirname(path), r["id"] + ".txt")
            if not os.path.isfile(msg):
                raise Malformed("%s: no message file %s" %
                                (where, shown(msg)))
            if os.path.getsize(msg) == 0:
                raise Malformed("%s: message file %s is empty" %
                                (where, shown(msg)))
            r["msg"] = msg
            rows.append(r)
    if header is None:
        raise Malformed("%s: no header line" % shown(path))
    return rows


def run_explain(cuenv, msg):
    """(status, stdout, note): status None on a timeout."""
    tmp = tempfile.mkdtemp(prefix="cuenv-sweep-")
    try:
        root = os.path.join(tmp, "root")
        cwd = os.path.join(tmp, "cwd")
        os.makedirs(root)
        os.makedirs(cwd)
        env = dict(os.environ, CUENV_ROOT=root)
        with open(msg, "rb") as stdin:
            try:
                p = subprocess.run([cuenv, "explain", "--json", "-"],
                                   stdin=stdin, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env, cwd=cwd,
                                   timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                return None, b"", "timeout after %d s" % TIMEOUT
        return p.returncode, p.stdout, ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def judge(r, status, out, note):
    """The outcome and what cuenv said, as a dict."""
    said = {"kinds": [], "libraries": [], "cuda": None, "cuda_known": None,
            "why": [], "near": []}
    if status is None or status < 0 or status >= 128:
        said["why"].append("crash: " + (note or "exit %s" % status))
        return "wrong", said
    try:
        j = json.loads(out.decode("utf-8", errors="replace"))
        if not isinstance(j, dict):
            raise ValueError("not an object")
    except ValueError:
        said["why"].append("crash: stdout is not JSON (exit %d)" % status)
        return "wrong", said
    findings = j.get("findings") or []
    if not isinstance(findings, list):
        findings = []
    said["kinds"] = [str(f.get("kind")) for f in findings
                     if isinstance(f, dict)]
    said["libraries"] = [str(f.get("library")).lower() for f in findings
                         if isinstance(f, dict) and f.get("library")]
    ctx = j.get("context") if isinstance(j.get("context"), dict) else {}
    said["cuda"] = ctx.get("cuda")
    said["cuda_known"] = j.get("cuda_known")
    exp_class = r["class"]
    if not findings:
        if exp_class == "none":
            return "right-none", said
        if status != 1 or "error" not in j:
            said["why"].append("no findings, but exit %d%s" %
                               (status, "" if "error" in j else
                                " and no error key"))
        return "unrecognised", said
    if exp_class == "none":
        said["why"].append("findings where none were expected")
        return "wrong", said
    ok = True
    if exp_class not in said["kinds"]:
        ok = False
        said["why"].append("class %s not among the kinds" % exp_class)
        if NEAR_KINDS.get(exp_class) in said["kinds"]:
            said["near"].append("%s for %s" %
                                (NEAR_KINDS[exp_class], exp_class))
    lib = r["library"]
    if lib != "-" and lib not in said["libraries"]:
        ok = False
        said["why"].append("library %s not among the libraries" % lib)
        if NEAR_LIBS.get(lib) in said["libraries"]:
            said["near"].append("%s for %s" % (NEAR_LIBS[lib], lib))
    cuda = r["cuda"]
    if cuda == "unknown":
        if said["cuda_known"] is not False:
            ok = False
            said["why"].append("cuda should be unknown, cuda_known is %s" %
                               json.dumps(said["cuda_known"]))
    elif cuda != "-":
        if said["cuda"] != cuda:
            ok = False
            said["why"].append("cuda %s expected, context.cuda is %s" %
                               (cuda, json.dumps(said["cuda"])))
    return ("right" if ok else "wrong"), said


def summary(label, results):
    n = {k: 0 for k in ("right", "wrong", "unrecognised", "right-none")}
    near = 0
    expected_finding = 0
    for r, outcome, said in results:
        n[outcome] += 1
        if r["class"] != "none":
            expected_finding += 1
        if outcome == "wrong" and said["near"] and \
                len(said["near"]) == len(said["why"]):
            near += 1

    def pct(a, b):
        return "%d/%d = %.1f%%" % (a, b, 100.0 * a / b) if b else "%d/0" % a
    print("%s: %d messages (%d expected with a finding, %d expected none)" %
          (label, len(results), expected_finding,
           len(results) - expected_finding))
    print("  right %d, wrong %d, unrecognised %d, right-none %d" %
          (n["right"], n["wrong"], n["unrecognised"], n["right-none"]))
    print("  precision %s" % pct(n["right"], n["right"] + n["wrong"]))
    print("  recall %s" % pct(n["right"], expected_finding))
    print("  unrecognised rate %s" % pct(n["unrecognised"], expected_finding))
    if near:
        print("  wrong only by a near reading (cublas~cublaslt, "
              "mixed-copies~symbol-version): %d" % near)


def main(argv):
    args = list(argv[1:])
    out = None
    if "--out" in args:
        i = args.index("--out")
        if i + 1 >= len(args):
            print("usage: logs.py CUENV [--out FILE]", file=sys.stderr)
            return 2
        out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print("usage: logs.py CUENV [--out FILE]", file=sys.stderr)
        return 2
    cuenv = os.path.abspath(args[0]) if os.sep in args[0] else \
        shutil.which(args[0]) or args[0]
    if not (os.path.isfile(cuenv) and os.access(cuenv, os.X_OK)):
        print("logs.py: %s is not an executable file" % args[0],
              file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(LOGS, "expected-*.tsv")))
    if not files:
        print("logs.py: no expected-*.tsv in %s" % shown(LOGS),
              file=sys.stderr)
        return 2
    parts = []
    seen = {}
    try:
        for path in files:
            rows = read_expected(path)
            for r in rows:
                if r["id"] in seen:
                    raise Malformed("%s: id %s already at %s" %
                                    (r["where"], r["id"], seen[r["id"]]))
                seen[r["id"]] = r["where"]
            parts.append((path, rows))
    except Malformed as e:
        print("logs.py: malformed corpus: %s" % e, file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as e:
        print("logs.py: malformed corpus: %s" % e, file=sys.stderr)
        return 2
    every = []
    lines = []
    scored = []
    for path, rows in parts:
        results = []
        for r in rows:
            status, stdout, note = run_explain(cuenv, r["msg"])
            outcome, said = judge(r, status, stdout, note)
            results.append((r, outcome, said))
            text = "%-14s %-12s" % (r["id"], outcome)
            if outcome in ("wrong", "unrecognised"):
                text += " expected %s/%s/%s; cuenv: kinds=%s libraries=%s " \
                    "cuda=%s cuda_known=%s" % (
                        r["class"], r["library"], r["cuda"],
                        ",".join(said["kinds"]) or "-",
                        ",".join(said["libraries"]) or "-",
                        json.dumps(said["cuda"]),
                        json.dumps(said["cuda_known"]))
                if said["why"]:
                    text += " [%s]" % "; ".join(said["why"])
                if said["near"]:
                    text += " near: %s" % ", ".join(said["near"])
            print(text, flush=True)
            lines.append("\t".join([
                r["id"], outcome, ",".join(said["kinds"]) or "-",
                ",".join(said["libraries"]) or "-",
                "-" if said["cuda"] is None else str(said["cuda"])]))
        every.extend(results)
        scored.append((path, results))
    print()
    for path, results in scored:
        summary(os.path.basename(path), results)
    if len(scored) > 1:
        summary("all", every)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("id\toutcome\tkinds\tlibraries\tcuda\n")
            for l in lines:
                f.write(l + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
