#!/bin/sh
# Planted-bug checks: measure the test suite by breaking core on purpose.
#
#   sh tools/mutate.sh [ID ...]        (or: make mutate [MUTATE_ONLY="ID ..."])
#
# Each entry of tools/mutations.txt is a one-line change to a security- or
# correctness-critical line of core (a check dropped, a comparison turned).
# For each one, in a scratch copy of the working tree (the tree itself is
# never touched), this script puts the change in, builds in the copy
# (its own build/ folder), and runs the unit tests, then the e2e tests the
# entry names (MUTATE_FULL=1: all of them). A failing test KILLS the mutation;
# when every test passes, it SURVIVED: the suite would not notice that bug.
#
# An entry whose snippet is not found exactly once in its file (the code
# moved on) is reported NOT-FOUND, and one that no longer compiles BROKEN:
# both fail the run, like a survivor, so that the list is kept up to date.
# Entries are found by text, never by line number.
#
#   MUTATE_FULL=1     run every e2e test for every mutation (slow)
#   MUTATE_ONLY       ids to run (space-separated; default all)
#   MUTATE_LIST       the list (default tools/mutations.txt)
#   MUTATE_DIR        scratch folder (default a new mktemp -d; removed at
#                     the end unless MUTATE_KEEP=1)
#   MUTATE_JOBS       make -j (default 2)
#   MUTATE_BASELINE=0 skip the first run of the same tests on the
#                     unchanged tree (which must pass)
#   MUTATE_VERBOSE=1  show the failing tests' output for each mutation
#
# Ends with "mutate: N killed, N survived, N not found, N broken (of N)";
# exits 1 unless every mutation was killed, 2 on a setup failure.

here=$(cd "$(dirname "$0")/.." && pwd) || exit 2
list=${MUTATE_LIST:-$here/tools/mutations.txt}
jobs=${MUTATE_JOBS:-2}
only=${MUTATE_ONLY-}
[ $# -gt 0 ] && only="$*"

if [ ! -f "$list" ]; then
	echo "mutate: no list '$list'" >&2
	exit 2
fi

if [ -n "${MUTATE_DIR-}" ]; then
	scratch=$MUTATE_DIR
	mkdir -p "$scratch" || exit 2
else
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-mutate.XXXXXX") || exit 2
fi
case $scratch in
/*) ;;
*) scratch=$(cd "$scratch" && pwd) || exit 2 ;;
esac
if [ "${MUTATE_KEEP-}" != 1 ] && [ -z "${MUTATE_DIR-}" ]; then
	trap 'rm -rf "$scratch"' EXIT
fi
trap 'exit 130' INT TERM

tree=$scratch/tree
logs=$scratch/logs
pristine=$scratch/pristine
start=$(date +%s)

# ---- the scratch copy -------------------------------------------------------

# The working tree as it is (tracked and untracked files, not ignored
# ones such as build/), so that uncommitted tests count too.
copy_tree() {
	rm -rf "$tree" "$pristine" && mkdir -p "$tree" "$pristine" "$logs" ||
		return 1
	if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$here" && git ls-files -z -co --exclude-standard |
			xargs -0 tar -cf - --no-recursion) |
			(cd "$tree" && tar -xf -)
	else
		(cd "$here" && tar -cf - --exclude=./build --exclude=./.git .) |
			(cd "$tree" && tar -xf -)
	fi
}

# ---- the list ---------------------------------------------------------------

# Print the entries as one line each: id TAB file TAB from TAB to TAB e2e.
# Entries are blocks of "key: value" lines separated by blank lines; a
# value is taken verbatim after the colon and the blanks following it.
parse_list() {
	awk -F '\n' '
	function flush() {
		if (id == "" && file == "" && from == "" && to == "")
			return
		if (id == "" || file == "" || from == "" || to == "") {
			printf "mutate: %s: entry ending on line %d " \
			    "lacks id, file, from or to\n", FILENAME,
			    NR > "/dev/stderr"
			bad = 1
		} else if (from == to) {
			printf "mutate: %s: entry %s changes nothing\n",
			    FILENAME, id > "/dev/stderr"
			bad = 1
		} else if (index(from to id file e2e, "\t")) {
			printf "mutate: %s: entry %s has a tab; write the " \
			    "snippet from its first non-blank\n", FILENAME,
			    id > "/dev/stderr"
			bad = 1
		} else {
			if (id in seen) {
				printf "mutate: %s: duplicate id %s\n",
				    FILENAME, id > "/dev/stderr"
				bad = 1
			}
			seen[id] = 1
			printf "%s\t%s\t%s\t%s\t%s\n", id, file, from, to, e2e
		}
		id = file = from = to = e2e = ""
	}
	/^#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		line = $0
		sub(/\r$/, "", line)
		k = line
		sub(/:.*/, "", k)
		v = substr(line, length(k) + 2)
		sub(/^[ \t]+/, "", v)
		sub(/[ \t]+$/, "", v)
		if (k == "id") id = v
		else if (k == "file") file = v
		else if (k == "from") from = v
		else if (k == "to") to = v
		else if (k == "e2e") e2e = v
		else if (k == "why") ;
		else {
			printf "mutate: %s:%d: unknown key \"%s\"\n", FILENAME,
			    NR, k > "/dev/stderr"
			bad = 1
		}
	}
	END { flush(); exit bad }
	' "$list"
}

