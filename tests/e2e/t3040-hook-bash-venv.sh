#!/bin/sh
# ONLINE (lib-venv.sh): the prompt hook and a real venv (python3 -m venv,
# NVIDIA's wheels from the index; its own activate and deactivate) in a
# real interactive bash; t3140 runs it in zsh, t3240 in fish.
#  - A venv activated inside a project is noticed at the next prompt
#    (VIRTUAL_ENV is part of the hook's key): its wheels' folders go
#    ahead of CUDA 12.0's on LD_LIBRARY_PATH and the loader maps the
#    venv's own cuSPARSE and nvJitLink (issue 21 item 1); deactivated,
#    CUDA 12.0's folders are alone again.
#  - The venv's deactivate puts back the PATH it saved: after leaving the
#    project that PATH holds no toolkit folder, and after entering one it
#    holds the toolkit's (issue 21 item 8: cuenv keeps its PATH entries
#    the same in _OLD_VIRTUAL_PATH).
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-venv.sh"

c=$HOME/toolkits/cuda-12.0
v=$HOME/venv
p0=$PATH
act=$v/bin/activate
[ "$hook_shell" = fish ] && act=$v/bin/activate.fish
need "$hook_shell" && need cc &&
	make_wheel_venv "$v" &&
	make_old_cuda12 "$c" &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.0\n' >proj/.cuenv &&
	printf '%s\n' "$LOADS_PY" >"$HOME/loads.py" &&
	sp=$NV/cusparse/lib/libcusparse.so.12 &&
	expect_stdout "-- project
PATH=$c/bin:$p0
LD_LIBRARY_PATH=$c/lib64
-- venv activated in it
PATH=$c/bin:$v/bin:$p0
LD_LIBRARY_PATH=$NV/cuda_runtime/lib:$NV/nvjitlink/lib:$c/lib64
$NV/cusparse/lib/libcusparse.so.12
$NV/nvjitlink/lib/libnvJitLink.so.12
-- left the project
PATH=$v/bin:$p0
LD_LIBRARY_PATH=
-- deactivated
PATH=$p0
LD_LIBRARY_PATH=
-- venv activated outside, project entered, deactivated
PATH=$c/bin:$p0
LD_LIBRARY_PATH=$c/lib64
-- left
PATH=$p0
LD_LIBRARY_PATH=" hook_session "$hook_shell" <<EOF_SESSION &&
$(if [ "$hook_shell" = fish ]; then
		echo 'cuenv init fish | source'
		echo 'function show; echo "PATH=$PATH" | string replace -a " " ":"; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" | string replace -a " " ":"; end'
		echo 'function p; emit fish_prompt; end'
	else
		echo 'eval "$(cuenv init '"$hook_shell"')"'
		echo 'show() { echo "PATH=$PATH"; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}"; }'
		echo 'p() { :; }'
	fi)
cd proj
echo "-- project"; show
. $act
p
echo "-- venv activated in it"; show
python3 $HOME/loads.py $sp
cd ..
p
echo "-- left the project"; show
deactivate
p
echo "-- deactivated"; show
. $act
p
cd proj
p
deactivate
p
echo "-- venv activated outside, project entered, deactivated"; show
cd ..
p
echo "-- left"; show
true
EOF_SESSION
	no_cuenv_errors
