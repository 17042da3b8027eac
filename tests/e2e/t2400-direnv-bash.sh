#!/bin/sh
# direnv: `cuenv init direnv` as a direnv library, a project's .envrc with
# `use cuenv`, the real direnv hooked into a real interactive bash. cd
# into the project (after `direnv allow`) activates its .cuenv selection
# (PATH, LD_LIBRARY_PATH, CUDA_HOME, ...), a subfolder keeps it, cd out
# restores the user's values; editing .cuenv reloads; `use cuenv 11.8`
# picks that version.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
c=$t/cuda-12.4
c11=$t/cuda-11.8
need bash && need direnv &&
	make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$c11" 11.8.0 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$c11" >/dev/null &&
	mkdir -p "$HOME/.config/direnv/lib" proj/src proj11 &&
	cuenv init direnv >"$HOME/.config/direnv/lib/cuenv.sh" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	echo 'use cuenv' >proj/.envrc &&
	echo 'use cuenv 11.8' >proj11/.envrc &&
	direnv allow proj && direnv allow proj11 &&
	user_path=$HOME/userbin:$PATH &&
	before="PATH=$user_path
LD_LIBRARY_PATH=/user/lib
CUDA_HOME=/user/value
CUENV_ACTIVE=<unset>" &&
	inside="PATH=$c/bin:$user_path
LD_LIBRARY_PATH=$c/lib64:/user/lib
CUDA_HOME=$c
CUENV_ACTIVE=12.4.1" &&
	expect_stdout "$before
-- proj
$inside
$c/bin/nvcc
-- proj/src
$inside
-- home
$before
-- proj, .cuenv edited
CUENV_ACTIVE=11.8.0 CUDA_HOME=$c11
-- home
$before
-- proj11
CUENV_ACTIVE=11.8.0 CUDA_HOME=$c11
-- home
$before" hook_session bash <<'EOF_SESSION' &&
export PATH="$HOME/userbin:$PATH" LD_LIBRARY_PATH=/user/lib CUDA_HOME=/user/value
eval "$(direnv hook bash)"
show() { for v in PATH LD_LIBRARY_PATH CUDA_HOME CUENV_ACTIVE; do eval "printf '%s=%s\n' $v \"\${$v-<unset>}\""; done; }
show
cd proj
echo "-- proj"; show; command -v nvcc
cd src
echo "-- proj/src"; show
cd "$HOME"
echo "-- home"; show
cd proj
sleep 1; printf 'cuda = 11.8\n' >.cuenv
true
echo "-- proj, .cuenv edited"; echo "CUENV_ACTIVE=$CUENV_ACTIVE CUDA_HOME=$CUDA_HOME"
cd "$HOME"
echo "-- home"; show
cd proj11
echo "-- proj11"; echo "CUENV_ACTIVE=$CUENV_ACTIVE CUDA_HOME=$CUDA_HOME"
cd "$HOME"
echo "-- home"; show
EOF_SESSION
	no_cuenv_errors
