#!/bin/sh
# cuenv explain, fed the frameworks' real messages (sources in the
# comments; the same texts as tests/unit/explain/test_explain.c): TensorFlow's
# dso_loader line for libcupti.so.11.2 names CUPTI of CUDA 11.2, the
# TensorFlow releases of manifests/compat/frameworks.tsv built with CUDA
# 11.2 (2.5.0 to 2.11.0, cuDNN 8.1), what the machine has instead (a
# registered CUDA 11.8 with libcupti.so.11.8, a libcupti.so.12 on
# LD_LIBRARY_PATH, a libcudnn.so.9 in the loader cache) and the fix: the
# printed commands are run as printed, after which explain finds the
# selection in force gives it. Then TensorFlow's cuDNN mismatch (fixed the
# same way), PyTorch's (the table's build, CUDA 13.2, is not in the
# fixture catalogue: no install is suggested), a Windows DLL, CUPTI's
# privileges error, a whole log on standard input, --json, and the exit
# codes for names no release gives and text that names nothing.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
need cc

# run_fixes LABEL: run the "fix:" lines of the last command as printed.
run_fixes() {
	hint_lines >"$HOME/fixes"
	[ -s "$HOME/fixes" ] || {
		fail "$1: printed no fix"
		return 1
	}
	while IFS= read -r h; do
		hint_commands "$h" >"$HOME/cmds"
		while IFS= read -r c; do
			echo "$1: running: $c"
			sh -c "$c" >"$HOME/fix.out" 2>&1 </dev/null || {
				sed 's/^/    /' "$HOME/fix.out" >&2
				fail "$1: the fix does not work as printed: $c"
				return 1
			}
		done <"$HOME/cmds"
	done <"$HOME/fixes"
}

# TensorFlow 2.x, tensorflow/stream_executor/platform/default/
# dso_loader.cc: absl::StrCat("Could not load dynamic library '",
# filename, "'; dlerror: ", status.message()) and "; LD_LIBRARY_PATH: "
# after it on Linux; the line as a user's log has it.
tf_cupti="2021-07-29 17:58:14.405721: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcupti.so.11.2'; dlerror: libcupti.so.11.2: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: $HOME/lib12"
# TensorFlow, tensorflow/stream_executor/cuda/cuda_dnn.cc
tf_cudnn="2021-03-02 10:11:12.123456: E tensorflow/stream_executor/cuda/cuda_dnn.cc:336] Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library major and minor version needs to match or have higher minor version in case of CuDNN 7.0 or later version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compatible with the version specified during compile configuration."
# PyTorch, torch/backends/cudnn/__init__.py (two spaces before "against")
torch_cudnn="RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 26, 0) but found runtime version (9, 19, 0). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure PyTorch can find the bundled cuDNN. one possibility is that there is a conflicting cuDNN in LD_LIBRARY_PATH."
# TensorFlow on Windows (dso_loader.cc, no LD_LIBRARY_PATH part)
tf_windows="2026-09-28 12:10:50.001295: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
# TensorFlow's profiler, core/profiler/internal/gpu/cupti_tracer.cc
cupti_priv="E external/org_tensorflow/tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1445] function cupti_interface_->EnableCallback( 0 , subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid)failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
cupti_load="E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1661] function cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)ApiCallback, this)failed with error CUPTI could not be loaded or symbol could not be found."

c112=$CUENV_ROOT/versions/cuda/11.2.2
t=$HOME/toolkits
use_mirror &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	mkdir -p "$HOME/lib12" "$HOME/p" &&
	fake_elf libcupti.so.12 "$HOME/lib12/libcupti.so.12" &&
	cd "$HOME/p" || exit 1

# A loader cache with a cuDNN 9 in it, built here (as t8060 does).
CUENV_LD_SO_CACHE=$HOME/no-such-cache
ldconfig=
for _p in /sbin/ldconfig /usr/sbin/ldconfig; do
	[ -x "$_p" ] && ldconfig=$_p && break
done
if [ -n "$ldconfig" ]; then
	mkdir -p "$HOME/opt/lib" &&
		fake_elf libcudnn.so.9 "$HOME/opt/lib/libcudnn.so.9" &&
		printf '%s\n' "$HOME/opt/lib" >"$HOME/ld.so.conf" &&
		"$ldconfig" -X -C "$HOME/ld.so.cache" -f "$HOME/ld.so.conf" 2>/dev/null &&
		CUENV_LD_SO_CACHE=$HOME/ld.so.cache || exit 1
