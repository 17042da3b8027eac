#!/bin/sh
# `cuenv check` on Windows: cuenv.exe runs cuenv-probe.exe in the activated
# environment, and the probe loads nvcuda.dll, the selection's
# cudart64_110.dll, cudnn64_8.dll and CUPTI's cupti64_2020.3.1.dll through
# LoadLibrary as TensorFlow does. The DLLs are the Linux tests' fake CUDA
# libraries (tests/unit/fakes/cuda/lib*.c, run on the CPU) built by mingw
# (dlopen over LoadLibrary: tests/windows/fakes/dlfcn.h); the fake driver
# goes where NVIDIA's display driver puts nvcuda.dll, System32.
#
#   no nvcuda.dll           driver layer fails: error 126, and the fix
#   a driver for CUDA 10.2  too old for CUDA 11.2, with Windows' minimum
#   a driver new enough     every layer passes, each naming the file the
#                           loader picked (the selection's)
#   cudart64_110.dll gone   runtime layer fails: error 126 for it
#   a cudart64_110.dll of CUDA 10.2, or of 12.4: named, runtime fails
#   a copy in System32 or beside cuenv.exe: named as shadowing the
#                           selection's, with the fix
cd "$(dirname "$0")/../.." || exit 2
. tests/windows/lib-e2e.sh

machine
sys32=$C/windows/system32
rm -f "$sys32/nvcuda.dll"
trap 'rm -f "$sys32/nvcuda.dll"; rm -rf "$out"' EXIT

# fake NAME.dll SOURCE [FLAGS...]: tests/unit/fakes/cuda/SOURCE.c as a DLL.
fake() {
	o=$1
	src=$2
	shift 2
	$HOST-gcc -std=c11 -D_GNU_SOURCE -O1 -shared -Wno-attributes \
		-I tests/windows/fakes -include dlfcn.h "$@" -o "$o" \
		"tests/unit/fakes/cuda/$src.c" -static-libgcc \
		-Wl,-Bstatic -lpthread || die "cannot build $o"
}
fake "$out/nvcuda.dll" libcuda
fake "$C/$tk/bin/cudart64_110.dll" libcudart -DFAKE_DEFAULT_VERSION=11020
cp "$C/$tk/bin/cudart64_110.dll" "$out/cudart64_110.dll"
fake "$out/cudart-10.2.dll" libcudart -DFAKE_DEFAULT_VERSION=10020
fake "$C/$dn/bin/cudnn64_8.dll" libcudnn -DFAKE_DEFAULT_VERSION=8101 \
	-DFAKE_DEFAULT_CUDART=11020
fake "$C/$tk/extras/CUPTI/lib64/cupti64_2020.3.1.dll" libcupti \
	-DFAKE_DEFAULT_VERSION=14
registered

# 1. No NVIDIA driver: nvcuda.dll nowhere.
run "$proj" "$cuenv" check
expect "no nvcuda.dll: the driver layer fails (exit 10)" 10
has "the driver layer names nvcuda.dll and error 126" o \
	"nvcuda.dll: the specified module could not be found (error 126)"
has "no NVIDIA driver, said so" o "no NVIDIA driver"
has "the fix: a driver of at least Windows' minimum for CUDA 11.2" o \
	"fix: install an NVIDIA driver >= 461.33 (the minimum for CUDA 11.2)"
has "the error line names the driver layer" e "driver:"
has "the runtime was still loaded from the selection" o \
	"$WTK\\bin\\cudart64_110.dll"

# 2. A driver for CUDA 10.2 in System32.
cp "$out/nvcuda.dll" "$sys32/nvcuda.dll"
export FAKE_CUDA_DRIVER_VERSION=10020
run "$proj" "$cuenv" check
unset FAKE_CUDA_DRIVER_VERSION
expect "a driver for CUDA 10.2: the driver layer fails (exit 10)" 10
has "the driver is named too old, with the minimum" o \
	"is too old for CUDA 11.2: it needs 461.33 or newer"
