#!/bin/sh
# Issue 23: an install that adds a component (libcublas) to an installed
# toolkit (cuda_cudart only), killed (-9) at several points of the add:
# during the download, after its last byte, and at random moments after
# (resolving, extracting, assembling, swapping the folders). Each kill
# leaves the version as it was (its receipt unchanged, its cudart
# loading, no libcublas) or, past the swap, whole with libcublas; never
# a mix. A rerun completes the add, with .staging empty.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror || exit 1
p=$(comp 12.4.1 libcublas path) &&
	sha=$(comp 12.4.1 libcublas sha256) &&
	size=$(comp 12.4.1 libcublas size) || exit 1
part=$CUENV_ROOT/cache/$sha.part

wait_part() {
	_n=0
	while [ "$(stat -c %s "$part" 2>/dev/null || echo 0)" -lt "$1" ] &&
		[ "$_n" -lt 1000 ]; do
		sleep 0.01
		_n=$((_n + 1))
	done
}

mkdir p && printf 'cuda = 12.4.1\n' >p/.cuenv || exit 1
r=0
added=0
while [ "$r" -lt 8 ]; do
	r=$((r + 1))
	rm -rf "$CUENV_ROOT"
	serve_faults '{}'
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart || break
	cp "$v/.cuenv-receipt" "$HOME/receipt.old"
	delay=$(awk -v r="$r" 'BEGIN { srand(r * 7919); printf "%.2f", rand() * 0.4 }')
	case $r in
	1 | 2)
		how="during the download"
		serve_faults "{\"$p\": {\"trickle\": $size}}"
		;;
	3 | 4)
		how="after the last byte"
		serve_faults "{\"$p\": {\"hold_end\": 10}}"
		;;
	*) how="${delay}s after the start" ;;
	esac
	cuenv install 12.4.1 --components cuda_cudart,libcublas \
		>"$HOME/kill.out" 2>"$HOME/kill.err" &
	pid=$!
	case $r in
	1 | 2) wait_part 1 && sleep "$delay" ;;
	3 | 4) wait_part "$size" && sleep "$delay" ;;
	*) sleep "$delay" ;;
	esac
	kill9 "$pid"
	serve_faults '{}'
	if grep -q '"libcublas"' "$v/.cuenv-receipt"; then
		added=$((added + 1))
		check "round $r (kill $how): the receipt names libcublas, the version lacks it" \
			[ -f "$v/lib/libcublas.so.12" ] || break
	else
		check "round $r (kill $how): the receipt changed" \
			cmp -s "$HOME/receipt.old" "$v/.cuenv-receipt" &&
			check "round $r (kill $how): libcublas is there, unrecorded" \
				[ ! -e "$v/lib/libcublas.so.12" ] || break
	fi
	expect_stdout "0 12040" dlver "$v/lib/libcudart.so.12" cudaRuntimeGetVersion &&
		expect_stdout "  cuda   12.4.1                $v" cuenv versions &&
		expect_code 0 cuenv install 12.4.1 --components cuda_cudart,libcublas &&
		check "round $r (kill $how): the rerun left libcublas out" \
			[ -f "$v/lib/libcublas.so.12" ] &&
		check "round $r (kill $how): the receipt lacks libcublas" \
			grep -q '"libcublas"' "$v/.cuenv-receipt" &&
		(cd p && expect_stdout "$v/lib/libcudart.so.12" cuenv which libcudart.so.12) &&
		staging_empty || break
done
# the kills before the swap are most; say how many came after it
echo "kills after the swap: $added of $r" >&2
[ ! -e "$E2E_SANDBOX/.failed" ] || exit 1

# What a kill between the swap and the old folder's removal leaves (the
# old folder in .staging, its lock file held by nobody) goes at the next
# install, also one that finds the version done.
mkdir -p "$CUENV_ROOT/.staging/install-dead/lib" &&
	: >"$CUENV_ROOT/.staging/install-dead/lib/libcudart.so.12" &&
	: >"$CUENV_ROOT/.staging/install-dead.lock" &&
	expect_code 0 cuenv install 12.4.1 --components cuda_cudart &&
	stdout_has "cuda 12.4.1 is already installed" &&
	staging_empty
