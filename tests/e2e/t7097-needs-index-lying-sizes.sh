#!/bin/sh
# cuenv reads a wheel's metadata within the metadata limit, whatever the
# zip claims. A hostile index lists a 3 GiB torch wheel (a sparse file)
# whose central directory gives its METADATA a 1 GiB compressed size:
# `update --frameworks` refuses the member before fetching it (exit 6,
# naming it); `needs torch==2.1.2` streams it and stops where its local
# header, whose sizes are not the directory's, ends: a corrupt member,
# exit 7 naming it (fail closed); its tail, and one 64 KiB window (under 256 KiB fetched,
# asked for by bounded range requests, whatever the server could send). A
# 2 MB wheel on disk whose METADATA inflates to 512 MiB (a zip bomb):
# needs stops at 4 MiB with a warning naming it, the rest of the wheel
# still read (issue 22), and exits 7 naming it: unread metadata may pin
# anything, so the answer is no "satisfied". Each run stays under 128 MiB of memory; old cuenv
# fetched the claimed gigabyte into memory, and inflated the bomb whole
# (its local limit was the 1 GiB of a library).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
whl=torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl
meta=torch-2.1.2.dist-info/METADATA
# small: the peak resident memory in $HOME/rss is under 128 MiB
small() {
	_kb=$(cat "$HOME/rss") &&
		check "$1 took ${_kb} KiB of memory" [ "$_kb" -lt 131072 ]
}
mkdir -p "$idx/simple/torch" "$idx/packages" &&
	python3 - "$idx" "$whl" "$meta" <<'EOF_PY' &&
import hashlib, json, os, struct, sys, zipfile, zlib
idx, whl, meta = sys.argv[1:4]
size = 3 << 30
data = b"Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\n"
name = meta.encode()
crc = zlib.crc32(data)
local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 0, 0, 0, crc,
                    len(data), len(data), len(name), 0) + name + data
# the directory's entry: deflated, 1 GiB compressed, 100 bytes inflated
cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 8, 0, 0, crc,
                 1 << 30, 100, len(name), 0, 0, 0, 0, 0, 0) + name
cd_at = size - len(cd) - 22
end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), cd_at, 0)
with open(os.path.join(idx, "packages", whl), "wb") as f:
    f.write(local)
    f.seek(cd_at)
    f.write(cd + end)
assert os.path.getsize(os.path.join(idx, "packages", whl)) == size
json.dump({"meta": {"api-version": "1.1"}, "name": "torch", "files": [
    {"filename": whl, "url": "../../packages/" + whl,
     "hashes": {"sha256": "0" * 64}, "size": size}]},
    open(os.path.join(idx, "simple", "torch", "index.json"), "w"))
# a wheel on disk: METADATA inflates to 512 MiB
with zipfile.ZipFile(os.path.join(idx, "bomb-1.0-py3-none-any.whl"), "w",
                     zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    with z.open("bomb-1.0.dist-info/METADATA", "w") as m:
        chunk = b"\0" * (1 << 20)
        for i in range(512):
            m.write(chunk)
EOF_PY
	serve_start "$idx" PYPI &&
	expect_code 7 peak_rss "$HOME/rss" cuenv needs --json --index "$PYPI_URL/simple" torch==2.1.2 &&
	stderr_has "its local header's CRC or sizes are not its directory's" &&
	small "needs torch==2.1.2" &&
	check "needs fetched the claimed gigabyte" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["fetched"][0]
assert f["bytes_fetched"] < 256 << 10, f
' "$E2E_OUT" &&
	expect_code 6 peak_rss "$HOME/rss" cuenv update --frameworks --index "$PYPI_URL/simple" &&
	stderr_has "cuenv: error: zip member '$meta' " &&
	small "update --frameworks" &&
	check "a table was written" [ ! -e "$CUENV_ROOT/manifests/compat/frameworks.tsv" ] &&
	expect_code 7 peak_rss "$HOME/rss" cuenv needs "$idx/bomb-1.0-py3-none-any.whl" &&
	stderr_has "cuenv: warning: skipped '$idx/bomb-1.0-py3-none-any.whl/bomb-1.0.dist-info/METADATA': larger than 4 MiB" &&
	stderr_has "cuenv: error: could not read '$idx/bomb-1.0-py3-none-any.whl/bomb-1.0.dist-info/METADATA': the answer leaves it out" &&
	small "needs bomb.whl"
