#!/bin/sh
# Three CUDA releases from three kinds of source side by side in one root:
# 11.2 from its runfile installer with cuDNN 8.1 from a tarball, 11.8 from
# redist archives, 12.4 with cuDNN 9 from redist archives. Then, in a real
# interactive bash with the integration, `cuenv use` switches between them:
# `cuenv which` and the dynamic loader (dlopen by soname through
# LD_LIBRARY_PATH) find the selected files, CUPTI included (the runfile
# keeps it under extras/CUPTI/lib64), and switching drops the old dirs.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

r=$CUENV_ROOT/versions
c112=$r/cuda/11.2.2
c118=$r/cuda/11.8.0
c124=$r/cuda/12.4.1
n8=$r/cudnn/8.1.1.33-cuda11
n9=$r/cudnn/9.1.0.70-cuda12
need bash &&
	use_mirror &&
	_dltool &&
	expect_code 0 cuenv install 11.2 --cudnn 8.1 &&
	stderr_has "cuenv: installing cuda 11.2.2 (runfile)" &&
	stderr_has "cuenv: installing cudnn 8.1.1.33 for CUDA 11 (tarball)" &&
	stdout_has "installed cuda 11.2.2 in $c112 (" &&
	stdout_has "installed cudnn 8.1.1.33 for CUDA 11 in $n8 (" &&
	expect_code 0 cuenv install 11.8 &&
	stdout_has "installed cuda 11.8.0 in $c118 (" &&
	expect_code 0 cuenv install 12.4 --cudnn 9 &&
	stdout_has "installed cuda 12.4.1 in $c124 (" &&
	stdout_has "installed cudnn 9.1.0.70 for CUDA 12 in $n9 (" &&
	expect_stdout "  cuda   11.2.2                $c112
  cuda   11.8.0                $c118
  cuda   12.4.1                $c124
  cudnn  8.1.1.33 (cuda11)     $n8
  cudnn  9.1.0.70 (cuda12)     $n9" cuenv versions &&
	staging_empty &&
	# The runfile's CUPTI stays where NVIDIA puts it; its driver, docs and
	# installer are left out and nothing of it was run.
	check "no CUPTI under extras/CUPTI/lib64" \
		[ -f "$c112/extras/CUPTI/lib64/libcupti.so.11.2.152" ] &&
	check "the runfile's layout was kept (builds/)" [ ! -e "$c112/builds" ] &&
	check "the runfile's driver was unpacked" \
		[ ! -e "$c112/NVIDIA-Linux-x86_64-460.32.03.run" ] &&
	check "the runfile's cuda-installer was unpacked" [ ! -e "$c112/cuda-installer" ] &&
	check "Nsight or the documentation was unpacked" \
		[ -z "$(find "$c112" -name nsys -o -name 'libToolsInjection64.so' -o -name 'EULA.txt' -o -name '*.xls')" ] &&
	expect_stdout "  cuda   11.2.2                $c112
  cuda   11.8.0                $c118
* cuda   12.4.1                $c124
  cudnn  8.1.1.33 (cuda11)     $n8
* cudnn  9.1.0.70 (cuda12)     $n9" env CUENV_VERSION=12.4 CUENV_CUDNN_VERSION=9 cuenv versions &&
	expect_stdout "-- 11.2 + cuDNN 8.1
$c112/extras/CUPTI/lib64/libcupti.so.11.2
$n8/lib64/libcudnn.so.8
$c112/targets/x86_64-linux/lib/libcudart.so.11.0
$c112/bin/nvcc
LD_LIBRARY_PATH=$n8/lib64:$c112/targets/x86_64-linux/lib:$c112/extras/CUPTI/lib64:/user/lib
cuenv-fixture libcupti 11.2.152 (CUDA 11.2.2)
cuenv-fixture libcudnn 8.1.1.33 (cuda11.2)
cuenv-fixture libcudart 11.2.152 (CUDA 11.2.2)
-- 12.4 + cuDNN 9
$n9/lib/libcudnn.so.9
$c124/lib/libcudart.so.12
$c124/lib/libcupti.so.12
LD_LIBRARY_PATH=$n9/lib:$c124/lib:/user/lib
cuenv-fixture libcudnn 9.1.0.70 (cuda12)
cuenv-fixture libcupti 12.4.127 (CUDA 12.4.1)
gone: libcudnn.so.8 libcupti.so.11.2
-- 11.8
$c118/lib/libcupti.so.11.8
LD_LIBRARY_PATH=$c118/lib:/user/lib
cuenv-fixture libcudart 11.8.89 (CUDA 11.8.0)" hook_session bash <<'EOF_SESSION' &&
export LD_LIBRARY_PATH=/user/lib
eval "$(cuenv init bash)"
cuenv use 11.2 --cudnn 8.1
echo "-- 11.2 + cuDNN 8.1"
cuenv which libcupti.so.11.2; cuenv which libcudnn.so.8
cuenv which libcudart.so.11.0; cuenv which nvcc
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
for l in libcupti.so.11.2 libcudnn.so.8 libcudart.so.11.0; do "$E2E_CACHE/dltool" $l -id; done
cuenv use 12.4 --cudnn 9
echo "-- 12.4 + cuDNN 9"
cuenv which libcudnn.so.9; cuenv which libcudart.so.12; cuenv which libcupti.so.12
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
for l in libcudnn.so.9 libcupti.so.12; do "$E2E_CACHE/dltool" $l -id; done
printf 'gone:'; for l in libcudnn.so.8 libcupti.so.11.2; do "$E2E_CACHE/dltool" $l -id 2>/dev/null || printf ' %s' $l; done; echo
cuenv use 11.8
echo "-- 11.8"
cuenv which libcupti.so.11.8
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
"$E2E_CACHE/dltool" libcudart.so.11.0 -id
EOF_SESSION
	no_cuenv_errors
