#!/usr/bin/env bash
# tests/bench/hook.sh: what cuenv's prompt hook costs per prompt, against
# direnv doing the same job, measured in the same run.
#
#   make bench              (or: CUENV_BIN=./cuenv bash tests/bench/hook.sh)
#   make bench BENCH_UNCHANGED=2000 BENCH_CHANGES=200 BENCH_REPS=3
#
# Each tool gets one bash process that evals its hook (cuenv init bash,
# direnv hook bash) and times with $EPOCHREALTIME N calls of the prompt
# hook function (_cuenv_hook, _direnv_hook):
#
#   unchanged    a prompt inside an active project where nothing changed
#   enter/leave  each call follows a cd into the project or back out of it
#
# The two projects ask for the same thing: a fake CUDA 12.4.1 toolkit,
# registered with `cuenv add cuda` for cuenv, and an allowed .envrc that
# sets the same variables for direnv. HOME, XDG dirs and CUENV_ROOT are
# private to the run, which removes them at the end.
#
# Each case runs BENCH_REPS times in the same process; the table shows the
# medians, minus the cost of the bare loop (and of the cd). Targets: cuenv
# costs at most 0.1x what direnv costs in both cases, and its hook starts
# no process on an unchanged prompt (counted with strace -f; without
# strace, or with BENCH_NO_STRACE=1, the runs of the binary are counted).
#
# Exit status: 0 when everything ran, targets met or not (this is a
# report); non-zero when something failed to run.
set -euo pipefail

n_same=${BENCH_UNCHANGED:-2000}
n_change=${BENCH_CHANGES:-200}
reps=${BENCH_REPS:-3}
n_count=${BENCH_COUNT:-200}
target=0.1

die() {
	printf 'bench: error: %s\n' "$*" >&2
	exit 1
}

case $n_same$n_change$reps$n_count in
*[!0-9]*) die "BENCH_UNCHANGED, _CHANGES, _REPS and _COUNT are numbers" ;;
esac
((n_same > 0 && n_change > 0 && reps > 0 && n_count > 0)) ||
	die "iteration counts must be positive"
((n_change % 2 == 0)) || die "BENCH_CHANGES must be even (enter + leave)"

cuenv_bin=${CUENV_BIN:-./cuenv}
[[ -x $cuenv_bin && -f $cuenv_bin ]] ||
	die "no cuenv binary at '$cuenv_bin' (build it, or set CUENV_BIN)"
cuenv_bin=$(cd "$(dirname "$cuenv_bin")" && pwd -P)/$(basename "$cuenv_bin")
direnv_bin=$(command -v direnv) ||
	die "direnv is not installed (Debian: apt-get install direnv)"
bash_bin=$(command -v bash)
# Both hooks find what they run by absolute path; the shells need little.
run_path=$(dirname "$direnv_bin"):/usr/bin:/bin

work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-bench.XXXXXX")
cleanup() {
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the sandbox -----------------------------------------------------------

kit=$work/kit
proj_cuenv=$work/a
proj_direnv=$work/b
plain=$work/plain
mkdir -p "$work/home" "$work/xdg/config" "$work/xdg/data" "$work/xdg/cache" \
	"$work/xdg/state" "$work/root" "$kit/bin" "$kit/lib64" "$kit/include" \
	"$proj_cuenv" "$proj_direnv" "$plain"

# A fake toolkit: enough for `cuenv add` to detect CUDA 12.4.1.
cat >"$kit/bin/nvcc" <<'EOF'
#!/bin/sh
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Cuda compilation tools, release 12.4, V12.4.131"
EOF
chmod +x "$kit/bin/nvcc"
: >"$kit/lib64/libcudart.so.12"
echo '#define CUDART_VERSION 12040' >"$kit/include/cuda_runtime_api.h"
echo '{"cuda":{"version":"12.4.1"}}' >"$kit/version.json"

echo 'cuda = 12.4' >"$proj_cuenv/.cuenv"
cat >"$proj_direnv/.envrc" <<EOF
# The same job as cuda = 12.4 in a .cuenv
PATH_add "$kit/bin"
path_add LD_LIBRARY_PATH "$kit/lib64"
path_add LIBRARY_PATH "$kit/lib64"
path_add CPATH "$kit/include"
export CUDA_HOME="$kit"
export CUDA_PATH="$kit"
export CUENV_ACTIVE=12.4.1
EOF

# Everything runs in this environment and nothing else.
sandbox=(env -i "HOME=$work/home" "PATH=$run_path" LC_ALL=C TERM=dumb
	"XDG_CONFIG_HOME=$work/xdg/config" "XDG_DATA_HOME=$work/xdg/data"
	"XDG_CACHE_HOME=$work/xdg/cache" "XDG_STATE_HOME=$work/xdg/state"
	"CUENV_ROOT=$work/root" DIRENV_LOG_FORMAT= "CUENV_BIN=$cuenv_bin"
	"DIRENV_BIN=$direnv_bin")

"${sandbox[@]}" "$cuenv_bin" add cuda "$kit" >"$work/add.log" 2>&1 ||
	die "cuenv add cuda failed: $(cat "$work/add.log")"
"${sandbox[@]}" "$direnv_bin" allow "$proj_direnv" >"$work/allow.log" 2>&1 ||
	die "direnv allow failed: $(cat "$work/allow.log")"

# ---- the shell that measures ----------------------------------------------

# inner.sh TOOL MODE ...: MODE "time" prints "case rep microseconds" lines;
# MODE "count" makes n_same unchanged prompts between two marker opens (for
# strace), and with COUNT_FILE set counts the hook's runs of the binary in
# that file (without strace), through a function named as the binary's
# path, which bash calls instead of the file.
cat >"$work/inner.sh" <<'EOF'
set -u
tool=$1 mode=$2 proj=$3 plain=$4 kit=$5 n_same=$6 n_change=$7 reps=$8
fail() {
	echo "bench: error: $tool: $*" >&2
	exit 1
}
case $tool in
cuenv) bin=$CUENV_BIN hook=_cuenv_hook ;;
direnv) bin=$DIRENV_BIN hook=_direnv_hook ;;
esac
if [[ $mode == count && -n ${COUNT_FILE-} ]]; then
	eval "function $(printf %q "$bin") {
		printf x >>\"\$COUNT_FILE\"
		command $(printf %q "$bin") \"\$@\"
	}"