fi
export CUENV_LD_SO_CACHE

# ---- libcupti.so.11.2: nothing gives it; install, select, explained -----
expect_code 0 env LD_LIBRARY_PATH="$HOME/lib12" cuenv explain "$tf_cupti" &&
	stdout_has "libcupti.so.11.2: libcupti of CUDA 11.2 (NVIDIA's cuda_cupti, pip's nvidia-cuda-cupti-cuNN)" &&
	stdout_has "  the program could not load it" &&
	stdout_has "    tensorflow 2.5.0 to 2.11.0: CUDA 11.2, cuDNN 8.1" &&
	stdout_lacks "tensorflow 2.12" &&
	stdout_has "    cuda 11.8.0 (registered) has libcupti.so.11.8: $t/cuda-11.8/lib64/libcupti.so.11.8" &&
	stdout_has "    LD_LIBRARY_PATH: $HOME/lib12/libcupti.so.12" &&
	stdout_has "    none of them is libcupti.so.11.2" &&
	stdout_has "installed: cuda 11.8.0: lacks libcupti.so.11.2" &&
	stdout_has "  fix: cuenv install 11.2" &&
	stdout_has "  fix: cuenv local 11.2" &&
	run_fixes "libcupti.so.11.2" &&
	check "the fix selected 11.2" grep -q '^cuda = 11.2$' .cuenv &&
	expect_code 0 cuenv explain "$tf_cupti" &&
	stdout_has "    cuda 11.2.2 (installed) has libcupti.so.11.2: $c112/extras/CUPTI/lib64/libcupti.so.11.2" &&
	stdout_lacks "none of them" &&
	stdout_has "installed: cuda 11.2.2, the selection in force here, gives it" &&
	stdout_has "  note: nothing to install: run the program under the selection, cuenv exec -- PROGRAM" &&
	stdout_lacks "fix:" || exit 1

# ---- TensorFlow: built with cuDNN 8.1.0, loaded 8.0.5 --------------------
n8=$CUENV_ROOT/versions/cudnn/8.1.1.33-cuda11
expect_code 0 cuenv explain "$tf_cudnn" &&
	stdout_has "tensorflow was built with cuDNN 8.1.0 but loaded cuDNN 8.0.5" &&
	stdout_has "  it needs cuDNN 8.x, at least 8.1.0" &&
	stdout_has "    tensorflow 2.5.0 to 2.11.0: CUDA 11.2, cuDNN 8.1" &&
	stdout_has "installed: cuda 11.2.2: lacks cuDNN 8.1.0+ (tensorflow)" &&
	stdout_has "  fix: cuenv install 11.2 --cudnn 8.1" &&
	stdout_has "  fix: cuenv local 11.2 --cudnn 8.1" || exit 1
if [ -n "$ldconfig" ]; then
	stdout_has "    loader cache: libcudnn.so.9 => $HOME/opt/lib/libcudnn.so.9" || exit 1
fi
run_fixes "cudnn 8.1.0" &&
	expect_code 0 cuenv explain "$tf_cudnn" &&
	stdout_has "    cudnn 8.1.1.33 (installed, for CUDA 11) has libcudnn.so.8: $n8/lib64/libcudnn.so.8" &&
	stdout_has "installed: cuda 11.2.2 + cudnn 8.1.1.33 (cuda11), the selection in force here, gives it" || exit 1

# ---- PyTorch: cuDNN 9.26 asked, no such build in the catalogue ----------
expect_code 0 cuenv explain "$torch_cudnn" &&
	stdout_has "torch was built with cuDNN 9.26.0 but loaded cuDNN 9.19.0" &&
	stdout_has "  it needs cuDNN 9.x, at least 9.26.0" &&
	stdout_has "    pytorch 2.15: CUDA 13.2, cuDNN 9.26.0.51" &&
	stdout_has "catalogue: no CUDA release in the catalogue gives all of them" &&
	stdout_lacks "fix:" || exit 1

# ---- Windows: cudart64_110.dll is any CUDA 11 runtime ------------------
expect_code 0 cuenv explain "$tf_windows" &&
	stdout_has "cudart64_110.dll: the Windows DLL of libcudart of CUDA 11.x" &&
	stdout_has "  on Linux the same library is libcudart.so.11.0" &&
	stdout_has "    tensorflow 2.5.0 to 2.10.0 (Windows): CUDA 11.2, cuDNN 8.1" &&
	stdout_has "    tensorflow 2.4.0 (Windows): CUDA 11.0, cuDNN 8.0" &&
	stdout_has "    cuda 11.2.2 (installed) has libcudart.so.11.0: $c112/" || exit 1

