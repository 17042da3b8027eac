# lib-needs.sh: sourced by the `cuenv needs` tests (t70xx), after lib.sh.
#
#   e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
#   . "$e2e/lib.sh"
#   . "$e2e/lib-needs.sh"
#
# Points cuenv at the repository's real catalogue (CUENV_MANIFESTS), so
# that install lines are those a user would see, and builds ELF files with
# cc that ask for CUDA libraries the way frameworks do:
#
#   stubs                 $HOME/stubs/lib{cudart.so.11.0,cudart.so.12,
#                         cudnn.so.8,cupti.so.11.2}: empty libraries with
#                         those sonames, to link against
#   mkso OUT SONAME SRC [LIB...]
#                         build OUT from the C source SRC with soname
#                         SONAME, linked against the stubs LIB... (their
#                         DT_NEEDED entries); dlopen names go in SRC as
#                         strings
#   fake_tensorflow DIR   DIR/libtensorflow_framework.so.2 (needs
#                         libcudart.so.11.0; names libcupti.so.11.2 and
#                         libcudnn.so.8, as TensorFlow 2.5-2.11 dlopen them)
#                         and DIR/python/_pywrap_tensorflow_internal.so
#                         (needs it and libcudnn.so.8), plus a .py file

CUENV_MANIFESTS=$(cd "${e2e:?set e2e first}/../../manifests" && pwd) || exit 1
export CUENV_MANIFESTS

mkso() {
	_out=$1
	_soname=$2
	_src=$3
	shift 3
	_libs=
	for _l in "$@"; do
		_libs="$_libs -l:$_l"
	done
	mkdir -p "$(dirname "$_out")" &&
		printf '%s\n' "$_src" >"$E2E_SANDBOX/tmp/mkso.c" &&
		# shellcheck disable=SC2086 # one word per library
		cc -shared -fPIC -o "$_out" "$E2E_SANDBOX/tmp/mkso.c" \
			-Wl,-soname,"$_soname" -Wl,--no-as-needed \
			-L"$HOME/stubs" $_libs || {
		fail "cc could not build $_out"
		return 1
	}
}

stubs() {
	need cc
	for _s in libcudart.so.11.0 libcudart.so.12 libcudnn.so.8 \
		libcupti.so.11.2; do
		[ -f "$HOME/stubs/$_s" ] && continue
		mkso "$HOME/stubs/$_s" "$_s" "int stub_$(echo "$_s" | tr -c 'a-z0-9\n' _)(void) { return 0; }" ||
			return 1
	done
}

fake_tensorflow() {
	stubs &&
		mkso "$1/libtensorflow_framework.so.2" libtensorflow_framework.so.2 '
const char *dso(int i)
{
	static const char *const names[] = { "libcupti.so.11.2", "libcudnn.so.8" };
	return names[i];
}' libcudart.so.11.0 &&
		cp "$1/libtensorflow_framework.so.2" "$HOME/stubs/" &&
		mkso "$1/python/_pywrap_tensorflow_internal.so" \
			_pywrap_tensorflow_internal.so 'int pywrap(void) { return 0; }' \
			libtensorflow_framework.so.2 libcudnn.so.8 &&
		echo 'from .python import *' >"$1/__init__.py"
}
