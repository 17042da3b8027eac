#!/bin/sh
# t2060 (no process at an unchanged prompt, one per cd) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2060-hook-bash-no-process.sh"
