#!/bin/sh
# cuenv modules --format tcl: the real Environment Modules loads,
# switches and unloads cuenv's CUDA and cuDNN modules, giving what
# `cuenv env` gives, variable by variable.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-modules.sh"

# Debian's environment-modules conflicts with lmod, so .ci/deps unpacks
# it under /opt/environment-modules when lmod is installed: its init
# script then names modulecmd.tcl under /usr, rewritten here.
init=/usr/share/modules/init/bash
if [ ! -r "$init" ] || [ -e /usr/share/lmod/lmod/init/bash ]; then
	opt=/opt/environment-modules
	[ -r "$opt$init" ] || skip "Environment Modules is not installed" \
		"(Debian: apt-get install environment-modules, or see .ci/deps)"
	sed "s|'/usr/lib/|'$opt/usr/lib/|g" "$opt$init" >"$HOME/init.bash"
	init=$HOME/init.bash
fi
modules_setup &&
	expect_code 0 cuenv modules --format tcl "$HOME/mods" &&
	stdout_has "$HOME/mods/cuda/12.4.1" &&
	stdout_has "$HOME/mods/cudnn/9.1.0-cuda12" &&
	stdout_lacks ".lua" &&
	modules_session "$init"
