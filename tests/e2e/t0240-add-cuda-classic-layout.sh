#!/bin/sh
# NVIDIA's classic runfile layout: lib64 and include are links into
# targets/x86_64-linux, CUPTI lives in extras/CUPTI/lib64, and an old
# toolkit has version.txt instead of version.json. Activation puts each
# folder once, CUPTI's included.
. "$(dirname "$0")/lib.sh"

p=$HOME/cuda-11.0
x=$p/targets/x86_64-linux
mkdir -p "$x/lib" "$x/include" "$p/bin" "$p/extras/CUPTI/lib64" "$p/extras/CUPTI/include" &&
	ln -s targets/x86_64-linux/lib "$p/lib64" &&
	ln -s targets/x86_64-linux/include "$p/include" &&
	printf '#!/bin/sh\necho "Cuda compilation tools, release 11.0, V11.0.221"\n' >"$p/bin/nvcc" &&
	chmod 755 "$p/bin/nvcc" &&
	fake_elf libcudart.so.11.0 "$x/lib/libcudart.so.11.0.221" &&
	ln -s libcudart.so.11.0.221 "$x/lib/libcudart.so.11.0" &&
	fake_elf libcupti.so.11.0 "$p/extras/CUPTI/lib64/libcupti.so.11.0" &&
	printf '#define CUDART_VERSION 11000\n' >"$x/include/cuda_runtime_api.h" &&
	printf '/* cupti */\n' >"$p/extras/CUPTI/include/cupti.h" &&
	printf 'CUDA Version 11.0.3\n' >"$p/version.txt" &&
	expect_stdout "registered cuda 11.0.3 from $p (CUPTI 11.0)" cuenv add cuda "$p" &&
	mkdir proj && cd proj && printf 'cuda = 11\n' >.cuenv &&
	expect_stdout "$p/bin:$PATH
$p/lib64:$p/extras/CUPTI/lib64
$p/include:$p/extras/CUPTI/include" \
		cuenv exec sh -c 'echo "$PATH"; echo "$LD_LIBRARY_PATH"; echo "$CPATH"' &&
	expect_stdout "$p/extras/CUPTI/lib64/libcupti.so.11.0" cuenv which libcupti.so.11.0 &&
	expect_stdout "$p/lib64/libcudart.so.11.0" cuenv which libcudart.so.11.0 &&
	expect_stdout "$p/extras/CUPTI/include/cupti.h" cuenv which cupti.h
