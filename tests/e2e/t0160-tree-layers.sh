#!/bin/sh
# tools/layer-check (make layers, CI) passes on the tree as it is, and
# fails, naming the file and line, on a copy with an include planted that
# runs up a layer, one between peer folders, a circle of two modules, or
# a file outside the layer folders.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../..
need python3
t=$HOME/tree
fresh() {
	rm -rf "$t" && mkdir -p "$t/tools" &&
		cp -R "$src/core" "$src/cmd" "$t/" &&
		cp "$src/tools/layer-check" "$t/tools/"
}
lc() { python3 "$t/tools/layer-check" --root "$t"; }

fresh &&
	expect_code 0 lc &&
	stdout_has ", 0 breaches (0 circles)," || exit 1

# base calls up into install
fresh && printf '#include "install/install.h"\n' >>"$t/core/base/buf.c" &&
	expect_code 1 lc &&
	stdout_has "core/base/buf.c:" &&
	stdout_has "install (layer 9) is above base (layer 0)" || exit 1

# needs and doctor are peers: neither includes the other
fresh && printf '#include "doctor/doctor.h"\n' >>"$t/core/needs/needs_match.c" &&
	expect_code 1 lc &&
	stdout_has "core/needs/needs_match.c:" &&
	stdout_has "doctor (layer 7) is beside needs (layer 7)" || exit 1

# a circle inside one folder
fresh && printf '#include "base/buf.h"\n' >>"$t/core/base/xalloc.h" &&
	expect_code 1 lc &&
	stdout_has "circle: core/base/buf, core/base/xalloc include each other" ||
	exit 1

# a module left outside the folders
fresh && : >"$t/core/stray.c" &&
	expect_code 1 lc &&
	stdout_has "core/stray.c: not in a layer folder of core/" || exit 1
