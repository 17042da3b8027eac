#!/bin/sh
# add reads CUPTI's version from the authoritative sources, never from a
# year-named file (libcupti.so.2025.3.0, soname .13) (issue 10 item 5).
# Four layouts built from this machine's real CUDA 13 files:
#   wheel    lib/ + the real dist-info folders: nvidia_cuda_cupti-13.0.85
#   runfile  lib64/ with the year-named file + version.json (cuda_cupti)
#   conda    targets/x86_64-linux/{lib,include} linked from lib/ and
#            include/, the real cupti_version.h (CUPTI_API_VERSION 130001)
#   year     only the year-named file and cupti_version.h
# Expected values by hand: 13.0.85 is the dist-info's (and so the
# version.json written here for the same files); CUPTI_API_VERSION 130001
# is "CUDA Toolkit 13.0 Update 1" by cupti_version.h's own table, so 13.0.
# A version.json that disagrees with the header is a warning naming both.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

need_real_cuda
r=$REAL_CUDA
rl=$r/lib
[ -f "$rl/libcupti.so.13" ] || rl=$r/lib64
[ -f "$rl/libcupti.so.13" ] && [ -f "$r/include/cupti_version.h" ] &&
	[ -f "$rl/libcudart.so.13" ] ||
	skip "the toolkit at $r is not CUDA 13 with CUPTI"
grep -q '^#define CUPTI_API_VERSION 130001' "$r/include/cupti_version.h" ||
	skip "this toolkit's CUPTI_API_VERSION is not 130001"
year=libcupti.so.2025.3.0

# base DIR LIB INC: the runtime and its headers
base() {
	mkdir -p "$2" "$3" &&
		ln -s "$rl/libcudart.so.13" "$2/libcudart.so.13" &&
		ln -s libcudart.so.13 "$2/libcudart.so" &&
		cp "$r/include/cuda_runtime_api.h" "$r/include/cuda.h" "$3/"
}
# cupti LIB: the real CUPTI under its year name, soname link beside
cupti() {
	cp "$rl/libcupti.so.13" "$1/$year" &&
		ln -s "$year" "$1/libcupti.so.13" && ln -s libcupti.so.13 "$1/libcupti.so"
}

t=$HOME/layouts
w=$t/wheel rf=$t/runfile co=$t/conda y=$t/year m=$t/mixed
d=$(ls -d "$r"/dist-info/nvidia_cuda_cupti-*.dist-info 2>/dev/null | head -n 1)
[ "${d##*/}" = nvidia_cuda_cupti-13.0.85.dist-info ] ||
	skip "no nvidia_cuda_cupti-13.0.85.dist-info in $r/dist-info"
base "$w" "$w/lib" "$w/include" &&
	ln -s "$rl/libcupti.so.13" "$w/lib/libcupti.so.13" &&
	mkdir -p "$w/dist-info" &&
	cp -R "$d" "$r"/dist-info/nvidia_cuda_runtime-*.dist-info "$w/dist-info/" &&
	base "$rf" "$rf/lib64" "$rf/include" && cupti "$rf/lib64" &&
	printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"},"cuda_cupti":{"name":"CUDA CUPTI","version":"13.0.85"}}\n' >"$rf/version.json" &&
	base "$co" "$co/targets/x86_64-linux/lib" "$co/targets/x86_64-linux/include" &&
	cupti "$co/targets/x86_64-linux/lib" &&
	cp "$r/include/cupti_version.h" "$co/targets/x86_64-linux/include/" &&
	ln -s targets/x86_64-linux/lib "$co/lib" &&
	ln -s targets/x86_64-linux/include "$co/include" &&
	base "$y" "$y/lib" "$y/include" && cupti "$y/lib" &&
	cp "$r/include/cupti_version.h" "$y/include/" &&
	base "$m" "$m/lib64" "$m/include" && cupti "$m/lib64" &&
	cp "$r/include/cupti_version.h" "$m/include/" &&
	printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"},"cuda_cupti":{"name":"CUDA CUPTI","version":"12.4.127"}}\n' >"$m/version.json" || exit 1

expect_code 0 cuenv add cuda "$w" --as 13.0.85 &&
	stdout_has "(CUPTI 13.0.85)" &&
	expect_stdout "registered cuda 13.0.2 from $rf (CUPTI 13.0.85)" cuenv add cuda "$rf" &&
	expect_code 0 cuenv add cuda "$co" --as 13.0.4 &&
	stdout_has "(CUPTI 13.0)" &&
	stderr_lacks "CUPTI in" &&
	expect_code 0 cuenv add cuda "$y" --as 13.0.5 &&
	stdout_has "(CUPTI 13.0)" &&
	stdout_lacks "2025" &&
	expect_code 0 cuenv add cuda "$m" --as 13.0.6 &&
	stdout_has "(CUPTI 12.4.127)" &&
	stderr_has "cuenv: warning: CUPTI in '$m': version.json (cuda_cupti) says 12.4.127, cupti_version.h (CUPTI_API_VERSION) says 13.0; using 12.4.127" &&
	expect_code 0 cuenv versions --json &&
	check "no CUPTI version is a year in versions --json" \
		sh -c "! grep -q 2025 '$E2E_OUT'"
