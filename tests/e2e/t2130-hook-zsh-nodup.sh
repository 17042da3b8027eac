#!/bin/sh
# t2030 (no duplicates after many cd's, user entries put back) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2030-hook-bash-nodup.sh"
