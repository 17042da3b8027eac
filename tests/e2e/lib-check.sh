# lib-check.sh: sourced by the `cuenv check` tests (t6xxx), after lib.sh:
#
#   e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
#   . "$e2e/lib.sh"
#   . "$e2e/lib-check.sh"
#
# A fake GPU world made of the fake CUDA libraries in tests/unit/fakes/cuda
# (their environment variables are listed in fake.h), each built with the
# soname a test needs and kept in $E2E_CACHE between tests:
#
#   fake_cuda_lib KIND SONAME DEST [DEFAULT]
#                     build KIND (libcuda, libcudart, libcudnn, libcupti)
#                     with -Wl,-soname,SONAME into the file DEST;
#                     DEFAULT is its version when the FAKE_* variable is
#                     not set (for libcudnn "VERSION CUDART")
#   check_driver DRIVER CUDA
#                     a fake libcuda.so.1 in $HOME/driver, on
#                     LD_LIBRARY_PATH (as a distribution installs it
#                     outside the selection); the kernel module's version
#                     is DRIVER (CUENV_DRIVER_VERSION) and libcuda
#                     supports CUDA (FAKE_CUDA_DRIVER_VERSION, e.g. 12040)
#   check_cuda VERSION [nocupti]
#                     an installed toolkit of fakes: lib64/libcudart and
#                     lib64/libcupti with the release's sonames (11.x:
#                     libcudart.so.11.0, libcupti.so.11.MINOR), a fake
#                     bin/nvcc for --compile, and the receipt; nocupti
#                     leaves libcupti out (the receipt still lists lib64)
#   check_cudnn VERSION CUDA_MAJOR [CUDART]
#                     an installed cuDNN of fakes for CUDA_MAJOR, whose
#                     cudnnGetCudartVersion says CUDART (default
#                     CUDA_MAJOR * 1000 + 20)
#   cuda_num VERSION  "12.4.1" -> 12040
#   cupti_api VERSION the CUPTI API version of a CUDA release (12.4 -> 22)
#
# CUENV_MANIFESTS points at the source tree's catalogue, for the driver
# table. The tests use CUDA 11 and 12 sonames: a machine's loader cache
# may hold a real CUDA 13, which must not stand in for a missing fake.

CHECK_FAKES=${e2e:?set e2e to the tests/e2e folder before sourcing}/../unit/fakes/cuda
CUENV_MANIFESTS=$(cd "$e2e/../../manifests" && pwd) || exit 1
export CUENV_MANIFESTS

need cc

cuda_num() {
	_vparts "$1"
	echo $((_maj * 1000 + _min * 10))
}

cupti_api() {
	_vparts "$1"
	case $_maj.$_min in
	10.*) echo 12 ;;
	11.0) echo 13 ;;
	11.1) echo 14 ;;
	11.2 | 11.3 | 11.4) echo 15 ;;
	11.5) echo 16 ;;
	11.6 | 11.7) echo 17 ;;
	11.8) echo 18 ;;
	12.0 | 12.1) echo 19 ;;
	12.2) echo 20 ;;
	12.3) echo 21 ;;
	12.4) echo 22 ;;
	12.5) echo 23 ;;
	12.6) echo 24 ;;
	12.8) echo 26 ;;
	12.9) echo 27 ;;
	13.0) echo 130001 ;;
	*) echo 22 ;;
	esac
}

fake_cuda_lib() {
	_kind=$1
	_soname=$2
	_dest=$3
	_def=${4-}
	_defs=
	if [ -n "$_def" ]; then
		_defs="-DFAKE_DEFAULT_VERSION=${_def%% *}"
		case $_def in
		*" "*) _defs="$_defs -DFAKE_DEFAULT_CUDART=${_def#* }" ;;
		esac
	fi
	_key=$(printf 'cuda_%s_%s_%s' "$_kind" "$_soname" "$_def" |
		tr -c 'A-Za-z0-9._\n-' _)
	_lib=$E2E_CACHE/$_key.so
	if [ ! -f "$_lib" ] || [ "$CHECK_FAKES/$_kind.c" -nt "$_lib" ] ||
		[ "$CHECK_FAKES/fake.h" -nt "$_lib" ]; then
		# shellcheck disable=SC2086 # _defs is a list of words
		cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -fPIC \
			-shared $_defs -Wl,-soname,"$_soname" \
			-o "$_lib.tmp.$$" "$CHECK_FAKES/$_kind.c" -ldl &&
			mv -f "$_lib.tmp.$$" "$_lib" || {
			fail "cannot build a fake $_kind ($_soname) with cc"
			return 1
		}
	fi
	mkdir -p "$(dirname "$_dest")" && cp "$_lib" "$_dest"
}

