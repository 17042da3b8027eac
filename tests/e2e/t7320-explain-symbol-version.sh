#!/bin/sh
# cuenv explain on "undefined symbol: S, version libnvJitLink.so.12"
# (issue 21 item 6), in real shells: a venv-like tree built with cc (the
# wheels' libcusparse.so.12 with DT_RUNPATH $ORIGIN/../../nvjitlink/lib
# and a versioned need of __nvJitLinkAddData_12_1, the wheel's nvJitLink
# that defines it), an older nvJitLink (12.0.140, without it) first on
# LD_LIBRARY_PATH: the error is the one Python's ctypes really raises.
# explain says which copy the loader picks here and from where, that the
# copy beside cuSPARSE defines it, names no framework rows, and prints a
# fix the model checked; run as printed, the load works. The same under
# a selection whose toolkit holds the older copy, in a hooked bash: the
# fix turns the selection off. A log from another machine (its path not
# here) is read from the text only, with no fix.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-venv.sh"

s=$HOME/venv/lib/python3.11/site-packages
sp=$s/nvidia/cusparse/lib/libcusparse.so.12
c=$HOME/toolkits/cuda-12.0
LOAD='import ctypes, sys
ctypes.CDLL(sys.argv[1])
print("loaded")'

# so DIR/NAME SONAME SRC [cc args]
so() {
	_o=$1 _n=$2 _src=$3
	shift 3
	printf '%s\n' "$_src" >"$_o.c" &&
		cc -fPIC -shared -Wl,-soname,"$_n" -Wl,--no-as-needed -o "$_o" "$_o.c" "$@" &&
		rm -f "$_o.c"
}
# jit FILE MINOR: nvJitLink with __nvJitLinkAddData_12_0 .. 12_MINOR
jit() {
	_syms='__nvJitLinkAddData_12_0;' _src='int __nvJitLinkAddData_12_0(void){return 0;}'
	if [ "$2" -ge 1 ]; then
		_syms="$_syms __nvJitLinkAddData_12_1;"
		_src="$_src int __nvJitLinkAddData_12_1(void){return 0;}"
	fi
	echo "libnvJitLink.so.12 { global: $_syms local: *; };" >"$HOME/jit.map" &&
		so "$1" libnvJitLink.so.12 "$_src" -Wl,--version-script="$HOME/jit.map"
}
# ok: nothing failed so far; fixes FILE: the "fix:" lines of the report
# in FILE
ok() {
	[ ! -e "$E2E_SANDBOX/.failed" ]
}
fixes() {
	sed -n 's/^  fix: //p' "$1"
}

need cc && need python3 && need bash &&
	mkdir -p "$s/nvidia/nvjitlink/lib" "$s/nvidia/cusparse/lib" "$HOME/old" proj &&
	touch "$HOME/venv/pyvenv.cfg" &&
	printf '%s\n' "$LOAD" >"$HOME/load.py" &&
	jit "$s/nvidia/nvjitlink/lib/libnvJitLink.so.12" 1 &&
	mkdir -p "$s/nvidia_nvjitlink_cu12-12.9.86.dist-info" &&
	echo 'nvidia/nvjitlink/lib/libnvJitLink.so.12,sha256=x,1' \
		>"$s/nvidia_nvjitlink_cu12-12.9.86.dist-info/RECORD" &&
	so "$sp" libcusparse.so.12 \
		'int __nvJitLinkAddData_12_1(void); int sp(void){return __nvJitLinkAddData_12_1();}' \
		-Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN:$ORIGIN/../../nvjitlink/lib' \
		-L"$s/nvidia/nvjitlink/lib" -l:libnvJitLink.so.12 &&
	jit "$HOME/old/libnvJitLink.so.12.0.140" 0 &&
	ln -s libnvJitLink.so.12.0.140 "$HOME/old/libnvJitLink.so.12" &&
	# the venv alone loads
	expect_stdout "loaded" python3 "$HOME/load.py" "$sp" &&
	# a foreign older copy on LD_LIBRARY_PATH: the real error
	expect_code 1 env LD_LIBRARY_PATH="$HOME/old" python3 "$HOME/load.py" "$sp" &&
	grep -F "undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12" \
		"$E2E_ERR" >"$HOME/err1" ||
	fail "python's error is not the symbol version's"

