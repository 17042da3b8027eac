#!/bin/sh
# cuenv.exe and cuenv-net.exe install a windows-x86_64 release: NVIDIA's
# layout of cuda_cudart-windows-x86_64-12.4.127-archive.zip in a mirror on
# disk (file:///C:/...), a catalogue naming it (its redistrib_12.4.1.json
# pinned in redistrib-json-sha256.tsv), and a store under a user folder
# with a space and a non-ASCII letter: install, versions, install again
# (already there), uninstall, and a damaged archive (wrong sha256) refused
# with nothing left half made.
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh
command -v python3 >/dev/null 2>&1 || die "python3 is needed (zip, json)"

top='C:\cuenv-install'
root="$top"'\Users\Jos'"$(printf '\303\251')"' M\cuenv'
uroot="$C/cuenv-install/Users/Jos$(printf '\303\251') M/cuenv"
export CUENV_ROOT="$root" CUENV_MANIFESTS="$top\\man"
# cuenv ARGS...: cuenv.exe in C:\, with that store and catalogue
cuenv() { run . "$BIN/cuenv.exe" "$@"; }
there() { if [ -e "$2" ]; then ok "$1"; else bad "$1 ($2 missing)"; fi; }
gone() { if [ -e "$2" ]; then bad "$1 ($2 there)"; else ok "$1"; fi; }

# the mirror and the catalogue: make_release VERSION [BAD_SHA]
rm -rf "$C/cuenv-install"
mkdir -p "$uroot" || exit 2
make_release() {
	python3 - "$C/cuenv-install" "$1" "${2-}" <<'EOF'
import hashlib, json, os, sys, zipfile
base, label, bad = sys.argv[1:4]
top = "cuda_cudart-windows-x86_64-12.4.127-archive"
rel = "cuda_cudart/windows-x86_64/%s.zip" % top
d = os.path.join(base, "mirror", "compute", "cuda", "redist")
os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
zp = os.path.join(d, rel)
with zipfile.ZipFile(zp, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(top + "/bin/cudart64_12.dll", "MZ cudart\r\n")
    z.writestr(top + "/include/cuda_runtime_api.h",
               "#define CUDART_VERSION 12040\n")
    z.writestr(top + "/lib/x64/cudart.lib", "!<arch>\n")
    z.writestr(top + "/LICENSE", "license\n")
data = open(zp, "rb").read()
sha = "0" * 64 if bad else hashlib.sha256(data).hexdigest()
m = {"release_date": "2024-04-01", "release_label": label,
     "release_product": "cuda",
     "cuda_cudart": {"name": "CUDA Runtime", "license": "CUDA Toolkit",
                     "version": "12.4.127",
                     "windows-x86_64": {"relative_path": rel, "sha256": sha,
                                        "md5": "0", "size": str(len(data))}}}
os.makedirs(os.path.join(base, "man", "cuda"), exist_ok=True)
j = json.dumps(m, indent=2).encode()
open(os.path.join(base, "man", "cuda", "redistrib_%s.json" % label),
     "wb").write(j)
tsv = os.path.join(base, "man", "redistrib-json-sha256.tsv")
if not os.path.exists(tsv):
    open(tsv, "w").write("product\tversion\turl\tsha256_of_json\tsource\t"
                         "local_copy_check\n")
open(tsv, "a").write(
    "cuda\t%s\thttps://developer.download.nvidia.com/compute/cuda/redist/"
    "redistrib_%s.json\t%s\ttest\tMATCH\n"
    % (label, label, hashlib.sha256(j).hexdigest()))
EOF
}
make_release 12.4.1 || die "cannot make the mirror"
mirror='file:///C:/cuenv-install/mirror'

echo "$part: cuenv.exe install under wine ($("$WINE" --version 2>/dev/null))"
cuenv install 12.4.1 --mirror "$mirror"
expect "install 12.4.1 from a file:///C:/ mirror" 0
has "  says where" o "installed cuda 12.4.1 in $root"
there "  bin/cudart64_12.dll in the version" \
	"$uroot/versions/cuda/12.4.1/bin/cudart64_12.dll"
there "  its receipt" "$uroot/versions/cuda/12.4.1/.cuenv-receipt"
cuenv versions
expect "versions" 0
has "  lists 12.4.1" o "cuda   12.4.1"
cuenv install 12.4.1 --mirror "$mirror"
expect "install again" 0
has "  already installed" o "cuda 12.4.1 is already installed"
cuenv uninstall 12.4.1
expect "uninstall 12.4.1" 0
gone "  the version is gone" "$uroot/versions/cuda/12.4.1"
if [ -z "$(ls -A "$uroot/.staging")" ]; then ok "  .staging empty"; else
	bad "  .staging empty ($(ls -A "$uroot/.staging"))"; fi

# a release whose archive does not match the catalogue's sha256
make_release 12.4.0 bad || die "cannot make the bad release"
cuenv install 12.4.0 --mirror "$mirror"
expect "a wrong sha256 is an integrity error" 5
has "  named" e "sha256 mismatch"
gone "  no version half made" "$uroot/versions/cuda/12.4.0"

finish
