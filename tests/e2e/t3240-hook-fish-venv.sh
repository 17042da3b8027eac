#!/bin/sh
# t3040 (a real venv's wheels and its deactivate) in a real fish.
hook_shell=fish
. "$(dirname "$0")/t3040-hook-bash-venv.sh"
