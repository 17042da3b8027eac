#!/bin/sh
# NVIDIA's windows-x86_64 redistrib archives are zips: with the catalogue
# read for that platform (CUENV_PLATFORM, as cuenv.exe reads it for
# itself), `install` fetches the component's .zip from the mirror, checks
# its sha256, and extracts it from the whole file (a zip's directory is at
# its end) into the version folder: bin\cudart64_12.dll, lib\x64,
# include\. --runtime-only keeps the DLLs of bin\ (what a program loads)
# and nothing else. A planted entry with a backslash is refused.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

# winzip OUT [EXTRA]: the cudart zip, top folder and all; EXTRA: one more
# entry's name.
winzip() {
	python3 - "$@" <<'EOF_ZIP'
import sys, zipfile

out = sys.argv[1]
top = "cuda_cudart-windows-x86_64-12.4.127-archive/"
files = {
    "bin/cudart64_12.dll": b"MZ cuenv fixture cudart64_12.dll\n",
    "lib/x64/cudart.lib": b"!<arch>\n",
    "include/cuda_runtime_api.h": b"#define CUDART_VERSION 12040\n",
    "LICENSE": b"fixture\n",
}
if len(sys.argv) > 2:
    files[sys.argv[2]] = b"cuenv-evil\n"
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in files.items():
        z.writestr(top + name, data)
EOF_ZIP
}

# windows ZIP: the fixture catalogue and mirror in $HOME/win, cuda_cudart
# of 12.4.1 given a windows-x86_64 entry for ZIP (sha256 and size its own,
# the manifest's pin updated) and the only one, served and pointed at.
windows() {
	rm -rf "$HOME/win" && mkdir -p "$HOME/win" &&
		cp -R "$FX/mirror" "$FX/manifests" "$HOME/win/" &&
		chmod -R u+w "$HOME/win" &&
		python3 - "$HOME/win" "$1" <<'EOF_CAT'
import hashlib, json, os, shutil, sys

win, zpath = sys.argv[1:3]
rel = "cuda_cudart/windows-x86_64/cuda_cudart-windows-x86_64-12.4.127-archive.zip"
dst = os.path.join(win, "mirror", "compute", "cuda", "redist", rel)
os.makedirs(os.path.dirname(dst), exist_ok=True)
shutil.copy(zpath, dst)
data = open(dst, "rb").read()
man = os.path.join(win, "manifests", "cuda", "redistrib_12.4.1.json")
d = json.load(open(man))
for k, v in d.items():  # cudart only, for --runtime-only's default set
    if isinstance(v, dict):
        v.pop("windows-x86_64", None)
d["cuda_cudart"]["windows-x86_64"] = {
    "relative_path": rel,
    "sha256": hashlib.sha256(data).hexdigest(),
    "md5": hashlib.md5(data).hexdigest(),
    "size": str(len(data)),
}
js = json.dumps(d, indent=2).encode()
open(man, "wb").write(js)
tsv = os.path.join(win, "manifests", "redistrib-json-sha256.tsv")
rows = open(tsv).read().splitlines()
for i, r in enumerate(rows):
    f = r.split("\t")
    if f[0] == "cuda" and f[1] == "12.4.1":
        f[3] = hashlib.sha256(js).hexdigest()
        rows[i] = "\t".join(f)
open(tsv, "w").write("\n".join(rows) + "\n")
EOF_CAT
	serve_stop SERVER
	use_mirror "$HOME/win/mirror" &&
		CUENV_MANIFESTS=$HOME/win/manifests CUENV_PLATFORM=windows-x86_64 &&
		export CUENV_MANIFESTS CUENV_PLATFORM
}

v=$CUENV_ROOT/versions/cuda/12.4.1
fixtures &&
	winzip "$HOME/cudart.zip" &&
	windows "$HOME/cudart.zip" &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart &&
	stdout_has "installed cuda 12.4.1 in $v (" &&
	expect_stdout "MZ cuenv fixture cudart64_12.dll" cat "$v/bin/cudart64_12.dll" &&
	check "lib/x64/cudart.lib missing" [ -f "$v/lib/x64/cudart.lib" ] &&
	check "include missing" [ -f "$v/include/cuda_runtime_api.h" ] &&
	check "the top folder was kept" [ ! -e "$v/cuda_cudart-windows-x86_64-12.4.127-archive" ] &&
	grep -q "GET /compute/cuda/redist/cuda_cudart/windows-x86_64/cuda_cudart-windows-x86_64-12.4.127-archive.zip - 200" "$SERVER_LOG" &&
	expect_code 0 cuenv uninstall cuda 12.4.1 &&
	expect_code 0 cuenv install 12.4.1 --runtime-only &&
	expect_stdout "$v/bin/cudart64_12.dll" sh -c "find '$v' -type f ! -name '.*' | grep -v dist-info" &&
	expect_code 0 cuenv uninstall cuda 12.4.1 &&
	# a planted ..\ entry, listed with its true sha256: refused
	winzip "$HOME/evil.zip" 'bin\..\..\evil.dll' &&
	windows "$HOME/evil.zip" &&
	expect_code 6 cuenv install 12.4.1 --components cuda_cudart &&
	stderr_has "refused archive entry 'cuda_cudart-windows-x86_64-12.4.127-archive/bin\x5c..\x5c..\x5cevil.dll': backslash in a name" &&
	nothing_half_made cuda 12.4.1 &&
	CUENV_PLATFORM=win64 expect_code 2 cuenv install 12.4.1 &&
	stderr_has "cuenv: error: CUENV_PLATFORM: unknown platform 'win64'"
