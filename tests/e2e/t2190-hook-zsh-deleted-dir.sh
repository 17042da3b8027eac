#!/bin/sh
# t2090 (a working directory deleted under the shell) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2090-hook-bash-deleted-dir.sh"
