#!/bin/sh
# make install puts each completion script where that shell looks, asked of
# the real shells: for PREFIX=/usr/local, zsh's fpath holds the folder of
# _cuenv (it was share/zsh/vendor-completions, which zsh does not search
# there), and fish's fish_complete_path that of cuenv.fish once
# XDG_DATA_DIRS names /usr/local/share, as the README says (the file stays
# in the prefix, never /etc); for PREFIX=~/.local, fish and
# bash-completion load cuenv's completion by themselves.
. "$(dirname "$0")/lib.sh"

src=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
need make
d=$HOME/dest
expect_code 0 make -s -C "$src" install-extras DESTDIR="$d" PREFIX=/usr/local &&
	(cd "$d" && find . -type f | sed 's/^\.//' | sort) >"$HOME/files" &&
	cat "$HOME/files" &&
	zdir=$(sed -n 's|/_cuenv$||p' "$HOME/files") &&
	fdir=$(sed -n 's|/cuenv\.fish$||p' "$HOME/files") &&
	check "no _cuenv installed" [ -n "$zdir" ] &&
	check "no cuenv.fish installed" [ -n "$fdir" ] || exit 1
if command -v zsh >/dev/null 2>&1; then
	zsh -f -c 'print -l $fpath' >"$HOME/fpath" &&
		check "zsh does not search $zdir" grep -qx "$zdir" "$HOME/fpath"
fi
if command -v fish >/dev/null 2>&1; then
	XDG_DATA_DIRS=/usr/local/share:/usr/share \
		fish -c 'string join \n $fish_complete_path' >"$HOME/fpath" &&
		check "fish does not search $fdir" grep -qx "$fdir" "$HOME/fpath"
fi

# PREFIX=~/.local, for real: the shells find it with no setup
expect_code 0 make -s -C "$src" install-extras PREFIX="$HOME/.local" || exit 1
if command -v fish >/dev/null 2>&1; then
	expect_code 0 fish -c 'complete -C "cuenv ver"' &&
		stdout_has "versions" || exit 1
fi
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ] && command -v bash >/dev/null 2>&1; then
	expect_code 0 bash --norc --noprofile -c ". $bc && __load_completion cuenv && complete -p cuenv" &&
		stdout_has "complete -F _cuenv cuenv"
fi