has "what the driver supports" o "this one supports CUDA 10.2"
has "nvcuda.dll is the one in System32" o "C:\\windows\\system32\\nvcuda.dll"
has "the fix: that driver" o "fix: install an NVIDIA driver >= 461.33"
lacks "no Linux-only advice on Windows" o "LD_LIBRARY_PATH"

# 3. A driver new enough: every layer, each from the selection's files.
run "$proj" "$cuenv" check
expect "a driver for CUDA 12.4: check passes (exit 0)" 0
has "every layer passed" o "ok: 5 of 5 layers passed"
has "runtime: the selection's cudart64_110.dll" o \
	"$WTK\\bin\\cudart64_110.dll"
has "cudnn: the selection's cudnn64_8.dll" o "$WDN\\bin\\cudnn64_8.dll"
has "cupti: the toolkit's CUPTI" o \
	"$WTK\\extras\\CUPTI\\lib64\\cupti64_2020.3.1.dll"
lacks "nothing shadows the selection" o "not the selection's"
run "$proj" "$cuenv" check --json
expect "check --json" 0
has "the JSON names cudart64_110.dll as asked of the loader" o \
	'"soname":"cudart64_110.dll"'
has "and nvcuda.dll" o '"soname":"nvcuda.dll"'

# 4. The selection's cudart64_110.dll gone from the toolkit's bin.
rm "$C/$tk/bin/cudart64_110.dll"
run "$proj" "$cuenv" check
expect "cudart64_110.dll missing: the runtime layer fails (exit 11)" 11
has "error 126 named for cudart64_110.dll" o \
	"cudart64_110.dll: the specified module could not be found (error 126)"
has "TensorFlow's words" o "could not load dynamic library 'cudart64_110.dll'"
has "a fix" o "fix: "
has "the error line names the runtime layer" e "runtime:"

# 5. A cudart64_110.dll of another release.
cp "$out/cudart-10.2.dll" "$C/$tk/bin/cudart64_110.dll"
run "$proj" "$cuenv" check
expect "a cudart64_110.dll of CUDA 10.2: the runtime layer fails (exit 11)" 11
has "named: CUDA 10.2, not the selected 11.2" o \
	"cudart64_110.dll is CUDA 10.2, not the selected CUDA 11.2"
cp "$out/cudart64_110.dll" "$C/$tk/bin/cudart64_110.dll"
export FAKE_CUDART_VERSION=12040
run "$proj" "$cuenv" check
unset FAKE_CUDART_VERSION
expect "a cudart64_110.dll that says CUDA 12.4 (exit 11)" 11
has "named: CUDA 12.4, not the selected 11.2" o \
	"cudart64_110.dll is CUDA 12.4, not the selected CUDA 11.2"

# 6. A stray copy found before the selection's: in System32 (another
# program's installer put it there), then beside cuenv's programs.
cp "$out/cudart64_110.dll" "$sys32/cudart64_110.dll"
run "$proj" "$cuenv" check
rm -f "$sys32/cudart64_110.dll"
expect "a cudart64_110.dll in System32: the runtime layer fails (exit 11)" 11
has "the System32 copy is named as shadowing the selection's" o \
	"cudart64_110.dll was loaded from C:\\windows\\system32\\cudart64_110.dll, not from the selection's $WTK\\bin\\cudart64_110.dll"
has "the fix removes it" o "fix: remove or rename C:\\windows\\system32\\cudart64_110.dll"
has "marked as not the selection's" o "(not the selection's)"
cp "$out/cudart64_110.dll" "$C/cuenv-e2e/app/cudart64_110.dll"
run "$proj" "$cuenv" check
rm -f "$C/cuenv-e2e/app/cudart64_110.dll"
expect "a cudart64_110.dll in the application's folder (exit 11)" 11
has "the application folder's copy is named" o \
	"loaded from C:\\cuenv-e2e\\app\\cudart64_110.dll"
lacks "no Linux advice for it" o "LD_PRELOAD"

finish
