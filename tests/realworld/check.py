#!/usr/bin/env python3
"""check.py: run cuenv over the real-artifact corpus and compare its
answers with expected.tsv and expected-layouts.tsv (written by hand from
the publishers' tables and the artifacts' own metadata).

    check.py CUENV CORPUS_ROOT [--index URL] [--no-index]

For each artifact of expected.tsv: `cuenv needs --json CORPUS_ROOT/ID`
(the members the corpus fetched, as a folder), and for rows naming
NAME==VERSION also `cuenv needs --json NAME==VERSION` against the package
index (range requests over the members the wheel in place gives: the
bytes fetched must not pass the wheel's size by more than 5%) and `cuenv install --for
NAME==VERSION --dry-run` (the CUDA and cuDNN it would install must meet
the row's minimums, same majors).

Then NVIDIA's real files (the lib-* artifacts) are laid out as pip does
and as toolkit folders, each registered with `cuenv add` in a CUENV_ROOT
of its own, and `versions --json`, `check --json` (no GPU needed: layers
that need the driver are skipped, never failed) and `doctor --json` are
compared with expected-layouts.tsv.

Prints one table row per check (artifact, check, expected, cuenv's
answer, verdict) and exits 1 when any differs.
"""
import json
import os
import shutil
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
                # issue 22: NAME==V reads the members the wheel in place
                # gives (its ELF members whole), the index page included,
                # each by bounded range requests: never more than the
                # wheel and its page (4 MiB allowed for the page).
                if fx["bytes_fetched"] > fx["size"] + (4 << 20):
                    problems.append("fetched more than the wheel")
            exp = r["cuda"] if r["cuda"] == "provides" else \
                "CUDA %s%s" % (r["cuda"], ", cuDNN %s" % r["cudnn"] if r["cudnn"] != "-" else "")
            if r["extra"] != "-":
                exp += " (%s)" % r["extra"]
            ok = "ok" if not problems else "FAIL: " + "; ".join(problems)
            failed += bool(problems)
            table.append((r["id"], "needs " + how + ("" if how == "folder" else " " + r["index"]),
                          exp, answer, ok))
        if r["index"] != "-" and use_index:
            answer, problems = install_for(cuenv, env, r)
            failed += bool(problems)
            table.append((r["id"], "install --for %s --dry-run" % r["index"],
                          "CUDA %s+, cuDNN %s+" % (r["cuda"], r["cudnn"]), answer,
                          "ok" if not problems else "FAIL: " + "; ".join(problems)))
    for row in venv_python(cuenv, root, here, env):
        failed += row[4] != "ok"
        table.append(row)
    for row in layouts(cuenv, root, here, env):
        failed += row[4] != "ok"
        table.append(row)
    w = [max(len(t[i]) for t in table) for i in range(4)]
    print("%-*s | %-*s | %-*s | %-*s | %s" % (w[0], "artifact", w[1], "check", w[2], "expected",
                                          w[3], "cuenv", "verdict"))
    for t in table:
        print("%-*s | %-*s | %-*s | %-*s | %s" % (w[0], t[0], w[1], t[1], w[2], t[2], w[3], t[3], t[4]))
    print("realworld: %d checked, %d failed" % (len(table), failed))
    subprocess.run(["rm", "-rf", env["CUENV_ROOT"]])
    return 1 if failed else 0


def meets(got, want):
    """got (a catalogue release) is of want's major and at least want."""
    return got.split(".")[0] == want.split(".")[0] and le(want, got)


def install_for(cuenv, env, r):
    """`install --for NAME==V --dry-run` against row r: (answer, problems)."""
    p = subprocess.run([cuenv, "install", "--for", r["index"], "--dry-run"], env=env,
                       capture_output=True, text=True)
    out = p.stdout.strip()
    if p.returncode or not out.startswith("would install cuda "):
        return "exit %d: %s" % (p.returncode, (out + p.stderr).strip()), ["no plan"]
    words = out.split()
    cuda = words[3]
    cudnn = words[words.index("cudnn") + 1] if "cudnn" in words else None
    problems = []
    if not meets(cuda, r["cuda"]):
        problems.append("CUDA %s does not meet %s" % (cuda, r["cuda"]))
    if r["cudnn"] != "-" and (not cudnn or not meets(cudnn, r["cudnn"])):
        problems.append("cuDNN %s does not meet %s" % (cudnn, r["cudnn"]))
    return out, problems


