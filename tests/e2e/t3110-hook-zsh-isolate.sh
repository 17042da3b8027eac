#!/bin/sh
# t3010 (shadowing warning, isolate strips and restores) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t3010-hook-bash-isolate.sh"
