#!/bin/sh
# t2000 (activation, restore, $?) in a real interactive zsh.
hook_shell=zsh
. "$(dirname "$0")/t2000-hook-bash-activate.sh"