def python311():
    """A CPython 3.11 (venv-jax.txt's wheels are cp311), or None."""
    for exe in ("python3.11", "python3"):
        p = subprocess.run([exe, "-c", "import sys, venv; print(sys.version_info[:2] == (3, 11))"],
                           capture_output=True, text=True) if shutil.which(exe) else None
        if p and p.stdout.strip() == "True":
            return exe
    return None


def venv_python(cuenv, root, here, env):
    """`needs --json --python` in a venv with jax and its CUDA 12 plugin
    installed by pip from root/wheels; rows of expected-layouts.tsv whose
    layout is venv-jax."""
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(here, "expected-layouts.tsv"))
            if l.startswith("venv-jax\t")]
    exe = python311()
    wheels = os.path.join(root, "wheels")
    if not rows:
        return []
    if not exe or not os.path.exists(os.path.join(wheels, ".done")):
        why = "no CPython 3.11" if not exe else "no wheels in " + wheels
        return [("venv-jax", r[1], r[2], why, "ok (skipped)") for r in rows]
    tmp = tempfile.mkdtemp(prefix="cuenv-realworld-venv.")
    venv = os.path.join(tmp, "venv")
    py = os.path.join(venv, "bin", "python")
    p = subprocess.run([exe, "-m", "venv", venv], capture_output=True, text=True)
    if not p.returncode:
        p = subprocess.run([py, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                            "--require-hashes", "--find-links", wheels,
                            "-r", os.path.join(here, "venv-jax.txt")],
                           capture_output=True, text=True)
    fw = {}
    if p.returncode:
        answer = "venv: exit %d: %s" % (p.returncode, p.stderr.strip()[-200:])
    else:
        p = subprocess.run([cuenv, "needs", "--json", "--import", "--python", py], env=env,
                           capture_output=True, text=True)
        try:
            fw = json.loads(p.stdout)["frameworks"]
            answer = None
        except (ValueError, KeyError):
            answer = "exit %d: %s" % (p.returncode, p.stderr.strip())
    out = []
    for r in rows:
        what, want = r[1], r[2]
        name, key = what.split(".")[2:4]  # needs.python.jax.cuda
        got = fw.get(name, {}).get(key)
        problems = []
        if answer:
            problems.append(answer)
        elif got is None:
            problems.append("%s says no %s (%s)" % (name, key, fw.get(name, {}).get("absent")))
        elif key == "version" and got != want:
            problems.append("expected %s" % want)
        elif key != "version" and not meets(got, want):
            problems.append("%s does not meet %s (same major, at least)" % (got, want))
        out.append(("venv-jax", what, want + ("" if key == "version" else "+"), str(answer or got),
                    "ok" if not problems else "FAIL: " + "; ".join(problems)))
    shutil.rmtree(tmp)
    return out


def copy_tree(src, dst):
    """Copy the files under src into dst (merging, later copies win)."""
    for d, _, files in os.walk(src):
        rel = os.path.relpath(d, src)
        for f in files:
            if f.startswith("."):
                continue
            os.makedirs(os.path.join(dst, rel), exist_ok=True)
            shutil.copy2(os.path.join(d, f), os.path.join(dst, rel, f))


def toolkit(root, dst, ids):
    """A toolkit folder: every lib/ file into dst/lib64, include/ into
    dst/include."""
    for i in ids:
        for d, _, files in os.walk(os.path.join(root, i, "nvidia")):
            kind = os.path.basename(d)
            if kind not in ("lib", "include"):
                continue
            out = os.path.join(dst, "lib64" if kind == "lib" else "include")
            os.makedirs(out, exist_ok=True)
            for f in files:
                shutil.copy2(os.path.join(d, f), os.path.join(out, f))


# The layouts of expected-layouts.tsv: (what `add cuda` is given, the
# files: how to lay them out, which lib-* artifacts, in install order;
# the selection `check` runs: CUENV_VERSION, CUENV_CUDNN_VERSION or None).
LAYOUTS = {
    "pip-cu11": ("pip", ["lib-cudart-cu11", "lib-cupti-cu11", "lib-cudnn-cu11"]),
    "pip-cu12": ("pip", ["lib-cudart-cu12", "lib-cupti-cu12", "lib-cudnn-cu12"]),
    # no cuDNN 8 here: its dispatcher aborts without libcudnn_ops_infer
    # (hundreds of MB), so `check` would (rightly) fail it
    "tk-cu11": ("toolkit", ["lib-cudart-cu11", "lib-cupti-cu11"]),
    "tk-cu12": ("toolkit", ["lib-cudart-cu12", "lib-cupti-cu12", "lib-cudnn-cu12"]),
    # pip install nvidia-cuda-runtime-cu12 nvidia-cuda-cupti-cu12, then
    # nvidia-cuda-cupti-cu11 over them
    "mixed": ("venv", ["lib-cudart-cu12", "lib-cupti-cu12", "lib-cupti-cu11"]),
}