fi
case $tool in
cuenv) eval "$("$bin" init bash)" || fail "cuenv init bash failed" ;;
direnv) eval "$("$bin" hook bash)" || fail "direnv hook bash failed" ;;
esac
declare -F "$hook" >/dev/null || fail "no function $hook after the eval"
noop() { return $?; }
# The floor of any hook that runs one program per change: bash's fork for
# $(...), then exec of the smallest program there is.
true_bin=$(type -P true) || fail "no true program on PATH"
floor() { eval "$("$true_bin")"; }

active() {
	[[ ${CUDA_HOME-} == "$kit" && ${CUDA_PATH-} == "$kit" &&
		$PATH == "$kit/bin:"* &&
		:${LD_LIBRARY_PATH-}: == *":$kit/lib64:"* ]]
}
inactive() {
	[[ -z ${CUDA_HOME+x} && $PATH != *"$kit"* &&
		${LD_LIBRARY_PATH-} != *"$kit"* ]]
}

# Warm up, and check that the hook really does the job.
cd "$plain" && $hook
inactive || fail "variables set outside the project"
cd "$proj" && $hook
active || fail "the project did not activate (CUDA_HOME='${CUDA_HOME-}')"
cd "$plain" && $hook
inactive || fail "leaving the project left variables set"
cd "$proj" && $hook && $hook
active || fail "the project did not activate again"

if [[ $mode == count ]]; then
	[[ -z ${COUNT_FILE-} ]] || : >"$COUNT_FILE"
	: <"$COUNT_START"
	for ((i = 0; i < n_same; i++)); do $hook; done
	: <"$COUNT_END"
	active || fail "the project went inactive"
	if [[ -n ${COUNT_FILE-} ]]; then
		n=$(<"$COUNT_FILE")
		echo "${#n}"
	fi
	exit 0
fi

# The loops run in this shell, never in a $(...) subshell.
same() {
	local f=$1 i t0 t1
	cd "$proj" && $f
	t0=${EPOCHREALTIME/./}
	for ((i = 0; i < n_same; i++)); do $f; done
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}
change() {
	local f=$1 i t0 t1
	cd "$plain" && $f
	t0=${EPOCHREALTIME/./}
	for ((i = 0; i < n_change; i += 2)); do
		cd "$proj"
		$f
		cd "$plain"
		$f
	done
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}

for ((r = 1; r <= reps; r++)); do
	printf 'same_base %s ' "$r" && same noop
	printf 'same %s ' "$r" && same "$hook"
	printf 'change_base %s ' "$r" && change noop
	printf 'change %s ' "$r" && change "$hook"
	if [[ $tool == cuenv ]]; then
		printf 'change_floor %s ' "$r" && change floor
	fi
done
cd "$proj" && $hook
active || fail "the project is not active at the end"
EOF

measure() {
	local tool=$1 proj=$2
	"${sandbox[@]}" "$bash_bin" --norc --noprofile "$work/inner.sh" \
		"$tool" time "$proj" "$plain" "$kit" "$n_same" "$n_change" \
		"$reps" >"$work/$tool.times" 2>"$work/$tool.err" || {
		cat "$work/$tool.err" >&2
		die "the $tool run failed"
	}
}