# ---- CUPTI: privileges, and TensorFlow's profiler -----------------------
expect_code 0 cuenv explain "$cupti_priv" &&
	stdout_has "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: CUPTI was loaded" &&
	stdout_has "NVreg_RestrictProfilingToAdminUsers=0" &&
	stdout_lacks "fix:" || exit 1

# ---- a whole log on standard input, bare names ------------------------
printf '%s\n%s\n%s\n' "$tf_cupti" "$cupti_load" "$tf_cudnn" >"$HOME/log" &&
	expect_code 0 sh -c 'cuenv explain - <"$1"' sh "$HOME/log" &&
	stdout_has "libcupti.so.11.2: libcupti of CUDA 11.2" &&
	stdout_has "CUPTI could not be used" &&
	stdout_has "tensorflow was built with cuDNN 8.1.0" &&
	expect_code 0 cuenv explain libcudnn.so.8 &&
	stdout_has "libcudnn.so.8: libcudnn of cuDNN 8.x" &&
	stdout_has "    tensorflow 2.12.0, 2.13.0: CUDA 11.8, cuDNN 8.6" &&
	expect_code 0 cuenv explain "ImportError: libcublasLt.so.11: cannot open shared object file: No such file or directory" &&
	stdout_has "libcublasLt.so.11: libcublasLt of CUDA 11.x" &&
	stdout_has "  the program could not load it" || exit 1

# ---- --json --------------------------------------------------------------
need python3
expect_code 0 cuenv explain --json "$tf_cupti" &&
	cp "$E2E_OUT" "$HOME/j" &&
	check "json: the finding" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"][0]
assert f["kind"] == "library" and f["soname"] == "libcupti.so.11.2", f
assert f["releases"] == "CUDA 11.2" and f["missing"] is True, f
rows = [(r["framework"], r["versions"], r["cuda"], r["cudnn"]) for r in f["asked_by"]]
assert ("tensorflow", "2.5.0 to 2.11.0", "11.2", "8.1") in rows, rows
assert j["fix"] == [], j["fix"]
assert "cuenv exec -- PROGRAM" in j["note"], j["note"]
' "$HOME/j" || exit 1

# ---- JAX's check of a toolkit library (jax_plugins/cuda/__init__.py,
# _make_msg's block): cuBLAS older than asked, never read as cuDNN; the
# fix is the oldest release shipping one new enough (the fixture's 12.4.0
# ships libcublas 12.4.5.8), run as printed.
jax_cublas="RuntimeError: Unable to use CUDA because of the following issues with CUDA components:
Outdated cuBLAS installation found.
Version JAX was built against: 120304
Minimum supported: 120100
Installed version: 120002
The local installation version must be no lower than 120100."
printf '%s\n' "$jax_cublas" >"$HOME/jax.log" &&
	mkdir -p "$HOME/jaxp" && cd "$HOME/jaxp" &&
	expect_code 0 cuenv explain - <"$HOME/jax.log" &&
	stdout_has "JAX loaded cuBLAS 12.0.2, older than the 12.1.0 it asks for" &&
	stdout_lacks "cuDNN 12" &&
	stdout_has "  fix: cuenv install 12.4" &&
	run_fixes "jax cublas" &&
	expect_code 0 cuenv explain - <"$HOME/jax.log" &&
	stdout_has "the selection in force here, gives it" &&
	cd "$HOME/p" || exit 1

# ---- names no release gives, text that names nothing ---------------------
expect_code 1 cuenv explain "libcudart.so.99: cannot open shared object file: No such file or directory" &&
	stdout_has "libcudart.so.99: libcudart by its name, but no CUDA release ships it under that name" &&
	stderr_has "cuenv: error: no release ships libcudart.so.99 under that name" &&
	expect_code 1 cuenv explain "Segmentation fault (core dumped)" &&
	stderr_has "cuenv: error: nothing in the text names a CUDA library" &&
	expect_code 2 cuenv explain &&
	expect_code 0 cuenv help explain &&
	stdout_has "usage: cuenv explain [--json] [--no-import] TEXT..."
