# lib-split.sh: sourced after lib.sh and lib-install.sh by the tests of
# archive sets that are only dangerous together (tests/fixtures/mksplit.py).
#
#   OUTSIDE           $E2E_SANDBOX/outside: the folder the hostile sets aim
#                     at, outside the store (empty until something escapes)
#   SPLIT             $HOME/split: where split builds its case
#   split CASE        build mksplit.py's CASE into SPLIT, aimed at OUTSIDE
#   chain ROOT        mksplit.py's folder chain: ROOT/a2/.../a24
#   nothing_outside   OUTSIDE is empty, no pwned-* file exists in the
#                     sandbox outside the store, no version is installed
#                     and .staging holds nothing

OUTSIDE=$E2E_SANDBOX/outside
SPLIT=$HOME/split

split() {
	need python3 &&
		mkdir -p "$OUTSIDE" &&
		python3 "$FX_SRC/mksplit.py" "$SPLIT" "$1" "$OUTSIDE" || {
		fail "tests/fixtures/mksplit.py could not build $1"
		return 1
	}
}

chain() {
	_c=$1
	_i=2
	while [ "$_i" -le 24 ]; do
		_c=$_c/a$_i
		_i=$((_i + 1))
	done
	printf '%s\n' "$_c"
}

nothing_outside() {
	_left=$(ls -A "$OUTSIDE")
	[ -z "$_left" ] || {
		fail "written outside the store, in $OUTSIDE: $_left"
		return 1
	}
	_left=$(find "$E2E_SANDBOX" -path "$CUENV_ROOT" -prune -o \
		-name 'pwned-*' -print)
	[ -z "$_left" ] || {
		fail "written outside the store: $_left"
		return 1
	}
	_left=$(ls -A "$CUENV_ROOT/versions/cuda" 2>/dev/null)
	[ -z "$_left" ] || {
		fail "installed: $_left"
		return 1
	}
	staging_empty
}
