#!/bin/sh
# On a machine with a GPU: compile a kernel with the selected toolkit's
# nvcc through `cuenv exec`, run it, and check its result.
. "$(dirname "$0")/lib.sh"

need GPU &&
	need_real_cuda &&
	expect_code 0 cuenv add cuda "$REAL_CUDA" &&
	rel=$("$REAL_CUDA/bin/nvcc" --version | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p') &&
	mkdir proj && cd proj &&
	cuenv local "$rel" 2>/dev/null &&
	cat >add.cu <<'CU' &&
#include <cstdio>
__global__ void add(int *x) { x[threadIdx.x] += threadIdx.x; }
int main() {
	int h[32], *d;
	for (int i = 0; i < 32; i++) h[i] = 1;
	if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 2;
	cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
	add<<<1, 32>>>(d);
	if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 3;
	int s = 0;
	for (int i = 0; i < 32; i++) s += h[i];
	printf("sum %d\n", s);
	return 0;
}
CU
	expect_code 0 cuenv exec -- nvcc -o add add.cu &&
	expect_stdout "sum 528" cuenv exec ./add
