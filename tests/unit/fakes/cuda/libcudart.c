/*
 * libcudart.c: a fake CUDA runtime (libcudart.so.N). Like the real one it
 * loads libcuda.so.1 itself and answers cudaErrorInsufficientDriver when
 * there is none, or when the driver supports an older CUDA major. See
 * fake.h.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "fake.h"

#ifndef FAKE_DEFAULT_VERSION
#define FAKE_DEFAULT_VERSION 12040
#endif

static int version(void)
{
	return (int)fake_env("FAKE_CUDART_VERSION", FAKE_DEFAULT_VERSION);
}

static void *driver_handle;

/* 0, or the error the runtime gives without a usable driver. */
static int driver(void)
{
	cuenv_cuDriverGetVersion_fn get;
	int v = 0;
	void *h;

	if (!driver_handle)
		driver_handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	h = driver_handle;
	if (!h)
		return CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER;
	get = (cuenv_cuDriverGetVersion_fn)dlsym(h, "cuDriverGetVersion");
	if (!get || get(&v) || v / 1000 < version() / 1000)
		return CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER;
	return 0;
}

/* Unloaded (the unit tests do): let go of the driver too. */
__attribute__((destructor)) static void unload(void)
{
	if (driver_handle)
		dlclose(driver_handle);
}

static int devices(void)
{
	return (int)fake_env("FAKE_CUDA_DEVICES", 1);
}

/*
 * CUDA 11's runtime asks the driver for its version: without a usable one
 * it answers cudaErrorInsufficientDriver and no version (12.x answers
 * on its own).
 */
FAKE_EXPORT int cudaRuntimeGetVersion(int *v)
{
	int e;

	*v = 0;
	if (version() < 12000) {
		e = driver();
		if (e)
			return e;
	}
	*v = version();
	return 0;
}

FAKE_EXPORT int cudaGetDeviceCount(int *n)
{
	int e = driver();

	*n = 0;
	if (e)
		return e;
	if (devices() <= 0)
		return CUENV_CUDART_ERROR_NO_DEVICE;
	*n = devices();
	return 0;
}

FAKE_EXPORT int cudaDeviceGetAttribute(int *value, int attr, int dev)
{
	const char *cc = getenv("FAKE_CUDA_CC");
	int major = 8, minor = 0;

	if (dev < 0 || dev >= devices())
		return CUENV_CUDART_ERROR_INVALID_DEVICE;
	if (cc && sscanf(cc, "%d.%d", &major, &minor) != 2)
		major = 8, minor = 0;
	if (attr == CUENV_CUDART_ATTR_CC_MAJOR)
		*value = major;
	else if (attr == CUENV_CUDART_ATTR_CC_MINOR)
		*value = minor;
	else
		return 1; /* cudaErrorInvalidValue */
	return 0;
}

FAKE_EXPORT int cudaSetDevice(int dev)
{
	int e = driver();

	if (e)
		return e;
	return dev < 0 || dev >= devices() ? CUENV_CUDART_ERROR_INVALID_DEVICE
					   : 0;
}

FAKE_EXPORT int cudaFree(void *p)
{
	free(p);
	return driver();
}

FAKE_EXPORT int cudaMalloc(void **p, size_t bytes)
{
	int e = driver();

	if (e)
		return e;
	*p = malloc(bytes ? bytes : 1);
	return *p ? 0 : 2; /* cudaErrorMemoryAllocation */
}

FAKE_EXPORT int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
	if (kind != CUENV_CUDART_MEMCPY_H2D && kind != CUENV_CUDART_MEMCPY_D2H)
		return 21; /* cudaErrorInvalidMemcpyDirection */
	memcpy(dst, src, bytes);
	return 0;
}

FAKE_EXPORT int cudaDeviceSynchronize(void)
{
	return driver();
}

FAKE_EXPORT const char *cudaGetErrorName(int e)
{
	switch (e) {
	case 0:
		return "cudaSuccess";
	case CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER:
		return "cudaErrorInsufficientDriver";
	case CUENV_CUDART_ERROR_NO_DEVICE:
		return "cudaErrorNoDevice";
	case CUENV_CUDART_ERROR_INVALID_DEVICE:
		return "cudaErrorInvalidDevice";
	}
	return "cudaErrorUnknown";
}
