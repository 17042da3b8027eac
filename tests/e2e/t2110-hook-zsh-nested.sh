#!/bin/sh
# t2010 (nested projects, global default, changes at the prompt) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2010-hook-bash-nested.sh"
