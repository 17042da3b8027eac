# Helpers for the tests of activation inside a Python environment that
# carries NVIDIA's wheels (issue 21): a real venv (python3 -m venv) with
# real wheels from the package index, and an older CUDA 12 whose
# libnvJitLink.so.12 lacks the symbol versions the wheels' cuSPARSE asks.
#
# ONLINE the first time: the wheels (nvidia-cuda-runtime-cu12 12.1.105,
# nvidia-nvjitlink-cu12 12.9.86, nvidia-cusparse-cu12 12.1.0.106; 236 MB,
# pinned by sha256) are downloaded into
# ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/venv-wheels (outside the clone)
# and installed from there afterwards without the network; a test skips
# when they are not cached and https://pypi.org/simple/ does not answer.

VENV_WHEELS="nvidia-cuda-runtime-cu12==12.1.105 --hash=sha256:6e258468ddf5796e25f1dc591a31029fa317d97a0a94ed93468fc86301d61e40
nvidia-nvjitlink-cu12==12.9.86 --hash=sha256:e3f1171dbdc83c5932a45f0f4c99180a70de9bd2718c1ab77d14104f6d7147f9
nvidia-cusparse-cu12==12.1.0.106 --hash=sha256:f3b50f42cf363f86ab21f720998517a659a48131e8d538dc02f8768237bd884c"

# make_wheel_venv DIR: a venv at DIR with the three wheels above; sets
# NV to its site-packages/nvidia. Skips when they cannot be had.
make_wheel_venv() {
	need python3
	_vcache=${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/venv-wheels
	if ! mkdir -p "$_vcache" 2>/dev/null || [ ! -w "$_vcache" ]; then
		_vcache=$E2E_CACHE/venv-wheels
		mkdir -p "$_vcache" || return 1
	fi
	printf '%s\n' "$VENV_WHEELS" >"$E2E_SANDBOX/tmp/wheels.txt" &&
		python3 -m venv "$1" >/dev/null 2>&1 ||
		skip "python3 cannot make a venv (python3-venv missing)"
	if ! "$1/bin/pip" install -q --no-index --no-deps --require-hashes \
		--find-links "$_vcache" -r "$E2E_SANDBOX/tmp/wheels.txt" \
		>/dev/null 2>&1; then
		python3 -c 'import urllib.request
urllib.request.urlopen("https://pypi.org/simple/", timeout=5).read(1)' \
			2>/dev/null ||
			skip "the wheels are not in $_vcache and https://pypi.org/simple/ is not reachable within 5 s (offline)"
		"$1/bin/pip" download -q --no-deps --require-hashes \
			--index-url https://pypi.org/simple/ -d "$_vcache" \
			-r "$E2E_SANDBOX/tmp/wheels.txt" >&2 &&
			"$1/bin/pip" install -q --no-index --no-deps \
				--require-hashes --find-links "$_vcache" \
				-r "$E2E_SANDBOX/tmp/wheels.txt" >&2 || {
			fail "cannot install the wheels from $_vcache"
			return 1
		}
	fi
	NV=$(echo "$1"/lib/python3.*/site-packages/nvidia)
	[ -e "$NV/cusparse/lib/libcusparse.so.12" ] ||
		fail "no libcusparse.so.12 in $NV"
}

# make_old_cuda12 DIR: a CUDA 12.0.1 toolkit (make_fake_cuda) whose
# lib64 also holds a libnvJitLink.so.12 with its version node but none of
# 12.1's symbols: loaded under the wheels' cuSPARSE, it fails as a real
# 12.0 does ("undefined symbol: __nvJitLinkAddData_12_1, version
# libnvJitLink.so.12").
make_old_cuda12() {
	make_fake_cuda "$1" 12.0.1 &&
		printf 'int nvJitLinkVersion(void) { return 0; }\n' \
			>"$E2E_SANDBOX/tmp/jit.c" &&
		printf 'libnvJitLink.so.12 { global: nvJitLinkVersion; local: *; };\n' \
			>"$E2E_SANDBOX/tmp/jit.map" &&
		cc -shared -fPIC -o "$1/lib64/libnvJitLink.so.12.0.140" \
			"$E2E_SANDBOX/tmp/jit.c" -Wl,-soname,libnvJitLink.so.12 \
			-Wl,--version-script,"$E2E_SANDBOX/tmp/jit.map" &&
		ln -s libnvJitLink.so.12.0.140 "$1/lib64/libnvJitLink.so.12"
}

# loads LIB: run by a Python, load LIB with ctypes (RTLD_NOW, as an
# extension module is) and print the nvJitLink and cuSPARSE files the
# loader really mapped (/proc/self/maps), or "FAIL <why>".
LOADS_PY='import ctypes, sys
try:
    ctypes.CDLL(sys.argv[1])
except OSError as e:
    print("FAIL", e)
    sys.exit(1)
seen = []
for line in open("/proc/self/maps"):
    p = line.split()[-1]
    if ("libnvJitLink" in p or "libcusparse" in p) and p not in seen:
        seen.append(p)
print("\n".join(sorted(seen)))'
