#!/bin/sh
# tools/tidy-one.sh FILE FLAGS...: clang-tidy one file (make lint), its
# "N warnings generated." lines (from headers, not reported) dropped.
#
# With CUENV_LINT_CACHE (a folder; CI's cache), a file found clean before
# is not read again while nothing that decides the answer has changed:
# the key is the sha256 of clang-tidy's version, .clang-tidy, the flags
# and the file as the preprocessor gives it with its comments (-C: its
# NOLINTs) and every header it includes. Only a clean answer is kept.
file=$1
shift
key=
if [ -n "${CUENV_LINT_CACHE-}" ]; then
	key=$({
		clang-tidy --version
		cat .clang-tidy
		printf '%s\n' "$file" "$@"
		clang -E -C "$@" "$file" 2>&1
	} | sha256sum | cut -c1-64) || key=
	# a hit is touched: what tools/ci-cache.sh prune removes first is
	# what no run has used for longest
	[ -n "$key" ] && [ -e "$CUENV_LINT_CACHE/$key" ] &&
		touch "$CUENV_LINT_CACHE/$key" && exit 0
fi
out=$(clang-tidy --quiet "$file" -- "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v -e '^[0-9]* warnings* generated\.$' -e '^$'
if [ "$rc" = 0 ] && [ -n "$key" ]; then
	mkdir -p "$CUENV_LINT_CACHE" && : >"$CUENV_LINT_CACHE/$key"
fi
exit "$rc"
