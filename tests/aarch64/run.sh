#!/bin/sh
# make test-aarch64's end-to-end part: the aarch64 cuenv, cuenv-net and
# cuenv-probe of CROSS_BUILD, each run by qemu's user-mode emulator (QEMU;
# no binfmt registration: wrappers in CROSS_BUILD/qemu prefix it), through
# the tests of tests/e2e whose names start with one of the words of
# tests/aarch64/e2e-subset.txt (or of CUENV_E2E_SUBSET), and the aarch64
# tests of this folder (tNNNN-*.sh, same lib.sh; those whose names
# contain CUENV_E2E_FILTER; CUENV_AARCH64_OWN=0: none).
#
#   QEMU=qemu-aarch64-static CROSS_BUILD=$PWD/build/aarch64 \
#       sh tests/aarch64/run.sh
#
# Ends with "aarch64 e2e: N passed, N failed, N skipped"; exits 1 on any
# failure.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
: "${CROSS_BUILD:?set CROSS_BUILD to the aarch64 build folder}"
qemu=$(command -v "${QEMU:-qemu-aarch64-static}") || {
	echo "tests/aarch64/run.sh: no ${QEMU:-qemu-aarch64-static}" \
		"(Debian: qemu-user-static)" >&2
	exit 2
}
for b in cuenv cuenv-net cuenv-probe; do
	if [ ! -x "$CROSS_BUILD/$b" ]; then
		echo "tests/aarch64/run.sh: no $CROSS_BUILD/$b" \
			"(make cross-aarch64)" >&2
		exit 2
	fi
done

# cuenv runs cuenv-net and cuenv-probe by path (CUENV_LIBEXEC first): as
# wrappers, since the kernel cannot start an aarch64 program itself.
w=$CROSS_BUILD/qemu
mkdir -p "$w/libexec" || exit 2
wrap() { # FILE PROGRAM [SETUP]
	printf '#!/bin/sh\n%sexec %s %s "$@"\n' "${3-}" "$qemu" "$2" >"$1.tmp" &&
		chmod 755 "$1.tmp" && mv "$1.tmp" "$1"
}
# tests/e2e's fake NVIDIA world (tests/fixtures) is linux-x86_64's: their
# cuenv (fixtures/cuenv) reads the catalogue for it unless a test says
# otherwise; this folder's tests run the plain one, which guesses.
mkdir -p "$w/fixtures" || exit 2
wrap "$w/libexec/cuenv-net" "$CROSS_BUILD/cuenv-net" &&
	wrap "$w/libexec/cuenv-probe" "$CROSS_BUILD/cuenv-probe" &&
	wrap "$w/cuenv" "$CROSS_BUILD/cuenv" \
		"CUENV_LIBEXEC=\${CUENV_LIBEXEC:-$w/libexec}; export CUENV_LIBEXEC
" &&
	wrap "$w/fixtures/cuenv" "$CROSS_BUILD/cuenv" \
		"CUENV_LIBEXEC=\${CUENV_LIBEXEC:-$w/libexec}; export CUENV_LIBEXEC
CUENV_PLATFORM=\${CUENV_PLATFORM:-linux-x86_64}; export CUENV_PLATFORM
" &&
	ln -sf "$CROSS_BUILD/cuenv.1" "$w/cuenv.1" &&
	ln -sf "$CROSS_BUILD/cuenv.1" "$w/fixtures/cuenv.1" &&
	ln -sf "$CROSS_BUILD/cli-gen" "$w/fixtures/cli-gen" || exit 2

passed=0
failed=0
skipped=0
work=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-aarch64.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
out=$work/out
subset=${CUENV_E2E_SUBSET:-$(grep -v '^#' "$here/e2e-subset.txt")}
# add: e2e/run.sh's summary line into the counts
add() {
	set -- $(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p' "$out")
	passed=$((passed + ${1:-0}))
	failed=$((failed + ${2:-1}))
	skipped=$((skipped + ${3:-0}))
}
t0=$(date +%s)
for f in $subset; do
	CUENV_BIN=$w/fixtures/cuenv CUENV_E2E_FILTER=$f sh "$here/../e2e/run.sh" \
		>"$out" 2>&1
	grep -v '^e2e: ' "$out"
	add
done
echo "tests/e2e subset: $passed passed, $failed failed, $skipped skipped" \
	"($(($(date +%s) - t0)) s)"

# This folder's tests, as e2e/run.sh runs its own: the real aarch64
# wheels (online, cached: wheels.py) and this machine's cuenv, when
# built, through the cache folder lib.sh passes in.
if [ "${CUENV_AARCH64_OWN:-1}" = 1 ]; then
	mkdir "$work/cache" || exit 2
	base=$(python3 "$here/wheels.py" fetch) &&
		ln -s "$base" "$work/cache/aarch64-wheels"
	native=${NATIVE_CUENV:-$here/../../build/std/cuenv}
	[ -x "$native" ] && ln -s "$(cd "$(dirname "$native")" && pwd)/cuenv" \
		"$work/cache/native-cuenv"
	n=0
	for t in "$here"/t[0-9]*.sh; do
		name=$(basename "$t" .sh)
		case $name in
		*"${CUENV_E2E_FILTER-}"*) ;;
		*) continue ;;
		esac
		s0=$(date +%s)
		CUENV_BIN=$w/cuenv CUENV_E2E_CACHE=$work/cache \
			timeout -k 5 "${CUENV_E2E_TIMEOUT:-120}" sh "$t" \
			>"$out" 2>&1 </dev/null
		rc=$?
		secs=$(($(date +%s) - s0))
		case $rc in
		0)
			passed=$((passed + 1))
			echo "PASS  $name (${secs}s)"
			;;
		77)
			skipped=$((skipped + 1))
			echo "SKIP  $name: $(sed -n 's/^SKIP: //p' "$out" | head -n 1)"
			;;
		*)
			failed=$((failed + 1))
			echo "FAIL  $name (exit $rc)"
			sed 's/^/    | /' "$out"
			;;
		esac
	done
fi
echo "aarch64 e2e: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
