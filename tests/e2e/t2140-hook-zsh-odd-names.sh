#!/bin/sh
# t2040 (odd folder names, nothing executed) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2040-hook-bash-odd-names.sh"
