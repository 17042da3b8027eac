#!/bin/sh
# explain runs the import it explains (issue 31): for torch's "cuDNN
# version incompatibility" in a venv on this machine, the framework is
# imported in a child of the venv's python with this shell's environment,
# and how that ends is the verdict. The torch here is built with cc in
# torch's layout: its _C links libcudnn.so.9 through a RUNPATH into its
# cuDNN wheel (so LD_LIBRARY_PATH comes first, as for the wheels' own
# libraries), and backends.cudnn.version() raises torch's own message
# when the cuDNN the process loaded is older than 9.5.1.
#  - LD_LIBRARY_PATH naming a cuDNN 9.0: the import fails here (observed,
#    quoted); the fix, checked by importing again, is to unset it, and
#    works as printed;
#  - nothing on the path: the import works here, and only then is the
#    error said to come from another environment than this shell's;
#  - --no-import: nothing runs, the model alone says so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

need cc
real_venv
ver=$(basename "$(dirname "$s")")
py=$v/bin/$ver

mkdir -p "$s/nvidia/cudnn/lib" "$s/torch/lib" "$s/torch/backends" "$HOME/old" &&
	so "$s/nvidia/cudnn/lib/libcudnn.so.9" libcudnn.so.9 \
		'int cudnnGetVersion(void){return 90501;}' -Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN' &&
	record nvidia_cudnn_cu12-9.5.1.17 nvidia/cudnn/lib/libcudnn.so.9 &&
	so "$HOME/old/libcudnn.so.9.0.0" libcudnn.so.9 'int cudnnGetVersion(void){return 90000;}' &&
	ln -s libcudnn.so.9.0.0 "$HOME/old/libcudnn.so.9" &&
	so "$s/torch/lib/libtorch_cuda.so" libtorch_cuda.so 'int tc(void){return 0;}' &&
	so "$s/torch/lib/libtorch_global_deps.so" libtorch_global_deps.so 'int gd(void){return 0;}' &&
	so "$s/torch/_C.cpython-311-x86_64-linux-gnu.so" _C.so 'int c(void){return 0;}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN/lib:$ORIGIN/../nvidia/cudnn/lib' \
		-L"$s/torch/lib" -l:libtorch_cuda.so -L"$s/nvidia/cudnn/lib" -l:libcudnn.so.9 &&
	cat >"$s/torch/__init__.py" <<'PY' &&
import ctypes, os
_here = os.path.dirname(__file__)
ctypes.CDLL(os.path.join(_here, "lib", "libtorch_global_deps.so"), mode=ctypes.RTLD_GLOBAL)
ctypes.CDLL(os.path.join(_here, "_C.cpython-311-x86_64-linux-gnu.so"))
from . import backends
PY
	cat >"$s/torch/backends/__init__.py" <<'PY' &&
from . import cudnn
PY
	cat >"$s/torch/backends/cudnn.py" <<'PY' || exit 1
import ctypes
def version():
    v = ctypes.CDLL("libcudnn.so.9").cudnnGetVersion()
    if v < 90501:
        raise RuntimeError("cuDNN version incompatibility: PyTorch was compiled  against "
                           "(9, 5, 1) but found runtime version (%d, %d, %d)"
                           % (v // 10000, v // 100 % 100, v % 100))
    return v
PY

msg="  File \"$s/torch/backends/cudnn/__init__.py\", line 95, in version
RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 5, 1) but found runtime version (9, 0, 0)."

# the state that breaks: observed, quoted, fixed by a fix checked so
printf '%s\n' "$msg" >"$HOME/msg"
expect_code 0 env LD_LIBRARY_PATH="$HOME/old" cuenv explain - <"$HOME/msg" &&
	said "imported here by $py in a child (observed, the rest predicted): it fails: RuntimeError: cuDNN version incompatibility" &&
	said "fix: unset LD_LIBRARY_PATH" &&
	stdout_lacks "another environment" || exit 1
# the stand-in is true to what it stands for: it fails there, and the
# fix as printed makes it work
expect_code 1 env LD_LIBRARY_PATH="$HOME/old" "$py" -c 'import torch; torch.backends.cudnn.version()' &&
	expect_code 0 env LD_LIBRARY_PATH="$HOME/old" sh -c "unset LD_LIBRARY_PATH; exec '$py' -c 'import torch; torch.backends.cudnn.version()'" || exit 1

# the state that works: said only because it was checked
expect_code 0 env -u LD_LIBRARY_PATH cuenv explain - <"$HOME/msg" &&
	said "imported here by $py in a child (observed, the rest predicted): it works" &&
	said "the error came from another environment than this shell's" &&
	stdout_lacks "fix: unset LD_LIBRARY_PATH" || exit 1

# --no-import: nothing runs
expect_code 0 env LD_LIBRARY_PATH="$HOME/old" cuenv explain --no-import - <"$HOME/msg" &&
	stdout_lacks "imported here" || exit 1
expect_code 0 env LD_LIBRARY_PATH="$HOME/old" cuenv explain --json - <"$HOME/msg" &&
	/usr/bin/python3 -c '
import json, sys
f = [x for x in json.load(sys.stdin)["findings"] if x.get("observed")]
assert f and "cuDNN version incompatibility" in f[0]["import_error"], f
' <"$E2E_OUT" || fail "--json does not carry the observed import and its error"
