#!/bin/sh
# Layouts users really have (issue 10 item 6), built from this machine's
# real CUDA 13 files:
#  - Debian/Ubuntu's nvidia-cuda-toolkit: the paths of Debian bookworm's
#    real packages (dpkg -c of nvidia-cuda-toolkit, libcudart11.0,
#    libcupti11.8 11.8.89~11.8.0-5~deb12u1): libraries in
#    /usr/lib/x86_64-linux-gnu (libcudart.so.<full> with the soname link,
#    libcupti.so.<year> with libcupti.so.<soname>), headers in /usr/include,
#    /usr/bin/nvcc a wrapper script exec'ing
#    /usr/lib/nvidia-cuda-toolkit/bin/nvcc, and /usr/lib/cuda a skeleton
#    (empty bin/ and lib64/, include/cuda.h -> ../../../include/cuda.h).
#    Here under $HOME/deb/usr, whose lib/x86_64-linux-gnu the loader
#    searches (CUENV_LD_SO_CONF names it, as /etc/ld.so.conf.d does).
#    `add cuda .../usr/lib/cuda` and `add cuda .../usr` register it (CUDA
#    13.0 by CUDART_VERSION 13000, CUPTI 13.0 by CUPTI_API_VERSION 130001),
#    and activation adds none of /usr/lib/x86_64-linux-gnu, /usr/bin,
#    /usr/include: the loader and the shell find them already.
#  - a conda prefix (conda-meta/) whose lib/ holds libstdc++.so.6 beside
#    CUDA's libraries: activation exposes a folder of links to the CUDA
#    libraries alone, never the prefix's lib/, so libstdc++ is not shadowed.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need_real_cuda
r=$REAL_CUDA
rl=$r/lib
[ -f "$rl/libcudart.so.13" ] || rl=$r/lib64
[ -f "$rl/libcudart.so.13" ] && [ -f "$rl/libcupti.so.13" ] &&
	[ -f "$r/include/cupti_version.h" ] ||
	skip "the toolkit at $r is not CUDA 13 with CUPTI"
stdcxx=
for _f in /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib64/libstdc++.so.6 \
	/usr/lib/aarch64-linux-gnu/libstdc++.so.6; do
	[ -f "$_f" ] && stdcxx=$_f && break
done
[ -n "$stdcxx" ] || skip "no libstdc++.so.6 on this machine to put in a conda prefix"

u=$HOME/deb/usr
m=$u/lib/x86_64-linux-gnu
mkdir -p "$m" "$u/include" "$u/bin" "$u/lib/cuda/bin" "$u/lib/cuda/include" \
	"$u/lib/cuda/lib64" "$u/lib/nvidia-cuda-toolkit/bin" &&
	cp "$rl/libcudart.so.13" "$m/libcudart.so.13.0.96" &&
	ln -s libcudart.so.13.0.96 "$m/libcudart.so.13" &&
	ln -s libcudart.so.13 "$m/libcudart.so" &&
	cp "$rl/libcupti.so.13" "$m/libcupti.so.2025.3.0" &&
	ln -s libcupti.so.2025.3.0 "$m/libcupti.so.13" &&
	cp "$stdcxx" "$m/libstdc++.so.6" &&
	cp "$r/include/cuda_runtime_api.h" "$r/include/cuda.h" \
		"$r/include/cupti_version.h" "$u/include/" &&
	printf '#!/bin/sh\n\nexec /usr/lib/nvidia-cuda-toolkit/bin/nvcc "$@"\n' >"$u/bin/nvcc" &&
	chmod 755 "$u/bin/nvcc" &&
	ln -s ../../../include/cuda.h "$u/lib/cuda/include/cuda.h" &&
	printf '%s\n' "$m" >"$HOME/ld.so.conf" || exit 1
CUENV_LD_SO_CONF=$HOME/ld.so.conf
CUENV_LD_SO_CACHE=$HOME/no-ld.so.cache
export CUENV_LD_SO_CONF CUENV_LD_SO_CACHE

p=$HOME/miniconda3/envs/tf
mkdir -p "$p/conda-meta" "$p/lib" "$p/include" &&
	printf '{"name": "cuda-cudart", "version": "13.0.96"}\n' >"$p/conda-meta/cuda-cudart-13.0.96-0.json" &&
	cp "$rl/libcudart.so.13" "$p/lib/libcudart.so.13.0.96" &&
	ln -s libcudart.so.13.0.96 "$p/lib/libcudart.so.13" &&
	cp "$rl/libcupti.so.13" "$p/lib/libcupti.so.13" &&
	cp "$stdcxx" "$p/lib/libstdc++.so.6" &&
	cp "$r/include/cuda_runtime_api.h" "$r/include/cupti_version.h" "$p/include/" || exit 1

# path_has VAR DIR: the last command's stdout line VAR=... lists DIR
path_lacks() {
	if grep "^$1=" "$E2E_OUT" | tr '=:' '\n\n' | grep -qx "$2"; then
		_show "(last command)"
		fail "$1 holds $2"
		return 1
	fi
}
show='echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; echo "PATH=$PATH"; echo "CPATH=$CPATH"'

expect_stdout "registered cuda 13.0 from $u (CUPTI 13.0)" cuenv add cuda "$u/lib/cuda" &&
	expect_stdout "cuda 13.0 is already registered from $u" cuenv add cuda "$u" &&
	mkdir proj-deb && printf 'cuda = 13.0\n' >proj-deb/.cuenv &&
	(cd proj-deb && expect_code 0 cuenv exec -- sh -c "$show") &&
	path_lacks LD_LIBRARY_PATH "$m" &&
	path_lacks PATH "$u/bin" &&
	path_lacks CPATH "$u/include" &&
	(cd proj-deb && expect_stdout "$m/libcudart.so.13" cuenv which libcudart.so.13) &&
	(cd proj-deb && expect_stdout "$u/bin/nvcc" cuenv which nvcc) &&
	(cd proj-deb && expect_code 0 cuenv env) &&
	stdout_lacks "$m" &&
	expect_code 0 cuenv remove cuda 13.0 &&
	# the conda prefix
	expect_stdout "registered cuda 13.0 from $p (CUPTI 13.0)" cuenv add cuda "$p" &&
	links=$CUENV_ROOT/versions/cuda/13.0/lib &&
	mkdir conda && printf 'cuda = 13.0\n' >conda/.cuenv &&
	(cd conda && expect_code 0 env LD_LIBRARY_PATH=/user/lib cuenv exec -- sh -c "$show") &&
	stdout_has "LD_LIBRARY_PATH=$links:/user/lib" &&
	path_lacks LD_LIBRARY_PATH "$p/lib" &&
	check "the links folder holds no libstdc++" [ ! -e "$links/libstdc++.so.6" ] &&
	check "the links folder exposes libcudart.so.13" [ -e "$links/libcudart.so.13" ] &&
	(cd conda && expect_stdout "$links/libcudart.so.13" cuenv which libcudart.so.13) &&
	_dltool &&
	(cd conda && expect_code 0 cuenv exec -- "$E2E_CACHE/dltool" libcudart.so.13 -load) &&
	expect_code 0 cuenv remove cuda 13.0