# Replace the one occurrence of $FROM in file $1 by $TO (both literal,
# passed through the environment: awk -v would interpret backslashes).
# Prints the line number; exits 3 with the count when it is not one.
apply() {
	awk '
	BEGIN { from = ENVIRON["FROM"]; to = ENVIRON["TO"] }
	{ lines[NR] = $0
	  s = $0
	  while ((i = index(s, from)) > 0) {
		n++
		at = NR
		s = substr(s, i + length(from))
	  } }
	END {
		if (n != 1) {
			print n + 0
			exit 3
		}
		for (l = 1; l <= NR; l++) {
			if (l == at) {
				i = index(lines[l], from)
				lines[l] = substr(lines[l], 1, i - 1) to \
				    substr(lines[l], i + length(from))
			}
			print lines[l] > ENVIRON["OUTFILE"]
		}
		print at
	}' "$1"
}

# ---- building and testing ---------------------------------------------------

run_make() {
	make -C "$tree" -j"$jobs" "$@" </dev/null
}

build_all() {
	run_make all >"$1" 2>&1
}

# Unit tests, then e2e ($1: the entry's filters); prints what failed.
run_tests() {
	_log=$1
	_filters=$2
	# A mutant may loop: the unit tests have no time limit of their own.
	if ! timeout -k 5 "${MUTATE_UNIT_TIMEOUT:-600}" \
		make -C "$tree" -j"$jobs" unit </dev/null >"$_log.unit" 2>&1
	then
		_why=$(sed -n 's/^unit: failing: *//p' "$_log.unit" | tail -n 1)
		echo "unit${_why:+: $_why}"
		return 1
	fi
	if [ "${MUTATE_FULL-}" = 1 ]; then
		_filters=-
	fi
	for _f in $_filters; do
		[ "$_f" = - ] && _f=
		if ! CUENV_E2E_FILTER=$_f run_make e2e >"$_log.e2e" 2>&1; then
			_why=$(sed -n 's/^failed: *//p' "$_log.e2e" | tail -n 1)
			echo "e2e${_why:+: $_why}"
			return 1
		fi
	done
	return 0
}

# Run from `make mutate`, the outer make's options (BUILDROOT=, -j's job
# server) must not reach the copy's make; nor a test filter of the user's.
unset MAKEFLAGS MFLAGS MAKELEVEL CUENV_TEST_FILTER CUENV_E2E_FILTER

# ---- main -------------------------------------------------------------------

