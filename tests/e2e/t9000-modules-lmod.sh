#!/bin/sh
# cuenv modules (Lua): the real Lmod loads, switches and unloads cuenv's
# CUDA and cuDNN modules, giving what `cuenv env` gives, variable by
# variable.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-modules.sh"

init=/usr/share/lmod/lmod/init/bash
[ -r "$init" ] || skip "Lmod is not installed (Debian: apt-get install lmod)"
modules_setup &&
	expect_code 0 cuenv modules "$HOME/mods" &&
	stdout_has "$HOME/mods/cuda/12.4.1.lua" &&
	stdout_has "$HOME/mods/cuda/12.6.0.lua" &&
	stdout_has "$HOME/mods/cudnn/9.1.0-cuda12.lua" &&
	check "no temporary files left" \
		[ -z "$(find "$HOME/mods" -name '*.tmp.*')" ] &&
	modules_session "$init"
# Rerunning replaces the files in place.
expect_code 0 cuenv modules "$HOME/mods" &&
	stdout_has "$HOME/mods/cuda/12.4.1.lua"
expect_code 2 cuenv modules --format yaml &&
	stderr_has "unknown format"
