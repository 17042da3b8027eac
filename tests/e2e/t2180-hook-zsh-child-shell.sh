#!/bin/sh
# t2080 (a child shell of an activated shell) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2080-hook-bash-child-shell.sh"
