#!/bin/sh
# ONLINE: NVIDIA's real CUDA 11.8 runtime (nvidia-cuda-runtime-cu11
# 11.8.89 from pypi.org, through the real catalogue), then `cuenv check`.
# CUDA 11's libcudart asks the driver for its own version: on a machine
# without a driver cudaRuntimeGetVersion answers cudaErrorInsufficientDriver
# (35). check must fail the driver layer and skip the runtime, naming
# why ("skipped: no driver") and still reading its version, 11.8 (the
# wheel's version, from its METADATA: 11.8.89), never telling the user to
# install the toolkit again (issue 10 item 4). The same wheel unpacked as
# pip leaves it (site-packages/nvidia/cuda_runtime/lib/libcudart.so.11.0
# and its dist-info) and registered with `cuenv add` (version 11.8 from
# the dist-info's 11.8.89) gives the same report. On a machine with a driver
# the runtime layer gets that far on its own, and the test says so.
# Downloads are kept in $CUENV_CI_CACHE/cuenv-test (lib.sh's E2E_CI_CACHE)
# when it is set, else in the run's cache (cuenv's own cache, checked by
# sha256 each time).
# Skipped when https://pypi.org/simple/ does not answer within 5 s.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need jq
if command -v curl >/dev/null 2>&1; then
	curl -sSf --max-time 5 -o /dev/null https://pypi.org/simple/ 2>/dev/null
else
	need python3
	python3 -c 'import urllib.request
urllib.request.urlopen("https://pypi.org/simple/", timeout=5).read(1)' 2>/dev/null
fi || skip "https://pypi.org/simple/ is not reachable within 5 s (offline)"

unset CUENV_MANIFESTS CUENV_MIRROR CUENV_PYPI_INDEX
cache=${E2E_CI_CACHE:-$E2E_CACHE}/cuenv-test/cuenv-cache
mkdir -p "$CUENV_ROOT" &&
	if mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; then
		ln -s "$cache" "$CUENV_ROOT/cache"
	fi
if ! cuenv list-remote cuda 11.8 >/dev/null 2>"$HOME/catalogue.err"; then
	if grep -q "no catalogue found" "$HOME/catalogue.err"; then
		ln -s "$(cd "$e2e/../../manifests" && pwd)" "$CUENV_ROOT/manifests"
	fi
fi
driver=
if dlload libcuda.so.1 >/dev/null 2>&1; then
	driver=1
fi
c118=$CUENV_ROOT/versions/cuda/11.8.0
expect_code 0 cuenv install 11.8 --source pypi --components cuda_cudart &&
	stdout_has "installed cuda 11.8.0 in $c118 (" &&
	check "the wheel is nvidia-cuda-runtime-cu11 11.8.89" \
		[ -d "$c118/dist-info/nvidia_cuda_runtime_cu11-11.8.89.dist-info" ] &&
	mkdir p && printf 'cuda = 11.8\n' >p/.cuenv && cd p &&
	if [ -n "$driver" ]; then
		echo "note: this machine has a driver: the runtime answers itself"
		expect_code 0 cuenv check --json ||
			last_rc_is 10 || last_rc_is 8
		[ "$(jq -r '.layers[] | select(.name == "runtime") | .version' "$E2E_OUT")" = 11.8 ] ||
			fail "runtime version is not 11.8"
	else
		expect_code 10 cuenv check &&
			stdout_has "driver" &&
			stdout_lacks "install the toolkit again" &&
			stdout_lacks "gave no version" &&
			stdout_has "skipped: no driver" &&
			expect_code 10 cuenv check --json &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .status' "$E2E_OUT")" skip "runtime status" &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .version' "$E2E_OUT")" 11.8 "runtime version" &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .fix // "none"' "$E2E_OUT")" none "runtime fix" &&
			assert_eq "$(jq -r '.layers[] | select(.name == "driver") | .status' "$E2E_OUT")" fail "driver status"
	fi &&
	# the wheel as pip unpacks it, registered with add, in another store
	need python3 &&
	whl= && for f in "$CUENV_ROOT"/cache/*; do
		if python3 -m zipfile -l "$f" 2>/dev/null |
			grep -q 'nvidia/cuda_runtime/lib/libcudart.so.11.0'; then
			whl=$f
		fi
	done &&
	check "the cu11 runtime wheel is in the download cache" [ -n "$whl" ] &&
	python3 -m zipfile -e "$whl" "$HOME/site" &&
	CUENV_ROOT=$HOME/root2 && export CUENV_ROOT &&
	expect_stdout "registered cuda 11.8 from $HOME/site/nvidia (no CUPTI)" cuenv add cuda "$HOME/site/nvidia" &&
	if [ -z "$driver" ]; then
		expect_code 10 cuenv check --json &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .status' "$E2E_OUT")" skip "registered wheel: runtime status" &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .version' "$E2E_OUT")" 11.8 "registered wheel: runtime version" &&
			assert_eq "$(jq -r '.layers[] | select(.name == "runtime") | .file' "$E2E_OUT")" "$HOME/site/nvidia/cuda_runtime/lib/libcudart.so.11.0" "registered wheel: runtime file"
	fi