# The whole run is one function, read before it starts: editing this file
# (or checking out another branch) while it runs cannot change its course.
main() {
	entries=$scratch/entries
	parse_list >"$entries.all" || exit 2
	if [ -n "$only" ]; then
		: >"$entries"
		for id in $only; do
			if ! awk -F '\t' -v id="$id" \
				'$1 == id { print; f = 1 } END { exit !f }' \
				"$entries.all" >>"$entries"; then
				echo "mutate: no entry '$id' in $list" >&2
				exit 2
			fi
		done
	else
		cp "$entries.all" "$entries"
	fi
	total=$(wc -l <"$entries" | tr -d ' ')
	if [ "$total" -eq 0 ]; then
		echo "mutate: no mutations in $list" >&2
		exit 2
	fi

	echo "mutate: copying the working tree to $tree"
	copy_tree || {
		echo "mutate: cannot copy $here to $tree" >&2
		exit 2
	}

	echo "mutate: building the unchanged tree"
	if ! build_all "$logs/baseline.build"; then
		tail -n 30 "$logs/baseline.build"
		echo "mutate: the unchanged tree does not build" >&2
		exit 2
	fi
	all_filters=$(cut -f5 "$entries" | tr ' ' '\n' | sed '/^$/d' | sort -u |
		tr '\n' ' ')
	if [ "${MUTATE_BASELINE-}" != 0 ]; then
		echo "mutate: testing the unchanged tree" \
			"(unit; e2e: ${all_filters:-none})"
		if ! why=$(run_tests "$logs/baseline" "$all_filters"); then
			cat "$logs/baseline.unit" "$logs/baseline.e2e" \
				2>/dev/null | tail -n 40
			echo "mutate: the unchanged tree fails its tests" \
				"($why): no mutation can be judged" >&2
			exit 2
		fi
	fi

	killed=0
	survived=0
	missing=0
	broken=0
	survivors=
	n=0
	tab=$(printf '\t')
	while IFS=$tab read -r id file from to filters <&3; do
		n=$((n + 1))
		t0=$(date +%s)
		src=$tree/$file
		log=$logs/$id
		if [ ! -f "$src" ]; then
			echo "NOT-FOUND  $id: no file $file"
			missing=$((missing + 1))
			survivors="$survivors $id"
			continue
		fi
		mkdir -p "$(dirname "$pristine/$file")"
		[ -f "$pristine/$file" ] || cp "$src" "$pristine/$file"
		if ! at=$(FROM=$from TO=$to OUTFILE=$src.mutant \
			apply "$pristine/$file"); then
			echo "NOT-FOUND  $id: '$from' occurs ${at:-?} times" \
				"in $file (must be once)"
			rm -f "$src.mutant"
			missing=$((missing + 1))
			survivors="$survivors $id"
			continue
		fi
		mv "$src.mutant" "$src"
		echo "[$n/$total] $id: $file:$at: $to"
		if ! build_all "$log.build"; then
			echo "BROKEN     $id: does not build (see below)"
			grep -m 5 'error' "$log.build" | sed 's/^/    | /'
			broken=$((broken + 1))
			survivors="$survivors $id"
		elif why=$(run_tests "$log" "$filters"); then
			echo "SURVIVED   $id ($(($(date +%s) - t0))s)"
			survived=$((survived + 1))
			survivors="$survivors $id"
		else
			echo "KILLED     $id by $why ($(($(date +%s) - t0))s)"
			if [ "${MUTATE_VERBOSE-}" = 1 ]; then
				cat "$log.unit" "$log.e2e" 2>/dev/null |
					grep -v '^  ok \|^PASS ' |
					sed 's/^/    | /'
			fi
			killed=$((killed + 1))
		fi
		# Back to the original, with a new mtime: make rebuilds it.
		cp "$pristine/$file" "$src" && touch "$src"
	done 3<"$entries"

	secs=$(($(date +%s) - start))
	[ -n "$survivors" ] && echo "not killed:$survivors"
	echo "(${secs}s)"
	echo "mutate: $killed killed, $survived survived, $missing not found," \
		"$broken broken (of $total)"
	[ "$killed" -eq "$total" ]
}

main
exit
