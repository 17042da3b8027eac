#!/bin/sh
# The prompt hook in a real interactive bash: cd into a project activates
# it (PATH, LD_LIBRARY_PATH, LIBRARY_PATH, CPATH, CUDA_HOME, ...), a
# subfolder keeps it, cd out restores exactly the user's values, and $?
# survives the hook. t2100 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
n=$t/cudnn_cuda12-archive
need "$hook_shell" &&
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
-- status
status=1
status=3
status=1
-- status across an activation
status=1
status=7
$inside
$before" hook_session "$hook_shell" <<'EOF_SESSION' &&
export PATH="$HOME/userbin:$PATH" LD_LIBRARY_PATH=/user/lib CUDA_HOME=/user/value
eval "$(cuenv init $0)"
show() { for v in PATH LD_LIBRARY_PATH LIBRARY_PATH CPATH CUDA_HOME CUDA_PATH CUDNN_PATH CUENV_ACTIVE; do eval "printf '%s=%s\n' $v \"\${$v-<unset>}\""; done; }
show
cd proj
echo "-- proj"; show; command -v nvcc
cd src
echo "-- proj/src"; show
cd "$HOME"
echo "-- home"; show
echo "-- status"
false
echo "status=$?"
(exit 3)
echo "status=$?"
cd proj; false
echo "status=$?"
echo "-- status across an activation"
cd ..; false
echo "status=$?"
cd proj; (exit 7)
echo "status=$?"
show
cd ..
show
EOF_SESSION
	no_cuenv_errors
