#!/bin/sh
# t2090 (a working directory deleted under the shell) in fish.
hook_shell=fish
. "$(dirname "$0")/t2090-hook-bash-deleted-dir.sh"
