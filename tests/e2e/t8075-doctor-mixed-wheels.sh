#!/bin/sh
# pip installed nvidia-cuda-cupti-cu11 11.8.87 after -cu12 12.4.127 into
# one site-packages: both RECORDs (the real ones, tests/fixtures/wheels)
# list nvidia/cuda_cupti/lib/libnvperf_host.so, libnvperf_target.so,
# libcheckpoint.so and libpcsamplingutil.so, so the folder holds 11.8's
# copies (their sizes, from the cu11 RECORD: libnvperf_host.so 26295768
# bytes; cu12's is 28132984) beside libcupti.so.12 (issue 10 item 7).
# doctor names the mix with both majors, the overwritten files and whose
# copy is there; `add` on that folder warns naming both dist-infos.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-doctor.sh"

rec=$e2e/../fixtures/wheels
c=$HOME/toolkits/cuda-12.4
s=$HOME/venv/lib/python3.11/site-packages
l=$s/nvidia/cuda_cupti/lib
cu11=nvidia_cuda_cupti_cu11-11.8.87.dist-info
cu12=nvidia_cuda_cupti_cu12-12.4.127.dist-info
rt12=nvidia_cuda_runtime_cu12-12.4.127.dist-info
# site SIZES_FROM: the cupti wheels' shared files with that RECORD's sizes
site() {
	rm -rf "$HOME/venv" &&
		mkdir -p "$l" "$s/nvidia/cuda_runtime/lib" "$s/$cu11" "$s/$cu12" "$s/$rt12" &&
		cp "$rec/$cu11.RECORD" "$s/$cu11/RECORD" &&
		cp "$rec/$cu12.RECORD" "$s/$cu12/RECORD" &&
		printf 'nvidia/cuda_runtime/lib/libcudart.so.12,sha256=x,1\n' >"$s/$rt12/RECORD" &&
		fake_elf libcudart.so.12 "$s/nvidia/cuda_runtime/lib/libcudart.so.12" &&
		fake_elf libcupti.so.11.8 "$l/libcupti.so.11.8" &&
		fake_elf libcupti.so.12 "$l/libcupti.so.12" || return 1
	for _f in libnvperf_host.so libnvperf_target.so libcheckpoint.so libpcsamplingutil.so; do
		_n=$(sed -n "s|^nvidia/cuda_cupti/lib/$_f,[^,]*,||p" "$rec/$1.RECORD")
		truncate -s "$_n" "$l/$_f" || return 1
	done
}

need cc &&
	doctor_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.4\n' >proj/.cuenv &&
	site "$cu11" &&
	cd proj &&
	expect_code 15 env VIRTUAL_ENV="$HOME/venv" cuenv doctor &&
	said "[pip-wheels-mixed] Python's $s mixes NVIDIA's wheels of CUDA 11 and 12: $cu11, $cu12 and $rt12" &&
	said "nvidia/cuda_cupti/lib/libnvperf_host.so ($cu11 and $cu12)" &&
	said "nvidia/cuda_cupti/lib/libnvperf_target.so ($cu11 and $cu12)" &&
	said "holds NVIDIA's CUDA 11 and 12 wheels:" &&
	stdout_lacks "NVIDIA's CUDA 11 wheels" &&
	expect_code 15 env VIRTUAL_ENV="$HOME/venv" cuenv doctor --json &&
	said '"id": "pip-wheels-mixed"' &&
	# cu12 installed last: its copies are the ones there
	site "$cu12" &&
	expect_code 15 env VIRTUAL_ENV="$HOME/venv" cuenv doctor &&
	said "nvidia/cuda_cupti/lib/libnvperf_host.so ($cu12 and $cu11)" &&
	# add on the wheels' folder warns, naming both CUPTI dist-infos
	expect_code 0 cuenv add cuda "$s/nvidia" &&
	stderr_has "cuenv: warning: '$s/nvidia/..' mixes NVIDIA wheels of 2 CUDA majors: $cu11, $cu12, $rt12" &&
	stderr_has "nvidia/cuda_cupti/lib/libnvperf_host.so ($cu12 and $cu11)" &&
	# CUPTI from the wheel of the toolkit's own major
	stdout_has "registered cuda 12.4 from $s/nvidia (CUPTI 12.4.127)" &&
	# one major only: no such finding
	rm -rf "$s/$cu11" "$l/libcupti.so.11.8" &&
	expect_code 0 env VIRTUAL_ENV="$HOME/venv" cuenv doctor &&
	stdout_lacks "pip-wheels-mixed"
