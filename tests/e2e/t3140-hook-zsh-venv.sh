#!/bin/sh
# t3040 (a real venv's wheels and its deactivate) in a real zsh.
hook_shell=zsh
. "$(dirname "$0")/t3040-hook-bash-venv.sh"