ok && {
	expect_code 0 env LD_LIBRARY_PATH="$HOME/old" cuenv explain - <"$HOME/err1" &&
		cp "$E2E_OUT" "$HOME/explain1" &&
		stdout_has "undefined symbol __nvJitLinkAddData_12_1, version libnvJitLink.so.12, asked for by $sp" &&
		stdout_has "loads $HOME/old/libnvJitLink.so.12 (LD_LIBRARY_PATH, 12.0.140), which does not define __nvJitLinkAddData_12_1@libnvJitLink.so.12" &&
		stdout_has "(the environment's wheel, on the asking library's RUNPATH, 12.9.86)" &&
		stdout_has "its folder $HOME/old (not cuenv's) shadows the copy the environment ships with an older one (12.0.140 is older than 12.9.86)" &&
		stdout_has "  fix: unset LD_LIBRARY_PATH" &&
		stdout_lacks "asked for by (the frameworks table)" &&
		stdout_lacks "cuenv install" &&
		# each fix run as printed, in the shell that had the error
		expect_stdout "loaded" sh -c "LD_LIBRARY_PATH='$HOME/old'; export LD_LIBRARY_PATH
$(fixes "$HOME/explain1")
exec python3 '$HOME/load.py' '$sp'"
}

# --json: the same reading, the fix as an argument vector
ok && {
	expect_code 0 env LD_LIBRARY_PATH="$HOME/old:/usr/lib" cuenv explain --json - <"$HOME/err1" &&
		stdout_has '"kind": "symbol-version"' &&
		stdout_has '"from": "LD_LIBRARY_PATH"' &&
		stdout_has '"export",' &&
		stdout_has '"LD_LIBRARY_PATH=/usr/lib"'
}

# a selection whose toolkit holds the older copy, in a hooked bash
ok && {
	make_old_cuda12 "$c" &&
		cuenv add cuda "$c" >/dev/null &&
		printf 'cuda = 12.0\n' >proj/.cuenv &&
		expect_stdout "-- in the project
loaded" hook_session bash <<EOF_SESSION
eval "\$(cuenv init bash)"
cd proj
python3 $HOME/load.py $sp 2>$HOME/err2.txt
cuenv explain - <$HOME/err2.txt >$HOME/explain2
sed -n 's/^  fix: //p' $HOME/explain2 >$HOME/fix2.sh
. $HOME/fix2.sh >/dev/null
echo "-- in the project"
python3 $HOME/load.py $sp
EOF_SESSION
}
ok && {
	grep -q "undefined symbol: __nvJitLinkAddData_12_1" "$HOME/err2.txt" ||
		fail "the selection's older copy did not break the load: $(cat "$HOME/err2.txt")"
	cp "$HOME/explain2" "$E2E_OUT" &&
		stdout_has "loads $c/lib64/libnvJitLink.so.12 (LD_LIBRARY_PATH, 12.0.140)" &&
		stdout_has "its folder $c/lib64 (the cuenv selection's) shadows" &&
		expect_stdout "cuenv local system" fixes "$HOME/explain2"
}

# a log from elsewhere: its path is not here
ok && {
	expect_code 0 cuenv explain "ImportError: /gone/venv/lib/python3.10/site-packages/nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12" &&
		stdout_has "on this machine: /gone/venv/lib/python3.10/site-packages/nvidia/cusparse/lib/libcusparse.so.12 is not on this machine (a log from elsewhere?): read from the text only" &&
		stdout_has "(the symbol is 12.1's, so 12.1 or newer)" &&
		stdout_lacks "fix:" &&
		stdout_lacks "asked for by (the frameworks table)"
}
