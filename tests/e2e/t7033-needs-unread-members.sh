#!/bin/sh
# cuenv needs fails closed on what it cannot read: a wheel of two
# libraries that need CUDA 12 and, one of them, cuDNN 8 is not satisfied
# by the installed CUDA 12.4 (exit 1: it lacks libcudnn.so.8). With that
# member's bytes corrupted (its deflate stream, or, stored, its bytes
# past the ELF header, which only the CRC-32 catches), what it asks for
# is not known: the member is a warning naming it, the report stands on
# the rest ("provides what the files read need"), and needs exits 7 with
# an error naming it; --json says satisfied false and lists it as
# unread. In a folder, a FIFO named like a library is the same (never
# waited on); one named like nothing needs reads is passed over. Old
# cuenv answered "provides everything", exit 0, and took a wrong CRC for
# good bytes.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

need python3
need mkfifo
b=$HOME/build
w=$HOME/gpu-1.0-py3-none-any.whl
bad=$HOME/bad/gpu-1.0-py3-none-any.whl
crc=$HOME/crc/gpu-1.0-py3-none-any.whl
stubs &&
	mkso "$b/libgood.so" libgood.so 'int good(void) { return 0; }' libcudart.so.12 &&
	mkso "$b/libbad.so" libbad.so 'int bad(void) { return 0; }' libcudart.so.12 libcudnn.so.8 &&
	make_installed_cuda 12.4.1 &&
	mkdir -p "$HOME/bad" "$HOME/crc" &&
	python3 - "$b" "$w" "$bad" "$crc" <<'EOF_PY' &&
import sys, zipfile
b, good, bad, crc = sys.argv[1:]
def wheel(path, how):
    with zipfile.ZipFile(path, "w") as z:
        z.write(b + "/libgood.so", "gpu/libgood.so", zipfile.ZIP_DEFLATED)
        z.write(b + "/libbad.so", "gpu/libbad.so", how)
        z.writestr("gpu-1.0.dist-info/METADATA", "Name: gpu\nVersion: 1.0\n")
def corrupt(src, dst, at, n):
    data = bytearray(open(src, "rb").read())
    i = zipfile.ZipFile(src).getinfo("gpu/libbad.so")
    off = i.header_offset + 30 + len(i.filename) + len(i.extra)
    assert at + n < i.compress_size
    for k in range(at, at + n):
        data[off + k] ^= 0x5A
    open(dst, "wb").write(data)
wheel(good, zipfile.ZIP_DEFLATED)
corrupt(good, bad, 40, 160)
wheel(crc, zipfile.ZIP_STORED)
corrupt(crc, crc, 4096, 64)
EOF_PY
	expect_code 1 cuenv needs "$w" &&
	stdout_has "  cuda 12.4.1: lacks libcudnn.so.8" &&
	# deflate stream corrupted
	expect_code 7 cuenv needs "$bad" &&
	stdout_has "    needed by   $bad/gpu/libgood.so" &&
	stdout_lacks "libcudnn.so.8" &&
	stdout_has "installed: cuda 12.4.1 provides what the files read need; not known for the 1 that could not be read" &&
	stderr_has "cuenv: warning: skipped: cannot read zip member 'gpu/libbad.so'" &&
	stderr_has "cuenv: error: could not read '$bad/gpu/libbad.so': the answer leaves it out" &&
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines" &&
	expect_code 7 cuenv needs --json "$bad" &&
	check "--json says satisfied" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is False, d
assert d["unread"] == [sys.argv[2]], d
' "$E2E_OUT" "$bad/gpu/libbad.so" &&
	# a stored member whose bytes only its CRC-32 says are wrong
	expect_code 7 cuenv needs "$crc" &&
	stderr_has "cuenv: warning: skipped: cannot read zip member 'gpu/libbad.so': ZIP bad CRC" &&
	stderr_has "cuenv: error: could not read '$crc/gpu/libbad.so': the answer leaves it out" &&
	# a folder: a FIFO named like a library, and one named like nothing
	mkdir -p "$HOME/pkg/gpu" &&
	cp "$b/libgood.so" "$HOME/pkg/gpu/" &&
	mkfifo "$HOME/pkg/gpu/libbad.so" "$HOME/pkg/gpu/notes.txt" &&
	expect_code 7 timeout "$(load_bound 10)" cuenv needs "$HOME/pkg" &&
	stdout_has "installed: cuda 12.4.1 provides what the files read need" &&
	stderr_has "cuenv: warning: skipped '$HOME/pkg/gpu/libbad.so': a FIFO, device or socket, not a file" &&
	stderr_has "cuenv: error: could not read '$HOME/pkg/gpu/libbad.so': the answer leaves it out" &&
	stderr_lacks "notes.txt" &&
	rm "$HOME/pkg/gpu/libbad.so" &&
	expect_code 0 timeout "$(load_bound 10)" cuenv needs "$HOME/pkg" &&
	stdout_has "installed: cuda 12.4.1 provides everything"
