/*
 * plat_main_win.c: plat_main.h on Windows: the UTF-16 command line and
 * environment block, in UTF-8.
 */
#include "plat/plat_main.h"

#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

#include <shellapi.h>

/* s in UTF-8 (malloc'd), or NULL. */
static char *to_utf8(const wchar_t *s)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, s, -1, NULL, 0, NULL, NULL);
	char *u = n > 0 ? malloc((size_t)n) : NULL;

	if (u && !WideCharToMultiByte(CP_UTF8, 0, s, -1, u, n, NULL, NULL)) {
		free(u);
		u = NULL;
	}
	return u;
}

/* n wide strings as a NULL-terminated vector of UTF-8 ones, or NULL. */
static char **vector(wchar_t **w, size_t n)
{
	char **v = calloc(n + 1, sizeof(*v));

	for (size_t i = 0; v && i < n; i++) {
		v[i] = to_utf8(w[i]);
		if (!v[i]) {
			while (i--)
				free(v[i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static char **environment(void)
{
	wchar_t *block = GetEnvironmentStringsW(), *p;
	wchar_t **each;
	char **v;
	size_t n = 0;

	if (!block)
		return NULL;
	for (p = block; *p; p += wcslen(p) + 1)
		n++;
	each = calloc(n + 1, sizeof(*each));
	n = 0;
	for (p = block; each && *p; p += wcslen(p) + 1)
		each[n++] = p;
	v = each ? vector(each, n) : NULL;
	free(each);
	FreeEnvironmentStringsW(block);
	return v;
}

void plat_main_args(int *argc, char ***argv, char ***envp)
{
	int n;
	wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
	char **args = w ? vector(w, (size_t)n) : NULL;
	char **env = environment();

	if (w)
		LocalFree(w);
	if (args) {
		*argc = n;
		*argv = args;
	}
	*envp = env ? env : _environ;
	SetConsoleOutputCP(CP_UTF8);
}
