#!/bin/sh
# tools/outside-open-check (make layers, CI) passes on the tree as it is,
# and fails, naming the file, line and function, on a copy with a raw
# open of a file planted outside core/plat: fopen, open, jansson's
# json_load_file, plat_open for reading; an allow-list entry that
# matches nothing, or has no reason, is an error too. An open in a
# comment or a string, one in core/plat, and plat_open of a folder or
# for writing are no finding.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
need python3
t=$HOME/tree
fresh() {
	rm -rf "$t" && mkdir -p "$t/tools" &&
		cp -R "$src/core" "$src/cmd" "$t/" &&
		cp "$src/tools/outside-open-check" \
			"$src/tools/outside-open-allow.txt" "$t/tools/"
}
oc() { python3 "$t/tools/outside-open-check" --root "$t"; }
# plant FILE LINE...: append C lines to FILE, returning the first one's number
plant() {
	_f=$t/$1
	shift
	_at=$(($(wc -l <"$_f") + 1))
	printf '%s\n' "$@" >>"$_f"
}

fresh &&
	expect_code 0 oc &&
	stdout_has " 0 raw opens outside core/plat," || exit 1

# version_json as it was: jansson opening the file itself
fresh &&
	plant core/store/detect.c \
		'static json_t *planted_version_json(const char *path)' \
		'{' '	return json_load_file(path, 0, NULL);' '}' &&
	expect_code 1 oc &&
	stdout_has "core/store/detect.c:$((_at + 2)): json_load_file in planted_version_json" &&
	stdout_has " 1 raw opens outside core/plat," || exit 1

fresh &&
	plant cmd/use.c 'static FILE *planted(const char *p)' '{' \
		'	return fopen(p, "r");' '}' &&
	expect_code 1 oc &&
	stdout_has "cmd/use.c:$((_at + 2)): fopen in planted" || exit 1

fresh &&
	plant core/select/env.c 'static int planted(const char *p)' '{' \
		'	return open(p, O_RDONLY);' '}' &&
	expect_code 1 oc &&
	stdout_has "core/select/env.c:$((_at + 2)): open in planted" || exit 1

fresh &&
	plant core/needs/needs_scan.c 'static int planted(const char *p)' '{' \
		'	return plat_open(p, PLAT_O_READ | PLAT_O_NOFOLLOW, 0);' '}' &&
	expect_code 1 oc &&
	stdout_has "core/needs/needs_scan.c:$((_at + 2)): plat_open in planted" ||
	exit 1

# comments, strings, core/plat, folders and writes are no finding
fresh &&
	plant core/select/env.c '/* fopen(p, "r") */' '// open(p, 0)' \
		'static const char planted[] = "json_load_file(p, 0, NULL)";' \
		'static int planted_dir(const char *p)' '{' \
		'	return plat_open(p, PLAT_O_READ | PLAT_O_DIR, 0);' '}' \
		'static int planted_lock(const char *p)' '{' \
		'	return plat_open(p, PLAT_O_WRITE | PLAT_O_CREATE, 0644);' '}' &&
	plant core/plat/file.c 'static FILE *planted(const char *p)' '{' \
		'	return fopen(p, "r");' '}' &&
	expect_code 0 oc || exit 1

# an entry the tree no longer needs is an error, and so is one with no reason
fresh &&
	printf 'core/base/buf.c  buf_init  fopen  # stale\n' \
		>>"$t/tools/outside-open-allow.txt" &&
	expect_code 1 oc &&
	stdout_has "core/base/buf.c: allowed fopen in buf_init, but no longer there" || exit 1
fresh &&
	printf 'core/base/buf.c  buf_init  fopen\n' \
		>>"$t/tools/outside-open-allow.txt" &&
	expect_code 2 oc &&
	stderr_has "want PATH FUNCTION CALLEE # why" || exit 1
