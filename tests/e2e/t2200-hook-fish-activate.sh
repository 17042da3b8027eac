#!/bin/sh
# The hook in a real fish: cd into a project activates it (the handler runs
# on PWD changes), a subfolder keeps it, cd out restores exactly the
# user's values. `emit fish_prompt` stands for a prompt.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn_cuda12-archive
need fish &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir -p proj/src && printf 'cuda = 12.4\ncudnn = 9\n' >proj/.cuenv &&
	user_path=$HOME/userbin:$PATH &&
	before="PATH=$user_path
LD_LIBRARY_PATH=/user/lib
LIBRARY_PATH=<unset>
CPATH=<unset>
CUDA_HOME=/user/value
CUDA_PATH=<unset>
CUDNN_PATH=<unset>
CUENV_ACTIVE=<unset>" &&
	inside="PATH=$c/bin:$user_path
LD_LIBRARY_PATH=$n/lib:$c/lib64:/user/lib
LIBRARY_PATH=$n/lib:$c/lib64
CPATH=$n/include:$c/include
CUDA_HOME=$c
CUDA_PATH=$c
CUDNN_PATH=$n
CUENV_ACTIVE=12.4.1+cudnn9.1.0" &&
	expect_stdout "$before
-- proj
$inside
$c/bin/nvcc
-- proj/src
$inside
-- home
$before
-- again
$inside
$before" hook_session fish <<'EOF_SESSION' &&
set -gx PATH $HOME/userbin $PATH
set -gx LD_LIBRARY_PATH /user/lib
set -gx CUDA_HOME /user/value
cuenv init fish | source
function show
    for v in PATH LD_LIBRARY_PATH LIBRARY_PATH CPATH CUDA_HOME CUDA_PATH CUDNN_PATH CUENV_ACTIVE
        if set -q $v
            set -l val (string join : -- $$v)
            echo "$v=$val"
        else
            echo "$v=<unset>"
        end
    end
end
emit fish_prompt
show
cd proj
emit fish_prompt
echo "-- proj"; show; command -v nvcc
cd src
emit fish_prompt
echo "-- proj/src"; show
cd $HOME
emit fish_prompt
echo "-- home"; show
echo "-- again"
cd proj; show; cd ..; show
EOF_SESSION
	no_cuenv_errors
