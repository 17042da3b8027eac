#!/bin/sh
# cuenv needs on this machine's real CUDA libraries (the toolkit found as
# need_real_cuda says; skipped where there is none): cuBLAS needs cuBLASLt
# of its own major, cuDNN's engines dlopen cuBLASLt and NVRTC by name, and
# with nothing installed the real catalogue's install line for that major
# is printed (exit 1); the whole library folder names nothing it does not
# provide itself (exit 0); once the toolkit is registered, it is found to
# provide everything.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

CUENV_MANIFESTS=$(cd "$e2e/../../manifests" && pwd) || exit 1
export CUENV_MANIFESTS

need_real_cuda
r=$REAL_CUDA
lib=
for d in "$r/lib64" "$r/lib" "$r"/targets/*/lib; do
	if [ -z "$lib" ] && ls "$d"/libcudart.so.[0-9]* >/dev/null 2>&1; then
		lib=$(realdir "$d")
	fi
done
[ -n "$lib" ] || skip "no libcudart.so.N under $r"
major=$(ls "$lib"/libcudart.so.[0-9]* | sed -n 's|.*/libcudart\.so\.\([0-9]*\).*|\1|p' | head -n 1)
echo "toolkit $r, libraries in $lib, CUDA $major"
[ -e "$lib/libcublas.so.$major" ] || skip "no libcublas.so.$major in $lib"
# a cuDNN library that names cuBLASLt in its bytes (cuDNN 9's engines do)
dnn_file=
for f in "$lib"/libcudnn*.so.[0-9]*; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	if grep -q "libcublasLt\.so\.$major" "$f"; then
		dnn_file=$f
		break
	fi
done

expect_code 1 cuenv needs "$lib/libcublas.so.$major" &&
	cat "$E2E_OUT" &&
	stdout_has "libcublasLt.so.$major" &&
	stdout_has "    needed by   $lib/libcublas.so.$major" &&
	stdout_has "installed: nothing provides everything" &&
	stdout_has "  nothing is installed" &&
	check "no install line for CUDA $major: $(cat "$E2E_OUT")" \
		grep -q "^  cuenv install $major\(\.[0-9.]*\)\?$" "$E2E_OUT" &&
	if [ -n "$dnn_file" ]; then
		dnn=${dnn_file##*.so.} &&
			dnn=${dnn%%.*} &&
			echo "cuDNN $dnn: $dnn_file" &&
			expect_code 1 cuenv needs "$dnn_file" &&
			cat "$E2E_OUT" &&
			stdout_has "libcublasLt.so.$major" &&
			stdout_has "    named by    $dnn_file" &&
			check "no install line for CUDA $major + cuDNN $dnn" \
				grep -q "^  cuenv install $major[0-9.]* --cudnn $dnn\(\.[0-9.]*\)\?$" "$E2E_OUT"
	fi &&
	# The folder provides every CUDA library its files name.
	expect_code 0 cuenv needs "$lib" &&
	stdout_has "provided by $lib/libcublasLt.so.$major (under PATH)" &&
	stdout_has "nothing here is asked of cuenv" &&
	expect_code 0 cuenv add cuda "$r" &&
	expect_code 0 cuenv needs "$lib/libcublas.so.$major" ${dnn_file:+"$dnn_file"} &&
	cat "$E2E_OUT" &&
	stdout_has "provides everything" &&
	stdout_has "    found in    $r/" &&
	stdout_has "select it with:" &&
	expect_code 0 cuenv needs --json "$lib/libcublas.so.$major" &&
	check "--json is not JSON with satisfied true" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is True, d
assert d["installed"]["cuda"], d
assert any(s["soname"] == "libcublasLt.so." + sys.argv[2] for s in d["sonames"]), d
' "$E2E_OUT" "$major"
