#!/bin/sh
# make install and make uninstall: put files in place and remember what
# was put and which folders were made, so that uninstall removes exactly
# that and nothing else (not a file another install owns, not a folder
# that was there before).
#
#   sh tools/install.sh dirs DIR...          create DIRs (and their
#                                            parents), recording each one
#                                            made
#   sh tools/install.sh file MODE SRC DEST   install SRC as DEST
#   sh tools/install.sh tree SRC DEST        copy the folder SRC as DEST,
#                                            replacing an older copy
#   sh tools/install.sh uninstall            remove what the record names
#
# Paths are the installed tree's (PREFIX-based); DESTDIR, from the
# environment, goes in front of each on disk. RECORD (environment) is the
# record's path, also without DESTDIR: one line per thing, "f PATH" (a
# file), "t PATH" (a tree of cuenv's own), "d PATH" (a folder made). The
# record's own folder is always among those made or found, so that it
# can be written.
set -eu
: "${RECORD:?}"
DESTDIR=${DESTDIR-}

# note KIND PATH: append to the record unless it is there already.
note() {
	if [ -f "$DESTDIR$RECORD" ] && grep -qxF "$1 $2" "$DESTDIR$RECORD"; then
		return 0
	fi
	printf '%s %s\n' "$1" "$2" >>"$DESTDIR$RECORD"
}

# made DIR: DIR and those above it that do not exist yet, outermost first
# (DESTDIR itself is not the install's).
made() {
	p=$1
	out=
	while [ "$p" != / ] && [ -n "$p" ] && [ ! -d "$DESTDIR$p" ]; do
		out="$p
$out"
		p=$(dirname "$p")
	done
	printf '%s' "$out"
}

case ${1-} in
dirs)
	shift
	new=
	for d in "$(dirname "$RECORD")" "$@"; do
		new="$new$(made "$d")
"
		mkdir -p "$DESTDIR$d"
	done
	printf '%s' "$new" | while IFS= read -r d; do
		[ -z "$d" ] || note d "$d"
	done
	;;
file)
	[ $# -eq 4 ] || { echo "usage: $0 file MODE SRC DEST" >&2; exit 2; }
	install -m "$2" "$3" "$DESTDIR$4"
	note f "$4"
	;;
tree)
	[ $# -eq 3 ] || { echo "usage: $0 tree SRC DEST" >&2; exit 2; }
	rm -rf "$DESTDIR$3"
	cp -R "$2" "$DESTDIR$3"
	note t "$3"
	;;
uninstall)
	rec=$DESTDIR$RECORD
	[ -f "$rec" ] || exit 0
	# Files and trees first, then the record, then the folders made,
	# deepest first, each only if nothing else is in it now.
	sed -n 's/^f //p' "$rec" | while IFS= read -r f; do
		rm -f "$DESTDIR$f"
	done
	sed -n 's/^t //p' "$rec" | while IFS= read -r t; do
		rm -rf "$DESTDIR$t"
	done
	dirs=$(sed -n 's/^d //p' "$rec" | awk '{ print length($0) "\t" $0 }' |
		sort -rn | cut -f2-)
	rm -f "$rec"
	printf '%s\n' "$dirs" | while IFS= read -r d; do
		[ -z "$d" ] || rmdir "$DESTDIR$d" 2>/dev/null || :
	done
	;;
*)
	echo "usage: $0 dirs|file|tree|uninstall ..." >&2
	exit 2
	;;
esac
