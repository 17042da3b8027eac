#!/bin/sh
# One reader (issue 22): a wheel on the index (`needs NAME==V`, range
# requests), the same wheel read in place (`needs WHEEL`) and unpacked
# into a folder (`needs DIR`) give the same answer: the same sonames
# needed and named, by the same members, the same reports, the same
# verdict and install line. The wheel's METADATA says nothing of CUDA,
# so old cuenv read no ELF member from the index ("0 ELF files read",
# satisfied, exit 0) while the wheel in place said CUDA 12 (exit 1).
# Its largest member is a library of 300 MiB (its tail zeros): each
# entry point stays under 64 MiB of memory, where old cuenv held the
# member whole (in place) or touched all its pages (folder).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
tag=$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])') || exit 1
idx=$HOME/index
whl=gpulib-1.0-$tag-$tag-manylinux_2_17_x86_64.whl
# under64 WHAT: the peak resident memory in $HOME/rss is under 64 MiB
under64() {
	_kb=$(cat "$HOME/rss") &&
		echo "$1: ${_kb} KiB" &&
		check "$1 took ${_kb} KiB of memory" [ "$_kb" -lt 65536 ]
}
stubs &&
	mkso "$HOME/build/libgpu.so" libgpu.so \
		'const char *dl = "libcublas.so.12"; int gpu(void) { return dl[0]; }' \
		libcudart.so.12 &&
	mkso "$HOME/build/libbig.so" libbig.so 'int big(void) { return 1; }' \
		libcudart.so.12 &&
	head -c $((300 << 20)) /dev/zero >>"$HOME/build/libbig.so" &&
	mkdir -p "$idx/simple/gpulib" "$idx/packages" "$HOME/unpacked" &&
	python3 - "$idx" "$whl" "$HOME/build" "$HOME/unpacked" <<'EOF_PY' &&
import hashlib, json, os, sys, zipfile
idx, whl, build, unpacked = sys.argv[1:5]
path = os.path.join(idx, "packages", whl)
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("gpulib-1.0.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: gpulib\nVersion: 1.0\n"
               "Requires-Dist: numpy\n\n")
    z.write(os.path.join(build, "libgpu.so"), "gpulib/libgpu.so")
    z.write(os.path.join(build, "libbig.so"), "gpulib.libs/libbig.so")
    z.writestr("gpulib/__init__.py", "")
    z.extractall(unpacked)
data = open(path, "rb").read()
json.dump({"meta": {"api-version": "1.1"}, "name": "gpulib", "files": [
    {"filename": whl, "url": "../../packages/" + whl,
     "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
     "size": len(data)}]},
    open(os.path.join(idx, "simple", "gpulib", "index.json"), "w"))
EOF_PY
	serve_start "$idx" PYPI &&
	expect_code 1 peak_rss "$HOME/rss" cuenv needs --json --index "$PYPI_URL/simple" gpulib==1.0 &&
	under64 "needs gpulib==1.0" &&
	cp "$E2E_OUT" "$HOME/index.json" &&
	expect_code 1 peak_rss "$HOME/rss" cuenv needs --json "$idx/packages/$whl" &&
	under64 "needs WHEEL" &&
	cp "$E2E_OUT" "$HOME/wheel.json" &&
	expect_code 1 peak_rss "$HOME/rss" cuenv needs --json "$HOME/unpacked" &&
	under64 "needs DIR" &&
	cp "$E2E_OUT" "$HOME/dir.json" &&
	check "the three entry points disagree" python3 -c '
import json, sys
def answer(path, prefix):
    d = json.load(open(path))
    def rel(p):
        assert p.startswith(prefix + "/"), (p, prefix)
        return p[len(prefix) + 1:]
    sonames = [(s["soname"], s.get("required"),
                sorted(rel(p) for p in s.get("needed_by", [])),
                sorted(rel(p) for p in s.get("named_by", [])))
               for s in d["sonames"]]
    reps = [(r.get("framework"), r.get("cuda_min"), r.get("cudnn_min"),
             rel(r["source"])) for r in d.get("reports", [])]
    cat = d.get("catalogue") or {}
    return dict(sonames=sonames, reports=reps, satisfied=d["satisfied"],
                files=d.get("files_read"), install=cat.get("install"))
idx, whl, folder = sys.argv[1:4]
a = answer(sys.argv[4], whl)
b = answer(sys.argv[5], idx + "/packages/" + whl)
c = answer(sys.argv[6], folder)
print(json.dumps(a))
assert a == b, (a, b)
assert b == c, (b, c)
names = [s[0] for s in a["sonames"]]
assert "libcudart.so.12" in names and "libcublas.so.12" in names, a
assert not a["satisfied"], a
' "$idx" "$whl" "$HOME/unpacked" "$HOME/index.json" "$HOME/wheel.json" "$HOME/dir.json"
