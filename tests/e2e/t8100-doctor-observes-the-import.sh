#!/bin/sh
# doctor imports the framework in a child and believes what it maps
# (issue 31 items 1, 2, 3, 8), with the machine's real python3 and
# frameworks built with cc that no table names:
#  - "pre" loads its wheel's nvJitLink by full path from Python before
#    its extension (torch >= 2.6 does this in torch/__init__.py): an
#    older nvJitLink on LD_LIBRARY_PATH then changes nothing. The import
#    says so (exit 0); the model alone (--no-import) cannot know it;
#  - "plain" has no preload: the older copy breaks its import for real
#    ("undefined symbol"), a problem whose printed fix, run as printed,
#    makes the import work;
#  - "prov" imports fine, but its provider library (dlopened when it
#    computes, onnxruntime's shape) needs a cuBLASLt the environment
#    lacks: a predicted problem, whose fix is the exact pip pin of its
#    metadata;
#  - "drv" raises at import when the driver's libcuda.so.1 is absent:
#    no driver is information (exit 0); with a driver it is a problem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

need cc
real_venv
py=$v/bin/python

mkdir -p "$s/nvidia/nvjitlink/lib" "$s/nvidia/cusparse/lib" "$s/pre" "$s/plain" \
	"$s/prov/capi" "$s/drv" "$HOME/old" &&
	jit "$s/nvidia/nvjitlink/lib/libnvJitLink.so.12" 1 &&
	record nvidia_nvjitlink_cu12-12.9.86 nvidia/nvjitlink/lib/libnvJitLink.so.12 &&
	record nvidia_cusparse_cu12-12.5.4.2 nvidia/cusparse/lib/libcusparse.so.12 &&
	so "$s/nvidia/cusparse/lib/libcusparse.so.12" libcusparse.so.12 \
		'int jit_12_1(void); int sp(void){return jit_12_1();}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN:$ORIGIN/../../nvjitlink/lib' \
		-L"$s/nvidia/nvjitlink/lib" -l:libnvJitLink.so.12 &&
	for p in pre plain; do
		so "$s/$p/libfw.so" libfw.so 'int sp(void); int fw(void){return sp();}' \
			-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/../nvidia/cusparse/lib' \
			-L"$s/nvidia/cusparse/lib" -l:libcusparse.so.12 \
			-Wl,-rpath-link,"$s/nvidia/nvjitlink/lib" || exit 1
	done &&
	cat >"$s/pre/__init__.py" <<'PY' &&
import ctypes, os
_here = os.path.dirname(__file__)
ctypes.CDLL(os.path.join(_here, "..", "nvidia", "nvjitlink", "lib", "libnvJitLink.so.12"))
ctypes.CDLL(os.path.join(_here, "libfw.so"))
PY
	cat >"$s/plain/__init__.py" <<'PY' &&
import ctypes, os
ctypes.CDLL(os.path.join(os.path.dirname(__file__), "libfw.so"))
PY
	jit "$HOME/old/libnvJitLink.so.12" 0 || exit 1

# the whole environment: observed, nothing wrong
expect_code 0 cuenv doctor --python "$py" &&
	said "[python-loads] pre in $s ($py) mapped 2 CUDA libraries at import, 2 of them from that environment" &&
	said "observed: \`import pre\` run by $py" &&
	said "[python-loads] plain in $s" || exit 1

# item 1: the preload by path makes the older copy harmless, for real
expect_code 15 env LD_LIBRARY_PATH="$HOME/old" cuenv doctor --python "$py" &&
	stdout_lacks "breaks pre" &&
	said "LD_LIBRARY_PATH breaks plain in $s" &&
	said "\`import plain\` fails: OSError:" &&
	said "undefined symbol: jit_12_1, version libnvJitLink.so.12" &&
	said "fix: unset LD_LIBRARY_PATH" &&
	LD_LIBRARY_PATH="$HOME/old" "$py" -c 'import pre' &&
	! LD_LIBRARY_PATH="$HOME/old" "$py" -c 'import plain' 2>/dev/null &&
	expect_code 0 sh -c "LD_LIBRARY_PATH='$HOME/old'; export LD_LIBRARY_PATH; unset LD_LIBRARY_PATH; exec '$py' -c 'import plain'" &&
	# the model alone does not know the preload: it says pre breaks too
	expect_code 15 env LD_LIBRARY_PATH="$HOME/old" cuenv doctor --no-import --python "$py" &&
	said "LD_LIBRARY_PATH breaks pre in $s" &&
	said "predicted, nothing imported (--no-import)" || exit 1
rm -rf "$s/pre" "$s/plain"

# item 2: a package no table knows, its provider needing what is not here
so "$s/prov/capi/libprov_cuda.so" libprov_cuda.so 'int p(void){return 0;}' \
	-L"$HOME/old" -Wl,--allow-shlib-undefined &&
	printf 'int lt(void){return 0;}\n' >"$HOME/lt.c" &&
	cc -fPIC -shared -Wl,-soname,libcublasLt.so.12 -o "$HOME/old/libcublasLt.so.12" "$HOME/lt.c" &&
	so "$s/prov/capi/libprov_cuda.so" libprov_cuda.so 'int p(void){return 0;}' \
		-L"$HOME/old" -l:libcublasLt.so.12 &&
	rm "$HOME/old/libcublasLt.so.12" &&
	: >"$s/prov/__init__.py" &&
	mkdir -p "$s/prov-1.20.0.dist-info" &&
	printf 'Name: prov\nRequires-Dist: nvidia-cublas-cu12==12.6.4.1; platform_system == "Linux"\n' \
		>"$s/prov-1.20.0.dist-info/METADATA" &&
	expect_code 15 cuenv doctor --python "$py" &&
	said "[python-foreign] the loader's search breaks prov in $s" &&
	said "libcublasLt.so.12: cannot open shared object file" &&
	said "fix: '$py' -m pip install 'nvidia-cublas-cu12==12.6.4.1'" &&
	said "prov in $s ($py) mapped 0 CUDA libraries at import" || exit 1
rm -rf "$s/prov" "$s/prov-1.20.0.dist-info"

# item 3: the driver's library, absent: no driver is no problem
so "$s/drv/libdrv.so" libdrv.so 'int d(void){return 0;}' \
	-Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/../nvidia/nvjitlink/lib' \
	-L"$s/nvidia/nvjitlink/lib" -l:libnvJitLink.so.12 &&
	cat >"$s/drv/__init__.py" <<'PY' &&
import ctypes
ctypes.CDLL("libcuda.so.1")
PY
	if "$py" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
		skip "this machine has a libcuda.so.1"
	fi
	expect_code 0 env CUENV_DRIVER_VERSION= cuenv doctor --python "$py" &&
	said "[python-no-driver] the GPU path of drv in $s cannot be checked here: no driver" &&
	expect_code 15 env CUENV_DRIVER_VERSION=999.99 cuenv doctor --python "$py" &&
	said "drv in $s cannot load the driver 999.99's libcuda.so.1"
