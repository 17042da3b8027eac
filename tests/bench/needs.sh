#!/usr/bin/env bash
# tests/bench/needs.sh: `cuenv needs` on a large real wheel (torch 2.15.0,
# 539 MB, downloaded once from the index into CUENV_CORPUS and checked
# against the index's sha256):
#
#   1. read in place (`cuenv needs torch.whl`: every ELF member streamed)
#      against unzip-then-scan (`unzip` to a folder, then `cuenv needs
#      FOLDER`), in the same run: target <= 0.25x;
#   2. the peak resident memory of `cuenv needs torch.whl` and of `cuenv
#      needs FOLDER`: target <= 64 MiB each (issue 22: the members are
#      streamed, whatever their size);
#   3. `cuenv needs torch==2.15.0` from a local test index (tests/fixtures/
#      server.py serving that wheel): the bytes fetched, the index's page
#      included, over the wheel's size (it reads the members the wheel in
#      place gives: about 1.0).
#
#   make bench    (or: CUENV_BIN=./cuenv bash tests/bench/needs.sh)
#   BENCH_REPS=3
#
# Prints the median seconds of BENCH_REPS runs of each and the ratios.
# Exit 0 when it ran (target met or not), non-zero when something failed;
# skips (0) when the wheel cannot be had (offline) or unzip is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
wheel_name=torch-2.15.0-cp311-cp311-manylinux_2_28_x86_64.whl
wheel_sha=48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e
index=${BENCH_INDEX:-https://pypi.org/simple}

command -v unzip >/dev/null || {
	echo "bench needs: skipped: no unzip"
	exit 0
}
cache=${CUENV_CORPUS:-}
if [[ -z $cache ]]; then
	for c in ${CUENV_CI_CACHE:+"$CUENV_CI_CACHE/corpus"} "$HOME/.cache/cuenv-corpus"; do
		if mkdir -p "$c" 2>/dev/null && [[ -w $c ]]; then
			cache=$c
			break
		fi
	done
fi
[[ -n $cache ]] || die "no writable cache folder: set CUENV_CORPUS"
mkdir -p "$cache/wheels"
whl=$cache/wheels/$wheel_name
if [[ ! -f $whl ]]; then
	url=$(python3 - "$index" "$wheel_name" <<'EOF_PY'
import json, sys, urllib.request
idx, name = sys.argv[1].rstrip("/"), sys.argv[2]
req = urllib.request.Request(idx + "/torch/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
try:
    d = json.load(urllib.request.urlopen(req, timeout=30))
except Exception:
    sys.exit(77)
print([f["url"] for f in d["files"] if f["filename"] == name][0])
EOF_PY
) || {
		echo "bench needs: skipped: the index cannot be reached"
		exit 0
	}
	echo "bench needs: downloading $wheel_name (once, into $cache/wheels)"
	python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
		"$url" "$whl.part" || die "cannot download $url"
	mv "$whl.part" "$whl"
fi
echo "$wheel_sha  $whl" | sha256sum -c --quiet - || die "$whl: sha256 differs"
size=$(stat -c %s "$whl")

work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-bench-needs.XXXXXX")
srv=
trap '[[ -n $srv ]] && kill "$srv" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export CUENV_ROOT=$work/root
export CUENV_MANIFESTS=$here/../../manifests

# rss_kib CMD...: CMD's peak resident memory in KiB (cuenv-net included)
rss_kib() {
	python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(0 if rc in (0, 1) else rc)' "$@"
}

inplace=()
unzipped=()
for ((i = 0; i < reps; i++)); do
	t0=$(now)
	"$cuenv_bin" needs "$whl" >"$work/inplace.out" || [[ $? -eq 1 ]] ||
		die "cuenv needs $whl failed"
	t1=$(now)
	rm -rf "$work/unz"
	unzip -q "$whl" -d "$work/unz"
	"$cuenv_bin" needs "$work/unz" >"$work/unzip.out" 2>/dev/null || [[ $? -eq 1 ]] ||
		die "cuenv needs on the unzipped wheel failed"
	t2=$(now)
	inplace+=("$(echo "$t1 - $t0" | bc -l)")
	unzipped+=("$(echo "$t2 - $t1" | bc -l)")
done
rss_dir=$(rss_kib "$cuenv_bin" needs "$work/unz") || die "needs FOLDER failed"
rm -rf "$work/unz"
rss_whl=$(rss_kib "$cuenv_bin" needs "$whl") || die "needs WHEEL failed"
grep -q "cuDNN 9.26.0+" "$work/inplace.out" || die "in place: no cuDNN 9.26.0+ in: $(cat "$work/inplace.out")"
a=$(printf '%s\n' "${inplace[@]}" | median)
b=$(printf '%s\n' "${unzipped[@]}" | median)
ratio=$(echo "$a / $b" | bc -l)
printf 'bench needs: %s (%d bytes)\n' "$wheel_name" "$size"
printf '  read in place      %8.3f s\n' "$a"
printf '  unzip, then scan   %8.3f s\n' "$b"
printf '  ratio              %8.4f (target <= 0.25: %s)\n' "$ratio" \
	"$(echo "$ratio <= 0.25" | bc -l | sed 's/1/met/;s/0/NOT met/')"
for m in "in place:$rss_whl" "unzipped folder:$rss_dir"; do
	printf '  peak memory, %-16s %6d KiB (target <= 65536: %s)\n' \
		"${m%%:*}" "${m#*:}" "$( ((${m#*:} <= 65536)) && echo met || echo NOT met)"
done

# The same wheel on a local index, read by range requests.
mkdir -p "$work/index/simple/torch" "$work/index/packages"
ln "$whl" "$work/index/packages/$wheel_name" 2>/dev/null ||
	cp "$whl" "$work/index/packages/$wheel_name"
printf '{"meta": {"api-version": "1.1"}, "name": "torch", "files": [{"filename": "%s", "url": "../../packages/%s", "hashes": {"sha256": "%s"}, "size": %d}]}\n' \
	"$wheel_name" "$wheel_name" "$wheel_sha" "$size" >"$work/index/simple/torch/index.json"
python3 "$here/../fixtures/server.py" --root "$work/index" --port-file "$work/port" \
	--log "$work/log" >/dev/null 2>&1 &
srv=$!
for ((i = 0; i < 100; i++)); do
	[[ -s $work/port ]] && break
	sleep 0.05
done
[[ -s $work/port ]] || die "the test index did not start"
"$cuenv_bin" needs --json --index "http://127.0.0.1:$(cat "$work/port")/simple" \
	torch==2.15.0 >"$work/index.json" || [[ $? -eq 1 ]] || die "needs torch==2.15.0 failed"
fetched=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["fetched"][0]["bytes_fetched"])' "$work/index.json")
over=$(echo "$fetched / $size" | bc -l)
printf '  needs torch==2.15.0 from a local index: %d of %d bytes (%.4f of the wheel, its page included), %d requests\n' \
	"$fetched" "$size" "$over" "$(grep -c 'GET /packages/' "$work/log")"
