#!/usr/bin/env bash
# tests/bench/install.sh: what `cuenv install` costs on a cold install from
# a local mirror, against the script people write by hand and against the
# floor set by xz decoding alone, measured in the same run.
#
#   make bench              (runs tests/bench/hook.sh, then this)
#   CUENV_BIN=./cuenv bash tests/bench/install.sh
#   make bench BENCH_REPS=5 BENCH_BIG_MB=320
#
# tests/fixtures/mkrelease.py --big-mb BENCH_BIG_MB builds a fake NVIDIA
# mirror with CUDA 12.9.9 (six large .tar.xz, about BENCH_BIG_MB MiB in
# all; cached in BENCH_FIXTURES, default $TMPDIR/cuenv-bench-fixtures), and
# tests/fixtures/server.py serves it over http on 127.0.0.1. Three methods
# install the archives that `cuenv install 12.9.9` picks by default:
#
#   cuenv      cuenv install 12.9.9 --mirror URL --no-cache, default --jobs
#              (one archive per core), into a fresh CUENV_ROOT; wall time
#              and the peak RSS of the process (cuenv execs cuenv-net: the
#              same pid), from /usr/bin/time (or a python3 wait4 wrapper)
#   naive      a bash script that, for each component in the release's
#              redistrib JSON, one after the other: curl -fsSo FILE URL;
#              echo "SHA  FILE" | sha256sum -c; tar -xJf FILE -C DEST
#   xz floor   xz -T1 -dc of local copies of the same archives, as many at
#              once as there are cores (xargs -P): no network, no hashing,
#              no writing; the least any installer can take on this machine
#
# A first cuenv install (its server log tells which archives it fetched)
# and one warm-up round (not counted; BENCH_WARMUP=0 skips it) check that
# all three work and bring the mirror into the page cache. Then BENCH_REPS
# rounds each run every method once, the order rotating from round to
# round, with a sync between runs so that one method's dirty pages are not
# written back during another's. Page caches cannot be dropped here: the
# mirror's files are cached for all three alike. The table shows medians.
#
# Targets: cuenv takes at most 0.6x the naive script's time and at most
# 1.3x the xz floor's, and its peak RSS stays under 64 MiB (the largest
# of the rounds).
#
# Exit status: 0 when everything ran, targets met or not (this is a
# report); non-zero when something failed to run.
set -euo pipefail

reps=${BENCH_REPS:-3}
big_mb=${BENCH_BIG_MB:-320}
warmup=${BENCH_WARMUP:-1}
version=12.9.9
target_naive=0.6
target_floor=1.3
target_rss_mib=64

die() {
	printf 'bench: error: %s\n' "$*" >&2
	exit 1
}

case $reps$big_mb$warmup in
*[!0-9]*) die "BENCH_REPS, BENCH_BIG_MB and BENCH_WARMUP are numbers" ;;
esac
((reps > 0 && big_mb > 0)) || die "BENCH_REPS and BENCH_BIG_MB must be positive"

here=$(cd "$(dirname "$0")" && pwd -P)
fixtures_src=$(cd "$here/../fixtures" && pwd -P) ||
	die "no tests/fixtures next to tests/bench"

cuenv_bin=${CUENV_BIN:-./cuenv}
[[ -x $cuenv_bin && -f $cuenv_bin ]] ||
	die "no cuenv binary at '$cuenv_bin' (build it, or set CUENV_BIN)"
cuenv_bin=$(cd "$(dirname "$cuenv_bin")" && pwd -P)/$(basename "$cuenv_bin")
[[ -x $(dirname "$cuenv_bin")/cuenv-net ]] ||
	die "no cuenv-net next to $cuenv_bin (make builds both)"

need() {
	local t
	for t; do
		command -v "$t" >/dev/null 2>&1 ||
			die "$t is not installed (Debian: see .ci/deps)"
	done
}
need python3 curl jq xz tar sha256sum xargs sync nproc
ncpu=$(nproc)

if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
	time_how="/usr/bin/time"
else
	time_how="python3 wait4"
fi

