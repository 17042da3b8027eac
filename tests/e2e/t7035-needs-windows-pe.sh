#!/bin/sh
# cuenv needs on a Windows DLL built here byte by byte from the PE
# specification (no toolchain): its import table names cudart64_110.dll
# (the CUDA 11.x runtime, libcudart.so.11.0 on Linux) and KERNEL32.dll,
# and its data names cudnn64_8.dll as LoadLibrary would get it. The
# imported DLL is required, the named one only "may load"; KERNEL32 is
# not CUDA's. A truncated copy is a corrupt PE file (3); a text file is
# neither ELF nor PE (2). A win_amd64 wheel holding the DLL is read in
# place, its .dll member like an ELF one.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

dll=$HOME/win/app.dll

# le VALUE WIDTH: VALUE as WIDTH little-endian bytes, in printf's octal
le() {
	_v=$1 _n=$2 _s=
	while [ "$_n" -gt 0 ]; do
		_s="$_s\\$(printf '%03o' $((_v & 255)))"
		_v=$((_v >> 8)) _n=$((_n - 1))
	done
	printf '%s' "$_s"
}
# put OFFSET FORMAT: write printf FORMAT's bytes at OFFSET of $dll
put() {
	# shellcheck disable=SC2059
	printf "$2" | dd of="$dll" bs=1 seek=$(($1)) conv=notrunc 2>/dev/null
}
# at RVA: the file offset of RVA in the one section (RVA 0x1000 at 0x200)
at() {
	echo $((0x200 + $1 - 0x1000))
}

# DOS header, "PE\0\0", COFF header (x86-64, 1 section, 240-byte
# optional header), PE32+ optional header (SizeOfHeaders 0x200, 16 data
# directories at 0x58 + 112), section .rdata: RVA 0x1000, 0x200 bytes at
# file offset 0x200. Import descriptors at RVA 0x1000 (Name at +12):
# cudart64_110.dll, KERNEL32.dll, then a zero one.
mkdir -p "$HOME/win" &&
	head -c 1024 /dev/zero >"$dll" &&
	put 0 'MZ' && put 0x3c "$(le 0x40 4)" && put 0x40 'PE' &&
	put 0x44 "$(le 0x8664 2)$(le 1 2)" && put 0x54 "$(le 240 2)$(le 0x2022 2)" &&
	put 0x58 "$(le 0x20b 2)" && put $((0x58 + 24)) "$(le 0x40000000 8)" &&
	put $((0x58 + 60)) "$(le 0x200 4)" && put $((0x58 + 108)) "$(le 16 4)" &&
	put $((0x58 + 112 + 8)) "$(le 0x1000 4)$(le 60 4)" &&
	put $((0x58 + 240)) '.rdata' &&
	put $((0x58 + 240 + 8)) "$(le 0x200 4)$(le 0x1000 4)$(le 0x200 4)$(le 0x200 4)" &&
	put $(($(at 0x1000) + 12)) "$(le 0x1100 4)" &&
	put $(($(at 0x1014) + 12)) "$(le 0x1120 4)" &&
	put "$(at 0x1100)" 'cudart64_110.dll' &&
	put "$(at 0x1120)" 'KERNEL32.dll' &&
	put "$(at 0x1180)" 'LoadLibraryA("cudnn64_8.dll")' &&
	expect_code 1 cuenv needs "$dll" &&
	expect_output 1 "cudart64_110.dll       CUDA 11.x
    needed by   $dll
cudnn64_8.dll          cuDNN 8.x (may load: named, not linked)
    named by    $dll

installed: nothing provides everything
  nothing is installed
$(sed -n 's/^catalogue: /catalogue: /p' "$E2E_OUT")
install them with:
$(sed -n '/^install them with:/{n;p;}' "$E2E_OUT")" cuenv needs "$dll" &&
	stdout_has "  cuenv install 11." &&
	stdout_lacks "KERNEL32" &&
	stderr_empty &&
	expect_code 1 cuenv needs --json "$dll" &&
	check "--json does not say it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = dict((x["dll"], x) for x in d["sonames"])
assert sorted(s) == ["cudart64_110.dll", "cudnn64_8.dll"], s
assert s["cudart64_110.dll"]["soname"] == "libcudart.so.11.0", s
assert s["cudart64_110.dll"]["releases"] == "CUDA 11.x", s
assert s["cudart64_110.dll"]["required"] is True, s
assert s["cudart64_110.dll"]["needed_by"] == [sys.argv[2]], s
assert s["cudnn64_8.dll"]["required"] is False, s
assert s["cudnn64_8.dll"]["named_by"] == [sys.argv[2]], s
assert d["files_read"] == 1, d
' "$E2E_OUT" "$dll" &&
	# In a win_amd64 wheel, read in place: the same, from the member.
	whl=$HOME/app-1.0-cp311-cp311-win_amd64.whl &&
	python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], "app/app.dll")
    z.writestr("app-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: app\nVersion: 1.0\n")
' "$whl" "$dll" &&
	expect_code 1 cuenv needs "$whl" &&
	stdout_has "cudart64_110.dll       CUDA 11.x" &&
	stdout_has "    needed by   $whl/app/app.dll" &&
	# In a folder, beside an ELF library, the same.
	mkso "$HOME/win/libx.so" libx.so 'int x(void) { return 0; }' &&
	expect_code 1 cuenv needs "$HOME/win" &&
	stdout_has "cudart64_110.dll       CUDA 11.x" &&
	# Broken and foreign files.
	head -c 400 "$dll" >"$HOME/broken.dll" &&
	expect_code 3 cuenv needs "$HOME/broken.dll" &&
	stderr_has "cuenv: error: corrupt PE file '$HOME/broken.dll': " &&
	echo 'cudart64_110.dll in text' >"$HOME/notes.txt" &&
	expect_code 2 cuenv needs "$HOME/notes.txt" &&
	stderr_has "cuenv: error: '$HOME/notes.txt' is not an ELF file, nor a Windows PE file"
