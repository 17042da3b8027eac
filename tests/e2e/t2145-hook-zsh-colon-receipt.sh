#!/bin/sh
# t2045 (a receipt naming a folder with ':' never reaches PATH) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2045-hook-bash-colon-receipt.sh"
