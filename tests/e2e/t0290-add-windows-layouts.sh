#!/bin/sh
# NVIDIA's Windows layouts, registered as data on any system: the
# installer's toolkit (C:\Program Files\NVIDIA GPU Computing
# Toolkit\CUDA\v11.2: DLLs in bin\, CUPTI's year-named DLL in
# extras\CUPTI\lib64) and cuDNN 8.1's zip for CUDA 11.2 (a cuda\ folder:
# bin\cudnn64_8.dll, include\cudnn_version.h). Selected for a project, the
# toolkit's and cuDNN's bin folders come first on the loader's path, and
# `env --format cmd` gives the lines a batch file sets. cuDNN's CUDA major
# comes from the toolkit DLLs its sub-libraries import (cublas64_11.dll).
. "$(dirname "$0")/lib.sh"

t="$HOME/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2"
d=$HOME/cudnn-11.2-windows-x64-v8.1.1.33/cuda
mkdir -p "$t/bin" "$t/include" "$t/lib/x64" "$t/extras/CUPTI/lib64" \
	"$d/bin" "$d/include" "$d/lib/x64" "$HOME/proj" &&
	: >"$t/bin/cudart64_110.dll" &&
	: >"$t/bin/nvcc.exe" &&
	: >"$t/lib/x64/cudart.lib" &&
	: >"$t/extras/CUPTI/lib64/cupti64_2020.3.1.dll" &&
	printf '#define CUDART_VERSION 11020\n' >"$t/include/cuda_runtime_api.h" &&
	: >"$d/bin/cudnn64_8.dll" &&
	: >"$d/lib/x64/cudnn.lib" &&
	printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 1\n' \
		>"$d/include/cudnn_version.h" &&
	expect_stdout "registered cuda 11.2 from $t (CUPTI found)" cuenv add cuda "$t" &&
	# cuda\ says nothing of the CUDA it was built for: asked, then told
	expect_code 3 cuenv add cudnn "$d" &&
	stderr_has "cannot tell which CUDA major the cuDNN in '$d' was built for" &&
	stderr_has "cuenv add cudnn $d --cuda MAJOR" &&
	# cuDNN's sub-libraries import the toolkit's DLLs: cuBLAS 11 is
	# CUDA 11 (a DLL built with mingw that imports cublas64_11.dll)
	need x86_64-w64-mingw32-gcc &&
	printf 'int cublasCreate_v2(void **h) { (void)h; return 0; }\n' >"$HOME/cublas.c" &&
	x86_64-w64-mingw32-gcc -shared -o "$HOME/cublas64_11.dll" "$HOME/cublas.c" &&
	printf 'int cublasCreate_v2(void **h);\nint ops(void) { void *h; return cublasCreate_v2(&h); }\n' >"$HOME/ops.c" &&
	x86_64-w64-mingw32-gcc -shared -o "$d/bin/cudnn_ops_infer64_8.dll" "$HOME/ops.c" "$HOME/cublas64_11.dll" &&
	expect_stdout "registered cudnn 8.1.1 for CUDA 11 from $d" \
		cuenv add cudnn "$d" &&
	cd "$HOME/proj" &&
	expect_code 0 cuenv local 11.2 --cudnn 8.1 &&
	expect_code 0 cuenv env --format json &&
	stdout_has "$d/bin:$t/bin" &&
	expect_code 0 cuenv env --format cmd &&
	stdout_has "\"CUDA_HOME=$t\""
