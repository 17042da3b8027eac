# Helpers for the tests of activation inside a Python environment that
# carries NVIDIA's wheels (issue 21): a real venv (python3 -m venv) with
# real wheels from the package index, and an older CUDA 12 whose
# libnvJitLink.so.12 lacks the symbol versions the wheels' cuSPARSE asks.
#
# ONLINE the first time: the wheels of venv-wheels.txt
# (nvidia-cuda-runtime-cu12 12.1.105,
# nvidia-nvjitlink-cu12 12.9.86, nvidia-cusparse-cu12 12.1.0.106; 236 MB,
# pinned by sha256) are downloaded into $CUENV_CI_CACHE/venv-wheels and
# installed into a template once per run, before the tests start
# (prepare-venv.sh, called by run.sh); a test skips when they could not
# be had (offline, nothing cached).

# make_wheel_venv DIR: a venv at DIR (python3 -m venv, without pip) with
# the three wheels, copied from the template run.sh installed once
# (prepare-venv.sh); sets NV to its site-packages/nvidia. Skips when they
# could not be had.
make_wheel_venv() {
	need python3
	_tpl=$E2E_CACHE/venv-template
	[ -d "$_tpl/nvidia" ] ||
		skip "the venv tests' wheels were not prepared (run.sh's prepare-venv.sh: offline, with nothing cached)"
	python3 -m venv --without-pip "$1" >/dev/null 2>&1 ||
		skip "python3 cannot make a venv (python3-venv missing)"
	_sp=$(echo "$1"/lib/python3.*/site-packages)
	cp -R "$_tpl"/. "$_sp"/ || {
		fail "cannot copy the wheels into $_sp"
		return 1
	}
	NV=$_sp/nvidia
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
