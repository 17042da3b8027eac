#!/bin/sh
# t2095 (the user's ERR trap fires once per failing command) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2095-hook-bash-err-trap.sh"
