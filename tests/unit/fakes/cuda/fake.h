/*
 * fake.h: shared by the fake CUDA libraries of the tests.
 *
 * libcuda.c, libcudart.c, libcudnn.c and libcupti.c are each built into a
 * shared library with the soname a test needs (cc -shared -Wl,-soname,
 * libcudart.so.12 ...) and implement, on the CPU, every symbol that
 * cuenv-probe (core/check/check_cuda.c) looks up, with the signatures of
 * core/nvidia/cuda_abi.h. "Device memory" is host memory, so the fakes can hand
 * pointers to one another as the real libraries do.
 *
 * Versions and failures come from the environment at the time of each
 * call, with defaults fixed at build time (-DFAKE_DEFAULT_VERSION=...):
 *
 *   libcuda.so.1   FAKE_CUDA_DRIVER_VERSION (12040), FAKE_CUDA_DEVICES (1),
 *                  FAKE_CUDA_INIT_ERROR (a CUresult for cuInit),
 *                  FAKE_CUDA_NAME, FAKE_KERNEL_WRONG=1 (c[7] off by one),
 *                  FAKE_CUDA_LAUNCH_ERROR (a CUresult for cuLaunchKernel)
 *   libcudart      FAKE_CUDART_VERSION, FAKE_CUDA_DEVICES, FAKE_CUDA_CC
 *                  ("8.0")
 *   libcudnn       FAKE_CUDNN_VERSION, FAKE_CUDNN_CUDART_VERSION,
 *                  FAKE_CUDNN_WRONG=1 (y[4] off by one),
 *                  FAKE_CUDNN_CRASH=1 (abort in the convolution),
 *                  FAKE_CUDNN_HANG=1 (never return from it)
 *   libcupti       FAKE_CUPTI_VERSION (the API version, which decides the
 *                  layout of its kernel records), FAKE_CUPTI_NO_RECORDS=1,
 *                  FAKE_CUPTI_BAD_TIMES=1 (end before start),
 *                  FAKE_CUPTI_ENABLE_ERROR (a CUptiResult)
 */
#ifndef CUENV_FAKE_CUDA_H
#define CUENV_FAKE_CUDA_H

#include <stdlib.h>
#include <time.h>

#include "../../../../core/nvidia/cuda_abi.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

/* An integer from the environment, or def when unset or not a number. */
static inline long fake_env(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long x;

	if (!v || !*v)
		return def;
	x = strtol(v, &end, 10);
	return *end ? def : x;
}

/* The clock CUPTI's fake timestamps and the fake launches share. */
static inline unsigned long long fake_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

/* One launch, as the fake driver logs it for the fake CUPTI. */
struct fake_launch {
	char name[64];
	unsigned long long start, end;
	unsigned correlation;
};

/* Exported by the fake libcuda.so.1: the launches so far (at most max). */
typedef int (*fake_launches_fn)(const struct fake_launch **out);

#endif
