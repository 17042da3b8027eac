# lib-install.sh: sourced by the `cuenv install` tests (t5xxx), after lib.sh:
#
#   e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
#   . "$e2e/lib.sh"
#   . "$e2e/lib-install.sh"
#
# The fake NVIDIA world of tests/fixtures (see its README.md) is built once
# per run into $E2E_CACHE/fixtures ($FX) and served by tests/fixtures/
# server.py from each test; the servers (named SERVER, PYPI or OTHER) stop
# when the test ends.
#
#   FX                the fixtures (FX/fixture.json describes them)
#   fixtures          build them (a no-op when they are up to date)
#   use_mirror [DIR]  fixtures, serve DIR (default $FX/mirror) and point
#                     cuenv at it: CUENV_MANIFESTS, CUENV_MIRROR, and fast
#                     retries (CUENV_FETCH_BACKOFF_MS)
#   fxq EXPR          print a Python expression over the fixture description
#                     `d`, e.g. fxq 'd["cuda"]["12.4.1"]["components"]
#                     ["libcublas"]["path"]'
#   comp REL COMP KEY print KEY (path, url, sha256, size, ...) of component
#                     COMP of CUDA release REL, e.g. comp 12.4.1 libcublas path
#   nothing_half_made KIND VERSION
#                     no versions/KIND/VERSION, and .staging holds nothing
#   staging_empty     .staging holds nothing (or does not exist)
#   nlink FILE        FILE's hard link count
#   hostile CASE ERROR
#                     install the release of bad/CASE (its cuda_cudart is a
#                     hostile archive): refused (exit 6) with ERROR (which
#                     names the entry) on stderr, nothing installed, pooled
#                     or cached from it, and nothing written outside (the
#                     /tmp targets the fixtures aim at are as they were)
#   dlver LIB SYMBOL  dlopen LIB and print "RC VALUE" from SYMBOL(int *)
#   dlid LIB          dlopen LIB and print its cuenvFixtureId()
#   dlload LIB        dlopen LIB (a soname is looked up as ld.so does)

FX_SRC=${e2e:?set e2e to the tests/e2e folder before sourcing}/../fixtures
FX=$E2E_CACHE/fixtures
CUENV_FIXTURES=$FX_SRC
export CUENV_FIXTURES
. "$FX_SRC/serve.sh"

# Every server this test started stops with it (serve_stop waits for it).
_inst_cleanup() {
	serve_stop OTHER
	serve_stop PYPI
	serve_stop SERVER
}
trap _inst_cleanup EXIT

fixtures() {
	need python3
	if ! python3 "$FX_SRC/mkrelease.py" "$FX" --quiet \
		>"$E2E_SANDBOX/.mkrelease" 2>&1; then
		cat "$E2E_SANDBOX/.mkrelease" >&2
		fail "tests/fixtures/mkrelease.py could not build $FX"
		return 1
	fi
}

use_mirror() {
	fixtures &&
		serve_start "${1:-$FX/mirror}" || {
		fail "cannot serve ${1:-$FX/mirror}"
		return 1
	}
	CUENV_MANIFESTS=$FX/manifests
	CUENV_MIRROR=$SERVER_URL
	CUENV_FETCH_BACKOFF_MS=10
	export CUENV_MANIFESTS CUENV_MIRROR CUENV_FETCH_BACKOFF_MS
}

fxq() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$FX/fixture.json" "$1"
}

comp() {
	fxq "d['cuda']['$1']['components']['$2']['$3']"
}

staging_empty() {
	_left=$(ls -A "$CUENV_ROOT/.staging" 2>/dev/null)
	[ -z "$_left" ] && return 0
	fail ".staging is not empty: $_left"
}

nothing_half_made() {
	if [ -e "$CUENV_ROOT/versions/$1/$2" ]; then
		fail "versions/$1/$2 exists after a failed install:" \
			"$(ls -A "$CUENV_ROOT/versions/$1/$2")"
		return 1
	fi
	staging_empty
}

