# lib-doctor.sh: sourced by the `cuenv doctor` tests, after lib.sh.
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib-doctor.sh"
#
# Makes doctor's inputs that come from the machine hermetic, so that a test
# sees only what it builds:
#   CUENV_DRIVER_VERSION  999.99 (a driver new enough for anything; the
#                         driver test sets its own)
#   CUENV_LD_SO_CACHE     a file that does not exist (the loader-cache test
#                         unsets it to read the machine's /etc/ld.so.cache)
#   CUENV_MANIFESTS       the repository's catalogue (for the driver table)
#   PATH                  $HOME/bin first, where a python3 that knows of no
#                         site-packages stands in for the machine's
# and sets REPO to the repository's root.

REPO=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
CUENV_DRIVER_VERSION=999.99
CUENV_LD_SO_CACHE=$E2E_SANDBOX/no-ld.so.cache
CUENV_MANIFESTS=$REPO/manifests
export CUENV_DRIVER_VERSION CUENV_LD_SO_CACHE CUENV_MANIFESTS

mkdir -p "$HOME/bin" || exit 1
printf '#!/bin/sh\nexit 0\n' >"$HOME/bin/python3" &&
	chmod 755 "$HOME/bin/python3" || exit 1
PATH=$HOME/bin:$PATH
export PATH

# doctor_cuda DIR VERSION: a toolkit as make_fake_cuda makes it, plus what
# a real one gives frameworks: libcudart.so.11.0 for 11.x, and cuBLAS,
# cuBLASLt, cuFFT, cuRAND, cuSOLVER and cuSPARSE (ELF files with their
# sonames).
doctor_cuda() {
	make_fake_cuda "$1" "$2" || return 1
	_vparts "$2"
	if [ "$_maj" -eq 11 ]; then
		ln -sf "libcudart.so.$2" "$1/lib64/libcudart.so.11.0" || return 1
	fi
	for _l in "libcublas.so.$_maj" "libcublasLt.so.$_maj" libcufft.so.11 \
		libcurand.so.10 libcusolver.so.11 libcusparse.so.12; do
		fake_elf "$_l" "$1/lib64/$_l" || return 1
	done
}

# no_cupti DIR: take CUPTI out of a toolkit doctor_cuda made.
no_cupti() {
	rm -f "$1"/lib64/libcupti.so*
}

# real_python: put the machine's python3 back first on PATH (skip when
# there is none).
real_python() {
	rm -f "$HOME/bin/python3"
	command -v python3 >/dev/null 2>&1 ||
		skip "python3 is not installed (not on /usr/bin:/bin)"
}

# real_venv: a venv of the machine's python3 in $HOME/venv, without pip
# (skip when there is none or it cannot make one): v its folder, s its
# site-packages.
real_venv() {
	real_python
	v=$HOME/venv
	python3 -m venv --without-pip "$v" >/dev/null 2>&1 || skip "python3 has no venv module"
	s=$(echo "$v"/lib/python3*/site-packages)
}

# fix_of ID: the fix of the last command's (doctor --json) finding ID.
fix_of() {
	/usr/bin/python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"] == sys.argv[1]:
        print(f["fix"])
        break' "$1" <"$E2E_OUT"
}

# said TEXT: the last command's stdout says TEXT, its lines joined (doctor
# wraps its prose at 79 columns, so a phrase may span lines).
said() {
	tr '\n' ' ' <"$E2E_OUT" | tr -s ' ' | grep -qF -e "$1" && return 0
	_show "(last command)"
	fail "stdout does not say '$1'"
}

# so DIR/NAME SONAME SRC [cc args]: a shared library built from SRC.
so() {
	_o=$1 _n=$2 _src=$3
	shift 3
	printf '%s\n' "$_src" >"$_o.c" &&
		cc -fPIC -shared -Wl,-soname,"$_n" -Wl,--no-as-needed -o "$_o" "$_o.c" "$@" &&
		rm -f "$_o.c"
}

# jit FILE MINOR: a libnvJitLink.so.12 whose version node has the symbols
# jit_12_0 up to jit_12_MINOR (0 or 1).
jit() {
	if [ "$2" -ge 1 ]; then
		echo 'libnvJitLink.so.12 { global: jit_12_0; jit_12_1; local: *; };' >"$HOME/jit.map"
		so "$1" libnvJitLink.so.12 'int jit_12_0(void){return 0;} int jit_12_1(void){return 0;}' \
			-Wl,--version-script="$HOME/jit.map"
	else
		echo 'libnvJitLink.so.12 { global: jit_12_0; local: *; };' >"$HOME/jit.map"
		so "$1" libnvJitLink.so.12 'int jit_12_0(void){return 0;}' \
			-Wl,--version-script="$HOME/jit.map"
	fi
}

# record DIST FILE: site-packages $s holds DIST's dist-info, its RECORD
# naming FILE.
record() {
	mkdir -p "$s/$1.dist-info" && printf '%s,sha256=x,1\n' "$2" >"$s/$1.dist-info/RECORD"
}