# Prints the processes the hook started in n_count unchanged prompts, and
# how they were counted.
count_spawns() {
	local tool=$1 proj=$2
	local log=$work/$tool.strace
	local env=("${sandbox[@]}" "COUNT_START=$work/mark-start"
		"COUNT_END=$work/mark-end")
	local args=("$bash_bin" --norc --noprofile "$work/inner.sh" "$tool"
		count "$proj" "$plain" "$kit" "$n_count" 0 0)

	: >"$work/mark-start"
	: >"$work/mark-end"
	if [[ -z ${BENCH_NO_STRACE-} ]] && command -v strace >/dev/null 2>&1 &&
		strace -f -qq -o /dev/null true >/dev/null 2>&1; then
		"${env[@]}" strace -f -qq -o "$log" \
			-e trace=openat,open,execve,clone,clone3,fork,vfork \
			"${args[@]}" >/dev/null 2>"$work/$tool.count.err" || {
			cat "$work/$tool.count.err" >&2
			die "the $tool count run failed"
		}
		# Processes (not threads) created between the two marker opens.
		awk -v s="\"$work/mark-start\"" -v e="\"$work/mark-end\"" '
			index($0, s) { on = 1; next }
			index($0, e) { on = 0 }
			on && / (clone|clone3|fork|vfork)\(/ &&
				!/CLONE_THREAD| = -1 / { n++ }
			END { print n + 0, "strace" }' "$log"
	else
		local n
		n=$("${env[@]}" "COUNT_FILE=$work/$tool.count" "${args[@]}" \
			2>"$work/$tool.count.err") || {
			cat "$work/$tool.count.err" >&2
			die "the $tool count run failed"
		}
		echo "$n runs"
	fi
}

echo "cuenv:  $cuenv_bin"
echo "direnv: $direnv_bin ($("$direnv_bin" version))"
echo "bash:   $BASH_VERSION; $(nproc 2>/dev/null || echo '?') CPUs"
echo "running: $reps x ($n_same unchanged + $n_change enter/leave prompts)" \
	"per tool..."
measure cuenv "$proj_cuenv"
measure direnv "$proj_direnv"
spawns=$(count_spawns cuenv "$proj_cuenv")
spawns_cuenv=${spawns%% *} how=${spawns#* }
spawns=$(count_spawns direnv "$proj_direnv")
spawns_direnv=${spawns%% *}

# ---- the report ------------------------------------------------------------

awk -v n_same="$n_same" -v n_change="$n_change" -v reps="$reps" \
	-v target="$target" \
	-v sc="$spawns_cuenv" -v sd="$spawns_direnv" -v how="$how" \
	-v n_count="$n_count" '
function median(tool, k,    a, i, j, t, n) {
	n = 0
	for (i = 1; i <= reps; i++)
		a[++n] = v[tool, k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function row(name, k, iters,    c, d, r, cr, dr, ok) {
	c = (median("cuenv", k) - median("cuenv", k "_base")) / iters
	d = (median("direnv", k) - median("direnv", k "_base")) / iters
	cr = median("cuenv", k) / iters
	dr = median("direnv", k) / iters
	r = d > 0 ? c / d : 0
	ok = d > 0 && r <= target
	if (!ok)
		missed++
	printf "%-12s %6d %10.1f %10.1f %12.4f %7s  %-6s   %.1f / %.1f\n",
		name, iters, c, d, r, "<= " target, ok ? "met" : "MISSED",
		cr, dr
}
{ v[tool, $1, $2] = $3 }
END {
	printf "\nµs per prompt, median of %d runs, bare loop and cd " \
		"subtracted (raw: as timed)\n", reps
	printf "%-12s %6s %10s %10s %12s %7s  %-6s\n", "case", "calls",
		"cuenv", "direnv", "cuenv/direnv", "target", "result   raw"
	row("unchanged", "same", n_same)
	row("enter/leave", "change", n_change)
	f = (median("cuenv", "change_floor") - \
		median("cuenv", "change_base")) / n_change
	d = (median("direnv", "change") - median("direnv", "change_base")) / \
		n_change
	printf "\nfloor of one process per change (fork + exec of true): " \
		"%.1f µs = %.4f x direnv on enter/leave\n", f, (d > 0 ? f / d : 0)
	printf "%s started by the hook in %d unchanged prompts " \
		"(%s): cuenv %d, direnv %d; target for cuenv 0: %s\n",
		how == "strace" ? "processes" : "binary runs", n_count,
		how == "strace" ? "strace -f" : "no strace: counting function",
		sc, sd, sc == 0 ? "met" : "MISSED"
	if (sc != 0)
		missed++
	printf "%s\n", missed ? "some targets missed" : "all targets met"
}' tool=cuenv "$work/cuenv.times" tool=direnv "$work/direnv.times"
