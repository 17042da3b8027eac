# lib-needs.sh: sourced by the `cuenv needs` tests (t70xx), after lib.sh.
#
#   e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
#   . "$e2e/lib.sh"
#   . "$e2e/lib-needs.sh"
#
# Points cuenv at the repository's real catalogue (CUENV_MANIFESTS), so
# that install lines are those a user would see, and builds ELF files with
# cc that ask for CUDA libraries the way frameworks do:
#
#   stubs                 $HOME/stubs/lib{cudart.so.11.0,cudart.so.12,
#                         cudnn.so.8,cupti.so.11.2}: empty libraries with
#                         those sonames, to link against
#   mkso OUT SONAME SRC [LIB...]
#                         build OUT from the C source SRC with soname
#                         SONAME, linked against the stubs LIB... (their
#                         DT_NEEDED entries); dlopen names go in SRC as
#                         strings
#   fake_tensorflow DIR   DIR/libtensorflow_framework.so.2 (needs
#                         libcudart.so.11.0; names libcupti.so.11.2 and
#                         libcudnn.so.8, as TensorFlow 2.5-2.11 dlopen them)
#                         and DIR/python/_pywrap_tensorflow_internal.so
#                         (needs it and libcudnn.so.8), plus a .py file

CUENV_MANIFESTS=$(cd "${e2e:?set e2e first}/../../manifests" && pwd) || exit 1
export CUENV_MANIFESTS

mkso() {
	_out=$1
	_soname=$2
	_src=$3
	shift 3
	_libs=
	for _l in "$@"; do
		_libs="$_libs -l:$_l"
	done
	mkdir -p "$(dirname "$_out")" &&
		printf '%s\n' "$_src" >"$E2E_SANDBOX/tmp/mkso.c" &&
		# shellcheck disable=SC2086 # one word per library
		cc -shared -fPIC -o "$_out" "$E2E_SANDBOX/tmp/mkso.c" \
			-Wl,-soname,"$_soname" -Wl,--no-as-needed \
			-L"$HOME/stubs" $_libs || {
		fail "cc could not build $_out"
		return 1
	}
}

stubs() {
	need cc
	for _s in libcudart.so.11.0 libcudart.so.12 libcudnn.so.8 \
		libcupti.so.11.2; do
		[ -f "$HOME/stubs/$_s" ] && continue
		mkso "$HOME/stubs/$_s" "$_s" "int stub_$(echo "$_s" | tr -c 'a-z0-9\n' _)(void) { return 0; }" ||
			return 1
	done
}

# cuda_site DIR: a package gpuish in the folder DIR whose module links
# the CUDA runtime: a framework `cuenv needs --python` finds there
cuda_site() {
	stubs &&
		mkso "$1/gpuish/_ext.so" _ext.so 'int ext(void) { return 0; }' \
			libcudart.so.12 &&
		: >"$1/gpuish/__init__.py"
}

fake_tensorflow() {
	stubs &&
		mkso "$1/libtensorflow_framework.so.2" libtensorflow_framework.so.2 '
const char *dso(int i)
{
	static const char *const names[] = { "libcupti.so.11.2", "libcudnn.so.8" };
	return names[i];
}' libcudart.so.11.0 &&
		cp "$1/libtensorflow_framework.so.2" "$HOME/stubs/" &&
		mkso "$1/python/_pywrap_tensorflow_internal.so" \
			_pywrap_tensorflow_internal.so 'int pywrap(void) { return 0; }' \
			libtensorflow_framework.so.2 libcudnn.so.8 &&
		echo 'from .python import *' >"$1/__init__.py"
}

# torch_index DIR [MARKER]: a PEP 691 index in DIR (DIR/simple/torch/
# index.json) of three small torch wheels (2.0.1 for CUDA 11.7, 2.1.1 and
# 2.1.2 for CUDA 11.2) holding torch/version.py and a METADATA that pins
# nvidia-cudnn-cu11 (8.5.0.96, 8.1.0.77, 8.1.1.33), MARKER after each pin.
torch_index() {
	mkdir -p "$1/simple/torch" "$1/packages" &&
		python3 - "$1" "${2-}" <<'EOF_PY'
import hashlib, json, os, sys, zipfile
idx, marker = sys.argv[1], sys.argv[2]
files = []
for v, cuda, dnn in (("2.0.1", "11.7", "8.5.0.96"), ("2.1.1", "11.2", "8.1.0.77"),
                     ("2.1.2", "11.2", "8.1.1.33")):
    name = "torch-%s-cp311-cp311-manylinux1_x86_64.whl" % v
    path = os.path.join(idx, "packages", name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("torch/version.py", "__version__ = '%s'\ncuda: Optional[str] = '%s'\n" % (v, cuda))
        z.writestr("torch-%s.dist-info/METADATA" % v,
                   "Metadata-Version: 2.1\nName: torch\nVersion: %s\n"
                   "Requires-Dist: nvidia-cudnn-cu11 (==%s)%s\n" % (v, dnn, marker))
    data = open(path, "rb").read()
    files.append({"filename": name, "url": "../../packages/" + name,
                  "hashes": {"sha256": hashlib.sha256(data).hexdigest()}, "size": len(data)})
json.dump({"meta": {"api-version": "1.1"}, "name": "torch", "files": files},
          open(os.path.join(idx, "simple", "torch", "index.json"), "w"))
EOF_PY
}
