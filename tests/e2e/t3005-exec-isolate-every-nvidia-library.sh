#!/bin/sh
# --isolate strips every folder that holds one of NVIDIA's libraries from
# LD_LIBRARY_PATH, the same ones doctor flags: NPP, nvJPEG, nvToolsExt and
# cuFFTW too (issue 10 item 9: its private list kept them), while a folder
# of other libraries stays.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need cc &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj "$HOME/npp" "$HOME/jpeg" "$HOME/nvtx" "$HOME/fftw" "$HOME/other" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libnppc.so.12 "$HOME/npp/libnppc.so.12" &&
	fake_elf libnvjpeg.so.12 "$HOME/jpeg/libnvjpeg.so.12" &&
	fake_elf libnvToolsExt.so.1 "$HOME/nvtx/libnvToolsExt.so.1" &&
	fake_elf libcufftw.so.11 "$HOME/fftw/libcufftw.so.11" &&
	fake_elf libexample.so.1 "$HOME/other/libexample.so.1" &&
	cd proj &&
	export LD_LIBRARY_PATH="$HOME/npp:$HOME/jpeg:$HOME/other:$HOME/nvtx:$HOME/fftw" &&
	expect_stdout "$c/lib64:$HOME/other" cuenv exec --isolate sh -c 'echo "$LD_LIBRARY_PATH"' &&
	expect_code 0 cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	stderr_has "LD_LIBRARY_PATH entry $HOME/npp (libnppc.so.12) holds CUDA libraries" &&
	stderr_has "LD_LIBRARY_PATH entry $HOME/jpeg (libnvjpeg.so.12) holds CUDA libraries" &&
	stderr_has "LD_LIBRARY_PATH entry $HOME/nvtx (libnvToolsExt.so.1) holds CUDA libraries" &&
	stderr_lacks "$HOME/other"