check_driver() {
	fake_cuda_lib libcuda libcuda.so.1 "$HOME/driver/libcuda.so.1" || return 1
	CUENV_DRIVER_VERSION=$1
	FAKE_CUDA_DRIVER_VERSION=$2
	LD_LIBRARY_PATH=$HOME/driver
	export CUENV_DRIVER_VERSION FAKE_CUDA_DRIVER_VERSION LD_LIBRARY_PATH
}

check_cuda() {
	_cv=$1
	_vdir=$CUENV_ROOT/versions/cuda/$_cv
	_vparts "$_cv"
	if [ "$_maj" -ge 12 ]; then
		_rt=libcudart.so.$_maj
		_pti=libcupti.so.$_maj
	else
		_rt=libcudart.so.11.0
		[ "$_maj" -lt 11 ] && _rt=libcudart.so.$_maj.$_min
		_pti=libcupti.so.$_maj.$_min
	fi
	mkdir -p "$_vdir/bin" "$_vdir/lib64" "$_vdir/include" &&
		fake_cuda_lib libcudart "$_rt" "$_vdir/lib64/libcudart.so.$_cv" \
			"$(cuda_num "$_cv")" &&
		ln -sf "libcudart.so.$_cv" "$_vdir/lib64/$_rt" || return 1
	if [ "${2-}" != nocupti ]; then
		fake_cuda_lib libcupti "$_pti" "$_vdir/lib64/$_pti.fake" \
			"$(cupti_api "$_cv")" &&
			ln -sf "$_pti.fake" "$_vdir/lib64/$_pti" || return 1
	fi
	cat >"$_vdir/bin/nvcc" <<EOF || return 1
#!/bin/sh
# a fake nvcc: builds the one program cuenv check --compile asks for
case \${1-} in
--version)
	echo "Cuda compilation tools, release $_maj.$_min, V$_cv"
	exit 0
	;;
esac
out= src=
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) out=\$2; shift 2 ;;
	*.cu) src=\$1; shift ;;
	*) shift ;;
	esac
done
[ -n "\$out" ] && [ -f "\$src" ] || { echo "nvcc: no input" >&2; exit 2; }
if [ -n "\${FAKE_NVCC_ERROR-}" ]; then
	echo "\$src(4): error: \$FAKE_NVCC_ERROR" >&2
	exit 1
fi
grep -q '__global__ void cuenv_scale' "\$src" || { echo "\$src: not CUDA" >&2; exit 1; }
grep -q '#include <cuda_runtime.h>' "\$src" || exit 1
printf '#!/bin/sh\necho "%s: 1000 elements, runtime $(cuda_num "$_cv")"\n' \
	"\${FAKE_NVCC_PRINTS:-cuenv-check-compiled}" >"\$out" && chmod 755 "\$out"
EOF
	chmod 755 "$_vdir/bin/nvcc" &&
		cat >"$_vdir/.cuenv-receipt" <<EOF
{
  "schema": 1,
  "kind": "cuda",
  "version": "$_cv",
  "cuda_major": $_maj,
  "registered": false,
  "cupti_version": "$_cv",
  "bin": ["bin"],
  "lib": ["lib64"],
  "include": ["include"],
  "cupti": ["lib64"]
}
EOF
}

check_cudnn() {
	_dv=$1
	_for=$2
	_cudart=${3:-$((_for * 1000 + 20))}
	_vparts "$_dv"
	if [ "$_maj" -ge 9 ]; then
		_num=$((_maj * 10000 + _min * 100 + _pat))
	else
		_num=$((_maj * 1000 + _min * 100 + _pat))
	fi
	_ddir=$CUENV_ROOT/versions/cudnn/$_dv-cuda$_for
	mkdir -p "$_ddir/lib" "$_ddir/include" &&
		fake_cuda_lib libcudnn "libcudnn.so.$_maj" \
			"$_ddir/lib/libcudnn.so.$_dv" "$_num $_cudart" &&
		ln -sf "libcudnn.so.$_dv" "$_ddir/lib/libcudnn.so.$_maj" &&
		cat >"$_ddir/.cuenv-receipt" <<EOF
{
  "schema": 1,
  "kind": "cudnn",
  "version": "$_dv",
  "cuda_major": $_for,
  "registered": false,
  "bin": [],
  "lib": ["lib"],
  "include": ["include"],
  "cupti": []
}
EOF
}
