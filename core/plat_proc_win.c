/*
 * plat_proc_win.c: plat_proc.h on Windows: CreateProcessW, wait, the
 * child's exit code (Windows has no exec).
 */
#include "plat_proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "buf.h"
#include "plat_cmdline.h"

static wchar_t *to_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;

	if (w)
		MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

/* NAME=... compared by name, ASCII case folded (Path is PATH). */
static int name_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = *a == '=' ? 0 : (unsigned char)*a;
		int y = *b == '=' ? 0 : (unsigned char)*b;

		if (x >= 'a' && x <= 'z')
			x -= 32;
		if (y >= 'a' && y <= 'z')
			y -= 32;
		if (x != y || !x)
			return x - y;
	}
}

static int entry_cmp(const void *a, const void *b)
{
	return name_cmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The UTF-16 block CreateProcessW wants: NAME=value strings sorted by
 * name without case, a name given twice kept once (its first), an empty
 * string at the end.
 */
static wchar_t *env_block(char *const *envp, const char **path)
{
	size_t n = 0, k = 0;
	const char **v;
	struct buf b = BUF_INIT;
	wchar_t *w;
	int len;

	while (envp && envp[n])
		n++;
	v = malloc((n + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = envp[i];
	/* stable enough: equal names keep their first by the scan below */
	qsort(v, n, sizeof *v, entry_cmp);
	*path = NULL;
	for (size_t i = 0; i < n; i++) {
		if (k && !name_cmp(v[k - 1], v[i]))
			continue;
		v[k++] = v[i];
	}
	for (size_t i = 0; i < k; i++) {
		if (!name_cmp(v[i], "PATH="))
			*path = strchr(v[i], '=') + 1;
		buf_add(&b, v[i], strlen(v[i]) + 1);
	}
	buf_add(&b, "\0", 1);
	if (k == 0)
		buf_add(&b, "\0", 1);
	free(v);
	len = MultiByteToWideChar(CP_UTF8, 0, b.data, (int)b.len, NULL, 0);
	w = len > 0 ? malloc((size_t)len * sizeof *w) : NULL;
	if (w)
		MultiByteToWideChar(CP_UTF8, 0, b.data, (int)b.len, w, len);
	buf_release(&b);
	return w;
}

/* argv[0] looked up in the child's PATH (not cuenv's), .exe added. */
static wchar_t *find_program(const char *prog, const char *path)
{
	wchar_t *wp = to_wide(prog), *wpath = path ? to_wide(path) : NULL;
	wchar_t *found = NULL;

	if (wp && !strpbrk(prog, "\\/:") && !wpath) {
		free(wp); /* no PATH: nothing to search */
	} else if (wp && !strpbrk(prog, "\\/:")) {
		wchar_t buf[32768];
		DWORD n = SearchPathW(wpath, wp, L".exe", 32768, buf, NULL);

		if (n && n < 32768) {
			found = malloc((n + 1) * sizeof *found);
			if (found)
				memcpy(found, buf, (n + 1) * sizeof *found);
		}
		free(wp);
	} else {
		found = wp;
	}
	free(wpath);
	return found;
}

int plat_exec(char *const *argv, char *const *envp)
{
	struct buf line = BUF_INIT;
	const char *path = NULL;
	wchar_t *block = env_block(envp, &path);
	wchar_t *app = find_program(argv[0], path), *wline;
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	DWORD code = 1;
	int ok;

	if (!app || !block ||
	    plat_cmdline_quote(&line, (const char *const *)argv)) {
		free(app);
		free(block);
		buf_release(&line);
		errno = ENOENT;
		return -1;
	}
	wline = to_wide(line.data);
	buf_release(&line);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	ok = wline &&
	     CreateProcessW(app, wline, NULL, NULL, TRUE,
			    CREATE_UNICODE_ENVIRONMENT, block, NULL, &si, &pi);
	free(app);
	free(block);
	free(wline);
	if (!ok) {
		errno = GetLastError() == ERROR_FILE_NOT_FOUND ? ENOENT
							       : EACCES;
		return -1;
	}
	CloseHandle(pi.hThread);
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	return (int)(code & 0x7fffffff);
}