nlink() {
	stat -c %h "$1"
}

# A tiny loader: dlopen a library the way an application would.
_dltool() {
	_dl=$E2E_CACHE/dltool
	[ -x "$_dl" ] && return 0
	cat >"$E2E_SANDBOX/tmp/dltool.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* dltool LIB SYMBOL: print "RC VALUE" from int SYMBOL(int *);
 * dltool LIB -id: print the string from const char *cuenvFixtureId(void);
 * dltool LIB -load: only load it. */
int main(int argc, char **argv)
{
	void *h;

	if (argc != 3)
		return 2;
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 3;
	}
	if (!strcmp(argv[2], "-load")) {
		printf("loaded\n");
	} else if (!strcmp(argv[2], "-id")) {
		const char *(*id)(void) =
			(const char *(*)(void))dlsym(h, "cuenvFixtureId");

		if (!id) {
			fprintf(stderr, "dlsym: %s\n", dlerror());
			return 4;
		}
		printf("%s\n", id());
	} else {
		int (*get)(int *) = (int (*)(int *))dlsym(h, argv[2]);
		int v = 0, rc;

		if (!get) {
			fprintf(stderr, "dlsym: %s\n", dlerror());
			return 4;
		}
		rc = get(&v);
		printf("%d %d\n", rc, v);
	}
	return 0;
}
EOF
	cc -o "$_dl.tmp.$$" "$E2E_SANDBOX/tmp/dltool.c" -ldl &&
		mv -f "$_dl.tmp.$$" "$_dl" || {
		fail "cannot build the dlopen tool with cc"
		return 1
	}
}

dlver() {
	_dltool && "$E2E_CACHE/dltool" "$1" "$2"
}

dlid() {
	_dltool && "$E2E_CACHE/dltool" "$1" -id
}

dlload() {
	_dltool && "$E2E_CACHE/dltool" "$1" -load
}

# The state of a file outside the sandbox: "absent", or what would show a
# change (inode, links, size, mode, mtime, contents).
_fstate() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		printf '%s %s\n' "$(stat -c '%i %h %s %f %Y' "$1")" \
			"$(sha256sum "$1" 2>/dev/null | cut -d' ' -f1)"
	else
		echo absent
	fi
}

_evil_state() {
	for _e in /tmp/cuenv-fixture-evil-absolute /tmp/cuenv-fixture-evil-symlink \
		/tmp/cuenv-fixture-evil-hardlink /tmp/cuenv-fixture-evil-dotdot; do
		printf '%s: %s\n' "$_e" "$(_fstate "$_e")"
	done
}

hostile() {
	_case=$1
	_entry=$2
	fixtures &&
		use_mirror "$FX/bad/$_case/mirror" &&
		CUENV_MANIFESTS=$FX/bad/$_case/manifests &&
		_sha=$(fxq "d['bad']['$_case']['archive_sha256']") &&
		_before=$(_evil_state) &&
		expect_code 6 cuenv install 12.4.1 &&
		stderr_has "cuenv: error: refused archive entry '$_entry" &&
		nothing_half_made cuda 12.4.1 &&
		expect_stdout "" cuenv versions &&
		check "a pool tree was made from the hostile archive" \
			[ ! -e "$CUENV_ROOT/pool/$_sha" ] &&
		check "the hostile archive is in the cache" \
			[ -z "$(ls -A "$CUENV_ROOT/cache" | grep -F "$_sha")" ] &&
		nothing_named cuenv-fixture-evil-dotdot &&
		nothing_named cuenv-fixture-evil-absolute &&
		nothing_named evil-suid &&
		nothing_named evil-null &&
		assert_eq "$(_evil_state)" "$_before" "files outside the sandbox"
}