def layouts(cuenv, root, here, env0):
    rows = {}
    for line in open(os.path.join(here, "expected-layouts.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if f[0] in LAYOUTS:  # venv-jax: venv_python()
            rows.setdefault(f[0], []).append((f[1], f[2], f[3]))
    tmp = tempfile.mkdtemp(prefix="cuenv-realworld-layouts.")
    out = []
    for name, checks in rows.items():
        how, ids = LAYOUTS[name]
        base = os.path.join(tmp, name)
        env = dict(env0)
        env["CUENV_ROOT"] = os.path.join(base, "root")
        os.makedirs(env["CUENV_ROOT"])
        if how == "toolkit":
            target = os.path.join(base, "cuda")
            toolkit(root, target, ids)
        else:
            site = os.path.join(base, "venv", "lib", "python3.11", "site-packages") \
                if how == "venv" else os.path.join(base, "site-packages")
            for i in ids:
                copy_tree(os.path.join(root, i), site)
            target = os.path.join(site, "nvidia")
            env["VIRTUAL_ENV"] = os.path.join(base, "venv")
        add = subprocess.run([cuenv, "add", "cuda", target], env=env,
                             capture_output=True, text=True)
        vers = subprocess.run([cuenv, "versions", "--json"], env=env,
                              capture_output=True, text=True)
        try:
            v = json.loads(vers.stdout)
        except ValueError:
            v = {"cuda": [], "cudnn": []}
        cuda = v["cuda"][0] if v.get("cuda") else {}
        cudnn = v["cudnn"][0] if v.get("cudnn") else {}
        sel = dict(env)
        sel["CUENV_VERSION"] = cuda.get("name") or "none"
        if cudnn:
            sel["CUENV_CUDNN_VERSION"] = cudnn["version"]
        check = doctor = None
        for what, want, source in checks:
            problems = []
            if what.startswith("versions."):
                k = what[len("versions."):]
                if k == "cuda":
                    got = cuda.get("version")
                elif k == "cupti":
                    got = cuda.get("cupti")
                elif k.startswith("component."):
                    got = cuda.get("components", {}).get(k[len("component."):])
                elif k == "cudnn":
                    got = cudnn.get("version")
                elif k == "cudnn_cuda":
                    got = cudnn.get("cuda_major")
                got = "-" if got is None else str(got)
                answer = got
                if got != want:
                    problems.append("expected %s" % want)
                if add.returncode:
                    problems.append("add: exit %d: %s" % (add.returncode, add.stderr.strip()))
            elif what.startswith("check."):
                if check is None:
                    p = subprocess.run([cuenv, "check", "--json"], env=sel,
                                       capture_output=True, text=True)
                    try:
                        check = {l["name"]: l for l in json.loads(p.stdout)["layers"]}
                    except (ValueError, KeyError):
                        check = {}
                layer = check.get(what[len("check."):], {})
                answer = "%s %s" % (layer.get("status", "-"), layer.get("version"))
                if layer.get("status") not in ("skip", "pass"):
                    problems.append("%s: %s" % (layer.get("status"), layer.get("message")))
                if str(layer.get("version")) != want:
                    problems.append("version %s, expected %s" % (layer.get("version"), want))
            elif what.startswith("doctor."):
                if doctor is None:
                    p = subprocess.run([cuenv, "doctor", "--json"], env=env,
                                       capture_output=True, text=True)
                    try:
                        doctor = json.loads(p.stdout)["findings"]
                    except (ValueError, KeyError):
                        doctor = []
                fid = what[len("doctor."):]
                text = " ".join(f["what"] for f in doctor if f["id"] == fid)
                answer = (fid + ": " + text) if text else "no " + fid
                if len(answer) > 90:
                    answer = answer[:87] + "..."
                problems += ["does not name " + x for x in want.split(";") if x not in text]
            elif what == "add.warning":
                text = add.stderr
                answer = text.strip().splitlines()[0] if text.strip() else "(silent)"
                if len(answer) > 90:
                    answer = answer[:87] + "..."
                problems += ["does not name " + x for x in want.split(";") if x not in text]
            else:
                answer, problems = "-", ["unknown check " + what]
            shown = want if len(want) < 60 else want[:57] + "..."
            out.append((name, what, shown, answer,
                        "ok" if not problems else "FAIL: " + "; ".join(problems)))
    shutil.rmtree(tmp)
    return out


if __name__ == "__main__":
    sys.exit(main())
