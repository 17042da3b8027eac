/*
 * dlfcn.h for the fake CUDA libraries (tests/unit/fakes/cuda/lib*.c) built
 * with mingw as Windows DLLs (tests/windows/e2e-check.sh): dlopen, dlsym
 * and dlclose over LoadLibrary, GetModuleHandleEx and GetProcAddress.
 * The driver's Linux name stands for Windows' (libcuda.so.1 is
 * nvcuda.dll). dlclose leaves the library loaded: the fakes call it from
 * a destructor, which on Windows runs inside DllMain, where FreeLibrary
 * must not be called. Included first (-include) so that libcudnn.c's
 * pause() (its "hang") exists too.
 */
#ifndef CUENV_FAKE_WIN_DLFCN_H
#define CUENV_FAKE_WIN_DLFCN_H

#include <string.h>
#include <windows.h>

#define RTLD_LOCAL 0
#define RTLD_NOW 2
#define RTLD_NOLOAD 4

static inline void *dlopen(const char *name, int flags)
{
	HMODULE h = NULL;

	if (!strcmp(name, "libcuda.so.1"))
		name = "nvcuda.dll";
	if (flags & RTLD_NOLOAD)
		return GetModuleHandleExA(0, name, &h) ? (void *)h : NULL;
	return (void *)LoadLibraryA(name);
}

static inline void *dlsym(void *h, const char *name)
{
	FARPROC f = GetProcAddress((HMODULE)h, name);
	void *p;

	memcpy(&p, &f, sizeof p);
	return p;
}

static inline int dlclose(void *h)
{
	(void)h;
	return 0;
}

#define pause() Sleep(INFINITE)

#endif
