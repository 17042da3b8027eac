# lib-modules.sh: sourced after lib.sh by the environment-module tests.
#
# modules_setup: two fake CUDA 12 toolkits (one at a path with a space,
# quotes, $ and brackets) and a cuDNN 9 for CUDA 12, registered.
# modules_session INIT: run a bash that sources the module system's INIT
# script (MODULEPATH=$HOME/mods), loads, switches and unloads cuenv's
# modules, and after each step compares the variables activation sets,
# one by one, with `cuenv env --format json` for the same selection
# (computed first, from the same environment); prints "ok N" per step.

MOD_C1="$HOME/toolkits/cuda 12.4 \$x[\"q'{}]"
MOD_C2=$HOME/toolkits/cuda-12.6
MOD_N=$HOME/toolkits/cudnn

modules_setup() {
	need bash &&
		need jq &&
		make_fake_cuda "$MOD_C1" 12.4.1 &&
		make_fake_cuda "$MOD_C2" 12.6.0 &&
		make_fake_cudnn "$MOD_N" 9.1.0 12 &&
		cuenv add cuda "$MOD_C1" >/dev/null &&
		cuenv add cuda "$MOD_C2" >/dev/null &&
		cuenv add cudnn "$MOD_N" >/dev/null
}

modules_session() {
	cat >"$HOME/session.bash" <<'BASH'
vars="CPATH CUDA_HOME CUDA_PATH CUDNN_PATH CUENV_ACTIVE LD_LIBRARY_PATH LIBRARY_PATH PATH"
dump() {
	for v in $vars; do
		if [ -n "${!v+x}" ]; then
			printf '%s=%s\n' "$v" "${!v}"
		else
			printf '%s unset\n' "$v"
		fi
	done
}
base=$(dump)
# want CUDA [CUDNN]: the variables `cuenv env --format json` gives.
want() {
	local j
	j=$(env CUENV_VERSION="$1" ${2:+CUENV_CUDNN_VERSION="$2"} \
		cuenv env --format json) || { echo "cuenv env failed"; return; }
	for v in $vars; do
		if jq -e --arg v "$v" 'has($v)' <<<"$j" >/dev/null; then
			jq -r --arg v "$v" \
				'if .[$v] == null then "\($v) unset" else "\($v)=\(.[$v])" end' \
				<<<"$j"
		else
			grep "^$v[= ]" <<<"$base"
		fi
	done
}
w1=$(want 12.4.1)
w1n=$(want 12.4.1 9.1.0)
w2=$(want 12.6.0)
w2n=$(want 12.6.0 9.1.0)
. "$MOD_INIT" || { echo "cannot source $MOD_INIT"; exit 1; }
export MODULEPATH=$HOME/mods
step=0
expect() {
	step=$((step + 1))
	local got
	got=$(dump)
	if [ "$got" = "$1" ]; then
		echo "ok $step"
	else
		echo "FAIL step $step ($2):"
		diff <(echo "$1") <(echo "$got")
	fi
}
module load cuda/12.4.1 || echo "FAIL: load cuda/12.4.1"
expect "$w1" "load cuda/12.4.1"
module load cudnn/9.1.0-cuda12 || echo "FAIL: load cudnn"
expect "$w1n" "load cudnn on 12.4.1"
module unload cudnn/9.1.0-cuda12 || echo "FAIL: unload cudnn"
expect "$w1" "unload cudnn"
module switch cuda/12.4.1 cuda/12.6.0 || echo "FAIL: switch"
expect "$w2" "switch to cuda/12.6.0"
module load cudnn/9.1.0-cuda12 || echo "FAIL: load cudnn"
expect "$w2n" "load cudnn on 12.6.0"
module unload cudnn/9.1.0-cuda12 cuda/12.6.0 || echo "FAIL: unload all"
expect "$base" "unload everything"
BASH
	MOD_INIT=$1 bash --norc --noprofile "$HOME/session.bash" \
		>"$HOME/session.out" 2>"$HOME/session.err"
	cat "$HOME/session.out"
	if grep -q FAIL "$HOME/session.out" ||
		[ "$(grep -c '^ok ' "$HOME/session.out")" -ne 6 ]; then
		echo "--- module stderr:" >&2
		cat "$HOME/session.err" >&2
		fail "the modules did not give what cuenv env gives"
	fi
}
