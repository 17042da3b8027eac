#!/bin/sh
# t2020 (cuenv use and use --unset through the integration) in zsh.
hook_shell=zsh
. "$(dirname "$0")/t2020-hook-bash-use.sh"
