/*
 * libcuda.c: a fake NVIDIA driver library (libcuda.so.1) that "runs" the
 * kernels of the PTX it is given on the CPU, by entry name. See fake.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fake.h"

#ifndef FAKE_DEFAULT_VERSION
#define FAKE_DEFAULT_VERSION 12040
#endif

#define MAX_ENTRIES 16
#define MAX_LAUNCHES 64

struct function {
	char name[64];
};

/* A loaded PTX module: its entries, which are its functions. */
struct module {
	struct function fns[MAX_ENTRIES];
	int n;
};

static int inited;
static int retained;
static cuenv_CUcontext current;
static char ctx_token;
static struct fake_launch launches[MAX_LAUNCHES];
static int nlaunches;

static int devices(void)
{
	return (int)fake_env("FAKE_CUDA_DEVICES", 1);
}

FAKE_EXPORT cuenv_CUresult cuInit(unsigned flags)
{
	long e = fake_env("FAKE_CUDA_INIT_ERROR", 0);

	if (flags)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	if (e)
		return (cuenv_CUresult)e;
	if (devices() <= 0)
		return CUENV_CUDA_ERROR_NO_DEVICE;
	inited = 1;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuDriverGetVersion(int *v)
{
	if (!v)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	*v = (int)fake_env("FAKE_CUDA_DRIVER_VERSION", FAKE_DEFAULT_VERSION);
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuGetErrorName(cuenv_CUresult e, const char **s)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
	    {0, "CUDA_SUCCESS"},
	    {1, "CUDA_ERROR_INVALID_VALUE"},
	    {3, "CUDA_ERROR_NOT_INITIALIZED"},
	    {34, "CUDA_ERROR_STUB_LIBRARY"},
	    {100, "CUDA_ERROR_NO_DEVICE"},
	    {101, "CUDA_ERROR_INVALID_DEVICE"},
	    {218, "CUDA_ERROR_INVALID_PTX"},
	    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
	    {500, "CUDA_ERROR_NOT_FOUND"},
	    {719, "CUDA_ERROR_LAUNCH_FAILED"},
	    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
	    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
	    {999, "CUDA_ERROR_UNKNOWN"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i].code == e) {
			*s = names[i].name;
			return CUENV_CUDA_SUCCESS;
		}
	*s = NULL;
	return CUENV_CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT cuenv_CUresult cuDeviceGet(cuenv_CUdevice *dev, int ordinal)
{
	if (!inited)
		return CUENV_CUDA_ERROR_NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= devices())
		return CUENV_CUDA_ERROR_INVALID_DEVICE;
	*dev = ordinal;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuDeviceGetName(char *name, int len,
					   cuenv_CUdevice dev)
{
	const char *n = getenv("FAKE_CUDA_NAME");

	if (!inited)
		return CUENV_CUDA_ERROR_NOT_INITIALIZED;
	if (dev < 0 || dev >= devices() || len <= 0)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "%s", n && *n ? n : "cuenv fake GPU");
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuDevicePrimaryCtxRetain(cuenv_CUcontext *ctx,
						    cuenv_CUdevice dev)
{
	if (!inited)
		return CUENV_CUDA_ERROR_NOT_INITIALIZED;
	if (dev < 0 || dev >= devices())
		return CUENV_CUDA_ERROR_INVALID_DEVICE;
	*ctx = (cuenv_CUcontext)(void *)&ctx_token;
	retained++;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuDevicePrimaryCtxRelease_v2(cuenv_CUdevice dev)
{
	(void)dev;
	if (retained <= 0)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	retained--;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuCtxSetCurrent(cuenv_CUcontext ctx)
{
	current = ctx;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuCtxSynchronize(void)
{
	return current ? CUENV_CUDA_SUCCESS : CUENV_CUDA_ERROR_INVALID_VALUE;
}

/* Read the ".entry NAME(" declarations of a PTX text. */
FAKE_EXPORT cuenv_CUresult cuModuleLoadData(cuenv_CUmodule *out,
					    const void *image)
{
	const char *ptx = image, *p = ptx;
	struct module *m;

	if (!current)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	if (!ptx || !strstr(ptx, ".version") || !strstr(ptx, ".target"))
		return CUENV_CUDA_ERROR_INVALID_PTX;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUENV_CUDA_ERROR_OUT_OF_MEMORY;
	while ((p = strstr(p, ".entry")) && m->n < MAX_ENTRIES) {
		size_t n;

		p += strlen(".entry");
		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n(");
		if (n && n < sizeof(m->fns[0].name))
			memcpy(m->fns[m->n++].name, p, n);
	}
	if (!m->n) {
		free(m);
		return CUENV_CUDA_ERROR_INVALID_PTX;
	}
	*out = (cuenv_CUmodule)(void *)m;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuModuleGetFunction(cuenv_CUfunction *f,
					       cuenv_CUmodule hmod,
					       const char *name)
{
	struct module *m = (struct module *)(void *)hmod;

	for (int i = 0; m && i < m->n; i++) {
		if (strcmp(m->fns[i].name, name))
			continue;
		*f = (cuenv_CUfunction)(void *)&m->fns[i];
		return CUENV_CUDA_SUCCESS;
	}
	return CUENV_CUDA_ERROR_NOT_FOUND;
}

FAKE_EXPORT cuenv_CUresult cuModuleUnload(cuenv_CUmodule hmod)
{
	free(hmod);
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuMemAlloc_v2(cuenv_CUdeviceptr *p, size_t bytes)
{
	void *m = malloc(bytes ? bytes : 1);

	if (!m)
		return CUENV_CUDA_ERROR_OUT_OF_MEMORY;
	*p = (cuenv_CUdeviceptr)(uintptr_t)m;
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuMemFree_v2(cuenv_CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuMemcpyHtoD_v2(cuenv_CUdeviceptr dst,
					   const void *src, size_t bytes)
{
	memcpy((void *)(uintptr_t)dst, src, bytes);
	return CUENV_CUDA_SUCCESS;
}

FAKE_EXPORT cuenv_CUresult cuMemcpyDtoH_v2(void *dst, cuenv_CUdeviceptr src,
					   size_t bytes)
{
	memcpy(dst, (const void *)(uintptr_t)src, bytes);
	return CUENV_CUDA_SUCCESS;
}

/* The kernels this driver can run, by entry name. */
static int run_vadd(unsigned threads, void **params)
{
	const float *a =
	    (const float *)(uintptr_t) * (cuenv_CUdeviceptr *)params[0];
	const float *b =
	    (const float *)(uintptr_t) * (cuenv_CUdeviceptr *)params[1];
	float *c = (float *)(uintptr_t) * (cuenv_CUdeviceptr *)params[2];
	unsigned n = *(unsigned *)params[3];

	for (unsigned i = 0; i < threads && i < n; i++)
		c[i] = a[i] + b[i];
	if (fake_env("FAKE_KERNEL_WRONG", 0) && n > 7)
		c[7] += 1.0f;
	return 0;
}

FAKE_EXPORT cuenv_CUresult cuLaunchKernel(cuenv_CUfunction f, unsigned gx,
					  unsigned gy, unsigned gz, unsigned bx,
					  unsigned by, unsigned bz,
					  unsigned shared,
					  cuenv_CUstream stream, void **params,
					  void **extra)
{
	struct function *fn = (struct function *)(void *)f;
	struct fake_launch *l;
	long e = fake_env("FAKE_CUDA_LAUNCH_ERROR", 0);

	(void)shared;
	(void)stream;
	if (e)
		return (cuenv_CUresult)e;
	if (!fn || !current || extra || !params)
		return CUENV_CUDA_ERROR_INVALID_VALUE;
	if (nlaunches >= MAX_LAUNCHES)
		return CUENV_CUDA_ERROR_LAUNCH_FAILED;
	l = &launches[nlaunches];
	snprintf(l->name, sizeof(l->name), "%s", fn->name);
	l->correlation = (unsigned)nlaunches + 1;
	l->start = fake_now_ns();
	if (!strcmp(fn->name, "cuenv_vadd"))
		run_vadd(gx * gy * gz * bx * by * bz, params);
	else
		return CUENV_CUDA_ERROR_LAUNCH_FAILED;
	l->end = fake_now_ns();
	if (l->end <= l->start)
		l->end = l->start + 1;
	nlaunches++;
	return CUENV_CUDA_SUCCESS;
}

/* For the fake CUPTI: every launch so far. */
FAKE_EXPORT int cuenv_fake_cuda_launches(const struct fake_launch **out)
{
	*out = launches;
	return nlaunches;
}