fx=${BENCH_FIXTURES:-${TMPDIR:-/tmp}/cuenv-bench-fixtures}
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-ibench.XXXXXX")
server_up=
cleanup() {
	if [[ -n $server_up ]]; then
		serve_stop SERVER || true
	fi
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the fixtures and the server ------------------------------------------

echo "fixtures: $fx (--big-mb $big_mb; built once, then cached)"
mkdir -p "$fx"
python3 "$fixtures_src/mkrelease.py" "$fx" --big-mb "$big_mb" --quiet \
	>"$work/mkrelease.log" 2>&1 || {
	cat "$work/mkrelease.log" >&2
	die "mkrelease.py failed"
}
json_path=$(jq -r --arg v "$version" '.cuda[$v].json // empty' \
	"$fx/fixture.json") || die "cannot read $fx/fixture.json"
[[ -n $json_path ]] ||
	die "the fixtures have no CUDA $version (mkrelease.py --big-mb)"
redist=${json_path%/*}                  # /compute/cuda/redist
json=$fx/manifests/cuda/${json_path##*/}
[[ -f $json ]] || die "no $json in the fixtures' catalogue"

CUENV_FIXTURES=$fixtures_src
export CUENV_FIXTURES
# shellcheck source=tests/fixtures/serve.sh
. "$fixtures_src/serve.sh"
serve_start "$fx/mirror" || die "cannot start the fixture server"
server_up=1

# ---- the three methods -----------------------------------------------------

mkdir -p "$work/home" "$work/xdg/config" "$work/xdg/data" \
	"$work/xdg/cache" "$work/xdg/state" "$work/local"
sandbox=(env -i "HOME=$work/home" PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C
	"XDG_CONFIG_HOME=$work/xdg/config" "XDG_DATA_HOME=$work/xdg/data"
	"XDG_CACHE_HOME=$work/xdg/cache" "XDG_STATE_HOME=$work/xdg/state"
	"CUENV_MANIFESTS=$fx/manifests" "TMPDIR=$work")

# The hand-written installer: one component after the other.
cat >"$work/naive.sh" <<'EOF'
set -euo pipefail
url=$1 json=$2 dest=$3 dl=$4
shift 4
mkdir -p "$dest" "$dl"
for c in "$@"; do
	rel=$(jq -r --arg c "$c" '.[$c]["linux-x86_64"].relative_path' "$json")
	sha=$(jq -r --arg c "$c" '.[$c]["linux-x86_64"].sha256' "$json")
	f=$dl/${rel##*/}
	curl -fsSo "$f" "$url/$rel"
	echo "$sha  $f" | sha256sum -c --quiet
	tar -xJf "$f" -C "$dest"
done
EOF

# A wait4 wrapper for where /usr/bin/time is missing: same output format.
cat >"$work/rusage.py" <<'EOF'
import os, sys
out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write("%.2f %.2f %d\n" % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
EOF

# timed NAME ROUND CMD...: run CMD, append "NAME ROUND wall_us user_s sys_s
# maxrss_kib" to $work/results (round 0, the warm-up, is not counted).
timed() {
	local name=$1 round=$2 t0 t1 rc=0
	shift 2
	sync
	t0=${EPOCHREALTIME/./}
	if [[ $time_how == /usr/bin/time ]]; then
		/usr/bin/time -f '%U %S %M' -o "$work/rusage" "$@" || rc=$?
	else
		python3 "$work/rusage.py" "$work/rusage" "$@" || rc=$?
	fi
	t1=${EPOCHREALTIME/./}
	((rc == 0)) || return "$rc"
	echo "$name $round $((t1 - t0)) $(tail -n 1 "$work/rusage")" \
		>>"$work/results"
}

run_cuenv() {
	local round=$1 root=$work/root
	rm -rf "$root"
	mkdir -p "$root"
	timed cuenv "$round" "${sandbox[@]}" "CUENV_ROOT=$root" \
		"$cuenv_bin" install "$version" --mirror "$SERVER_URL" \
		--no-cache >"$work/cuenv.log" 2>&1 || {
		cat "$work/cuenv.log" >&2
		die "cuenv install failed (round $round)"
	}
	[[ -d $root/versions/cuda/$version/lib ]] ||
		die "cuenv install left no $root/versions/cuda/$version/lib"
	rm -rf "$root"
}

run_naive() {
	local round=$1 dest=$work/naive dl=$work/naive-dl
	rm -rf "$dest" "$dl"
	timed naive "$round" "${sandbox[@]}" bash "$work/naive.sh" \
		"$SERVER_URL$redist" "$json" "$dest" "$dl" "${comps[@]}" \
		>"$work/naive.log" 2>&1 || {
		cat "$work/naive.log" >&2
		die "the naive script failed (round $round)"
	}
	rm -rf "$dest" "$dl"
}

run_floor() {
	local round=$1
	# shellcheck disable=SC2016 # $0 is for sh -c
	timed floor "$round" xargs -P"$ncpu" -n1 sh -c \
		'xz -T1 -dc "$0" >/dev/null' <"$work/local.list" \
		>"$work/floor.log" 2>&1 || {
		cat "$work/floor.log" >&2
		die "xz -d of the local copies failed (round $round)"
	}
}

# ---- which archives --------------------------------------------------------

echo "cuenv:  $cuenv_bin (peak RSS by $time_how)"
echo "system: $ncpu CPUs; $(xz --version | head -n 1);" \
	"$(curl --version | head -n 1 | cut -d' ' -f1-2)"
echo "server: $SERVER_URL ($fixtures_src/server.py)"

# The default component set of `cuenv install`, as a first run fetched it
# (its server log): all three methods handle exactly these archives.
mkdir -p "$work/root"
"${sandbox[@]}" "CUENV_ROOT=$work/root" "$cuenv_bin" install "$version" \
	--mirror "$SERVER_URL" --no-cache >"$work/cuenv.log" 2>&1 || {
	cat "$work/cuenv.log" >&2
	die "cuenv install $version failed"
}
rm -rf "$work/root"
comps=() bytes=0
: >"$work/local.list"
: >"$work/local.sha"
while read -r c rel sha size; do
	grep -qF "GET $redist/$rel " "$SERVER_LOG" || continue
	comps+=("$c")
	bytes=$((bytes + size))
	# The floor's local copies, downloaded once.
	f=$work/local/${rel##*/}
	curl -fsSo "$f" "$SERVER_URL$redist/$rel" ||
		die "cannot download $SERVER_URL$redist/$rel"
	echo "$f" >>"$work/local.list"
	echo "$sha  $f" >>"$work/local.sha"
done < <(jq -r 'to_entries[] | select(.value | type == "object") |
	.key as $c | .value["linux-x86_64"] // empty |
	"\($c) \(.relative_path) \(.sha256) \(.size)"' "$json")
((${#comps[@]} > 0)) || die "cuenv fetched none of the JSON's archives"
sha256sum -c --quiet "$work/local.sha" >/dev/null ||
	die "the local copies do not match the catalogue"
echo "archives: ${#comps[@]} (${comps[*]}), $((bytes / 1048576)) MiB of .tar.xz"

methods=(cuenv naive floor)
if ((warmup)); then
	echo "warm-up round (not counted)..."
	for m in "${methods[@]}"; do
		"run_$m" 0
	done
fi
echo "running: $reps rounds of cuenv, naive script, xz floor" \
	"(order rotating)..."
for ((r = 1; r <= reps; r++)); do
	for ((k = 0; k < 3; k++)); do
		"run_${methods[(r - 1 + k) % 3]}" "$r"
	done
done

# ---- the report ------------------------------------------------------------

awk -v reps="$reps" -v tn="$target_naive" -v tf="$target_floor" \
	-v tm="$target_rss_mib" -v ncpu="$ncpu" '
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function median(m, f,    a, i, n) {
	n = 0
	for (i = 1; i <= reps; i++)
		a[++n] = v[m, f, i]
	sort(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function raw(m,    i, s) {
	s = ""
	for (i = 1; i <= reps; i++)
		s = s (i > 1 ? " " : "") sprintf("%.2f", v[m, "wall", i] / 1e6)
	return s
}
function row(name, m) {
	printf "%-20s %8.2f %9.2f %9.2f   %s\n", name,
		median(m, "wall") / 1e6, median(m, "user"), median(m, "sys"),
		raw(m)
}
function check(name, val, op, lim, fmt,    ok) {
	ok = op == "<=" ? val <= lim : val < lim
	if (!ok)
		missed++
	printf "%-26s " fmt "  %-8s %s\n", name, val, op " " lim,
		ok ? "met" : "MISSED"
}
$2 > 0 {
	v[$1, "wall", $2] = $3
	v[$1, "user", $2] = $4
	v[$1, "sys", $2] = $5
	v[$1, "rss", $2] = $6
}
END {
	printf "\nseconds per cold install, median of %d rounds " \
		"(raw: wall of each round)\n", reps
	printf "%-20s %8s %9s %9s   %s\n", "method", "wall", "user", "sys",
		"raw"
	row("cuenv install", "cuenv")
	row("naive script", "naive")
	row("xz -d floor (-P" ncpu ")", "floor")
	c = median("cuenv", "wall")
	nv = median("naive", "wall")
	fl = median("floor", "wall")
	rss = 0
	for (i = 1; i <= reps; i++)
		if (v["cuenv", "rss", i] > rss)
			rss = v["cuenv", "rss", i]
	printf "\n%-26s %7s  %-8s %s\n", "measure", "value", "target",
		"result"
	check("cuenv / naive", nv > 0 ? c / nv : 99, "<=", tn, "%7.3f")
	check("cuenv / xz floor", fl > 0 ? c / fl : 99, "<=", tf, "%7.3f")
	check("cuenv peak RSS (MiB)", rss / 1024, "<", tm, "%7.1f")
	printf "%s\n", missed ? "some targets missed" : "all targets met"
}' "$work/results"
