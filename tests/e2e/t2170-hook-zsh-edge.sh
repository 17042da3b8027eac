#!/bin/sh
# t2070 (set -u, the user's precmd, loading twice, empty path entries) in
# zsh.
hook_shell=zsh
. "$(dirname "$0")/t2070-hook-bash-edge.sh"
