#!/bin/sh
# Every fix doctor prints works as printed from the state it describes
# (issue 10 item 8: it suggested `cuenv local 12.9` with 12.9 not
# installed, which exits 9). For each scenario, built afresh for each
# alternative of each fix, the alternative is run exactly as printed (in
# the project folder) and must exit 0, after which doctor must no longer
# report that finding. An alternative that is not a cuenv command (pip,
# conda, sudo, a driver), that says "by hand" or holds a placeholder
# (PATH, VERSION, CMD) is a documented manual action: listed, not run.
# Installs come from the fixture mirror (tests/fixtures: CUDA 11.8.0,
# 12.4.0, 12.4.1, cuDNN 9.1.0, ...): offline. Scenarios: CUPTI missing
# from a registered toolkit, a selection not installed (in the catalogue
# and not), NVIDIA wheels and a conda environment of another major, and a
# cuDNN only built for another major (not in the catalogue: manual).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-doctor.sh"
. "$e2e/lib-install.sh"

need cc
need jq
# the fixture server needs the real python3; doctor gets the mute one
_path=$PATH
PATH=${PATH#"$HOME/bin:"}
use_mirror || exit 1
PATH=$_path
p=$HOME/proj

# scenario NAME: build it in a fresh store ($CUENV_ROOT) and $p; senv is
# the environment doctor and the fixes run in
scenario() {
	rm -rf "$CUENV_ROOT" "$p" "$HOME/venv" "$HOME/conda" && mkdir -p "$p" || return 1
	senv="VIRTUAL_ENV=$HOME/venv"
	case $1 in
	missing-cupti)
		[ -d "$HOME/tk/cuda-11.8" ] || {
			doctor_cuda "$HOME/tk/cuda-11.8" 11.8.0 &&
				no_cupti "$HOME/tk/cuda-11.8"
		} || return 1
		cuenv add cuda "$HOME/tk/cuda-11.8" >/dev/null &&
			printf 'cuda = 11.8\n' >"$p/.cuenv" ;;
	not-installed)
		cuenv add cuda "$HOME/tk/cuda-12.4" >/dev/null &&
			printf 'cuda = 11.8\n' >"$p/.cuenv" ;;
	not-in-catalogue)
		cuenv add cuda "$HOME/tk/cuda-12.4" >/dev/null &&
			printf 'cuda = 12.9\n' >"$p/.cuenv" ;;
	pip-wheels)
		_s=$HOME/venv/lib/python3.11/site-packages
		cuenv add cuda "$HOME/tk/cuda-12.4" >/dev/null &&
			printf 'cuda = 12.4\n' >"$p/.cuenv" &&
			mkdir -p "$_s/nvidia/cuda_runtime/lib" \
				"$_s/nvidia_cuda_runtime_cu11-11.8.89.dist-info" &&
			fake_elf libcudart.so.11.0 "$_s/nvidia/cuda_runtime/lib/libcudart.so.11.0" &&
			printf 'nvidia/cuda_runtime/lib/libcudart.so.11.0,sha256=x,1\n' \
				>"$_s/nvidia_cuda_runtime_cu11-11.8.89.dist-info/RECORD" ;;
	conda)
		_c=$HOME/conda
		senv="CONDA_PREFIX=$_c"
		cuenv add cuda "$HOME/tk/cuda-12.4" >/dev/null &&
			printf 'cuda = 12.4\n' >"$p/.cuenv" &&
			mkdir -p "$_c/lib" "$_c/conda-meta" &&
			fake_elf libcudart.so.11.0 "$_c/lib/libcudart.so.11.8.89" &&
			ln -s libcudart.so.11.8.89 "$_c/lib/libcudart.so.11.0" &&
			printf '{"name": "cudatoolkit", "version": "11.8.0", "files": ["lib/libcudart.so.11.0"]}\n' \
				>"$_c/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json" ;;
	cudnn-mismatch)
		[ -d "$HOME/cudnn-8.9" ] || make_fake_cudnn "$HOME/cudnn-8.9" 8.9.7 11 || return 1
		cuenv add cuda "$HOME/tk/cuda-12.4" >/dev/null &&
			cuenv add cudnn "$HOME/cudnn-8.9" >/dev/null &&
			printf 'cuda = 12.4\ncudnn = 8.9\n' >"$p/.cuenv" ;;
	esac
}

# doctor in the scenario's environment
dr() {
	(cd "$p" && env $senv cuenv doctor --json)
}

# runnable ALT: print the command ALT holds, or nothing (manual)
runnable() {
	case $1 in
	*"by hand"*) return 0 ;;
	"cuenv "* | "cd "*) _c=$1 ;;
	*": "*) _c=${1##*: } ;;
	*) return 0 ;;
	esac
	case $_c in
	"cuenv "* | "cd "*) ;;
	*) return 0 ;;
	esac
	# a placeholder the user fills in
	if printf '%s\n' "$_c" | grep -qw 'PATH\|VERSION\|CMD\|SPEC\|MAJOR\|N'; then
		return 0
	fi
	printf '%s\n' "$_c"
}

doctor_cuda "$HOME/tk/cuda-12.4" 12.4.1 || exit 1
ran=0
for s in missing-cupti not-installed not-in-catalogue pip-wheels conda \
	cudnn-mismatch; do
	scenario "$s" || { fail "cannot build scenario $s"; continue; }
	dr >"$HOME/$s.json" 2>/dev/null
	[ -s "$HOME/$s.json" ] || { fail "$s: no doctor output"; continue; }
	jq -r '.findings[] | select(.severity == "problem") | "\(.id)\t\(.fix)"' \
		"$HOME/$s.json" >"$HOME/$s.fixes"
	[ -s "$HOME/$s.fixes" ] || { fail "$s: doctor found no problem"; continue; }
	while IFS='	' read -r id fix; do
		printf '%s\n' "$fix" | sed 's/; or /\n/g' >"$HOME/alts"
		n=0
		while IFS= read -r alt; do
			n=$((n + 1))
			cmd=$(runnable "$alt")
			if [ -z "$cmd" ]; then
				echo "manual ($s, $id): $alt"
				continue
			fi
			echo "run ($s, $id): $cmd"
			scenario "$s" || { fail "cannot rebuild $s"; break; }
			ran=$((ran + 1))
			if ! (cd "$p" && env $senv sh -c "$cmd") \
				>"$HOME/out" 2>&1; then
				sed 's/^/    | /' "$HOME/out"
				fail "$s: the fix '$cmd' failed as printed"
				continue
			fi
			dr >"$HOME/after.json" 2>/dev/null
			if jq -e --arg id "$id" '.findings[] | select(.id == $id and .severity == "problem")' \
				"$HOME/after.json" >/dev/null; then
				fail "$s: after '$cmd' doctor still reports $id"
			fi
		done <"$HOME/alts"
	done <"$HOME/$s.fixes"
done
[ "$ran" -ge 5 ] || fail "only $ran fixes were runnable"
# `cuenv use 99`: 99 is in no catalogue, so no `cuenv install 99` hint.
scenario not-installed &&
	expect_code 9 env CUENV_SHELL=bash cuenv use 99 &&
	stderr_lacks "cuenv install 99" &&
	stderr_has "hint: cuda 99 is not in cuenv's catalogue" &&
	expect_code 9 env CUENV_SHELL=bash cuenv use 11.8 &&
	stderr_has "hint: install it: cuenv install 11.8"