# xz_bomb OUT MIB TOP [PAD_TO]: a .tar.xz whose one file, TOP/lib/bomb, is
# MIB MiB of zeros (a few KiB compressed), padded with zeros after the xz
# stream to PAD_TO bytes when given.
xz_bomb() {
	python3 - "$@" <<'EOF_BOMB'
import io, lzma, sys, tarfile

out, mib, top = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pad = int(sys.argv[4]) if len(sys.argv) > 4 else 0


class Zeros(io.RawIOBase):
    def __init__(self, n):
        self.n = n

    def readable(self):
        return True

    def readinto(self, b):
        k = min(len(b), self.n)
        b[:k] = bytes(k)
        self.n -= k
        return k


n = mib << 20
raw = io.BytesIO()
with lzma.open(raw, "wb", preset=1) as x:
    with tarfile.open(fileobj=x, mode="w|") as tf:
        ti = tarfile.TarInfo(top + "/lib/bomb")
        ti.size = n
        tf.addfile(ti, io.BufferedReader(Zeros(n)))
data = raw.getvalue()
if pad:
    if len(data) > pad:
        sys.exit("xz_bomb: %d bytes, more than %d" % (len(data), pad))
    data += bytes(pad - len(data))
with open(out, "wb") as f:
    f.write(data)
EOF_BOMB
}

# with_archive REL COMP FILE [SHA SIZE]: a copy of the mirror and the
# manifests in $HOME/bomb where component COMP of CUDA release REL is
# FILE; the catalogue then names SHA and SIZE for it (default: it keeps
# the real archive's, so FILE's sha256 is wrong), and cuenv is pointed at
# them (use_mirror).
with_archive() {
	rm -rf "$HOME/bomb" &&
		mkdir -p "$HOME/bomb" &&
		cp -R "$FX/mirror" "$FX/manifests" "$HOME/bomb/" &&
		cp "$3" "$HOME/bomb/mirror$(comp "$1" "$2" path)" &&
		python3 - "$HOME/bomb/manifests" "$1" "$2" "${4-}" "${5-}" <<'EOF_CAT'
import hashlib, json, os, sys

man, rel, comp, sha, size = sys.argv[1:6]
path = os.path.join(man, "cuda", "redistrib_%s.json" % rel)
d = json.load(open(path))
entry = d[comp]["linux-x86_64"]
if sha:
    entry["sha256"] = sha
    entry["size"] = size
data = json.dumps(d, indent=2).encode()
open(path, "wb").write(data)
tsv = os.path.join(man, "redistrib-json-sha256.tsv")
rows = open(tsv).read().splitlines()
for i, r in enumerate(rows):
    f = r.split("\t")
    if f[0] == "cuda" and f[1] == rel:
        f[3] = hashlib.sha256(data).hexdigest()
        rows[i] = "\t".join(f)
open(tsv, "w").write("\n".join(rows) + "\n")
EOF_CAT
	serve_stop SERVER
	use_mirror "$HOME/bomb/mirror" &&
		CUENV_MANIFESTS=$HOME/bomb/manifests
}

# index_only: the fixtures' package index served (PYPI_URL) and in force,
# NVIDIA's host out of reach (its proxy refuses), no retries; rt the file
# name of the index's cudart 12.4.127 wheel for Linux x86_64.
index_only() {
	fixtures &&
		serve_start "$FX/pypi" PYPI &&
		CUENV_MANIFESTS=$FX/manifests CUENV_PYPI_INDEX=$PYPI_URL/simple &&
		CUENV_FETCH_RETRIES=0 &&
		https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 &&
		no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 &&
		export CUENV_MANIFESTS CUENV_PYPI_INDEX CUENV_FETCH_RETRIES \
			https_proxy HTTPS_PROXY no_proxy NO_PROXY &&
		rt=$(fxq '[f["filename"] for f in d["pypi_projects"]["nvidia-cuda-runtime-cu12"] if f["version"] == "12.4.127" and "manylinux" in f["tag"]][0]')
}
