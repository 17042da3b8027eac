#!/bin/sh
# t2050 (malicious .cuenv files rejected, nothing executed) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2050-hook-bash-malicious.sh"
