/*
 * plat_dl_win.c: plat_dl.h on Windows (LoadLibraryExW, GetProcAddress,
 * FreeLibrary, GetModuleFileNameW; UTF-8 names converted to UTF-16 here).
 */
#include "plat/plat_dl.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

static wchar_t *to_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL,
				    0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	w = malloc((size_t)n * sizeof *w);
	if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w,
				     n) != n) {
		free(w);
		w = NULL;
	}
	return w;
}

/* The loader's errors in words of our own (FormatMessage's vary by locale). */
static const char *reason(DWORD e)
{
	switch (e) {
	case ERROR_MOD_NOT_FOUND:
		return "the specified module could not be found";
	case ERROR_PROC_NOT_FOUND:
		return "the specified procedure could not be found";
	case ERROR_BAD_EXE_FORMAT:
		return "not a valid Windows application (wrong architecture?)";
	case ERROR_DLL_INIT_FAILED:
		return "its initialization routine failed";
	case ERROR_ACCESS_DENIED:
		return "access is denied";
	case ERROR_NO_UNICODE_TRANSLATION:
		return "the name is not valid UTF-8";
	default:
		return "the loader failed";
	}
}

void *plat_dl_open(const char *name, struct buf *why)
{
	wchar_t *w = to_wide(name);
	HMODULE h = NULL;
	DWORD e = ERROR_NO_UNICODE_TRANSLATION;

	if (w) {
		h = LoadLibraryExW(w, NULL, 0);
		e = GetLastError();
		free(w);
	}
	if (!h)
		buf_printf(why, "%s: %s (error %lu)", name, reason(e),
			   (unsigned long)e);
	return (void *)h;
}

void *plat_dl_sym(void *h, const char *name)
{
	FARPROC f = GetProcAddress((HMODULE)h, name);
	void *p;

	/* FARPROC to void *: same size on Windows x64. */
	memcpy(&p, &f, sizeof p);
	return p;
}

int plat_dl_path(void *h, struct buf *file)
{
	wchar_t w[32768];
	DWORD n = GetModuleFileNameW((HMODULE)h, w, 32768);
	int len;
	char *u;

	if (!n || n >= 32768)
		return -1;
	len = WideCharToMultiByte(CP_UTF8, 0, w, (int)n, NULL, 0, NULL, NULL);
	if (len <= 0)
		return -1;
	u = malloc((size_t)len);
	if (!u)
		return -1;
	WideCharToMultiByte(CP_UTF8, 0, w, (int)n, u, len, NULL, NULL);
	buf_add(file, u, (size_t)len);
	free(u);
	return 0;
}

void plat_dl_close(void *h)
{
	FreeLibrary((HMODULE)h);
}
