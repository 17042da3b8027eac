/*
 * tests/windows/proc_child.c: the child that test_core's proc checks run
 * (built by tools/windows-core.sh with mingw, linked with the core
 * library for plat_sys). Each argument is an action, done in order:
 *
 *   out TEXT   TEXT to stdout          err TEXT    TEXT to stderr
 *   fd N TEXT  TEXT to descriptor N    flood N     N bytes to stdout
 *   eflood N   N bytes to stderr       forever     stdout without end
 *   sleep MS   Sleep(MS)               exit N      exit with N
 *   env        each variable of the block it was given, one a line
 *   parent     plat_sys_parent_name()  tty         plat_sys_stderr_tty()
 *   handle H   exit with 10 when handle value H is open here, else 11
 *   close      close its stdout and stderr
 */
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "../../core/plat/plat_sys.h"

static void put(int fd, const char *s, size_t n)
{
	while (n) {
		int w = _write(fd, s, n > 65536 ? 65536u : (unsigned)n);

		if (w <= 0)
			exit(99);
		s += w;
		n -= (size_t)w;
	}
}

static void flood(int fd, long long n)
{
	static char x[4096];

	memset(x, 'x', sizeof(x));
	while (n < 0 || n > 0) {
		size_t k = n < 0 || n > 4096 ? 4096 : (size_t)n;

		put(fd, x, k);
		if (n > 0)
			n -= (long long)k;
	}
}

int main(int argc, char **argv)
{
	char line[256];

	_setmode(1, _O_BINARY);
	_setmode(2, _O_BINARY);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(a, "out") || !strcmp(a, "err")) {
			put(a[0] == 'o' ? 1 : 2, v, strlen(v));
			i++;
		} else if (!strcmp(a, "fd") && i + 2 < argc) {
			put(atoi(v), argv[i + 2], strlen(argv[i + 2]));
			i += 2;
		} else if (!strcmp(a, "flood") || !strcmp(a, "eflood")) {
			flood(a[0] == 'f' ? 1 : 2, atoll(v));
			i++;
		} else if (!strcmp(a, "forever")) {
			flood(1, -1);
		} else if (!strcmp(a, "sleep")) {
			Sleep((DWORD)atol(v));
			i++;
		} else if (!strcmp(a, "exit")) {
			return atoi(v);
		} else if (!strcmp(a, "env")) {
			wchar_t *block = GetEnvironmentStringsW();

			for (wchar_t *e = block; *e; e += wcslen(e) + 1) {
				char u[4096];
				int n = WideCharToMultiByte(CP_UTF8, 0, e, -1,
							    u, sizeof(u), NULL,
							    NULL);

				if (n > 0) {
					put(1, u, (size_t)n - 1);
					put(1, "\n", 1);
				}
			}
			FreeEnvironmentStringsW(block);
		} else if (!strcmp(a, "parent")) {
			char *name = plat_sys_parent_name();

			put(1, name ? name : "(null)",
			    strlen(name ? name : "(null)"));
			free(name);
		} else if (!strcmp(a, "handle")) {
			HANDLE h = (HANDLE)(uintptr_t)strtoull(v, NULL, 10);
			DWORD flags;

			return GetHandleInformation(h, &flags) ? 10 : 11;
		} else if (!strcmp(a, "close")) {
			_close(1);
			_close(2);
		} else if (!strcmp(a, "tty")) {
			unsigned cols = 9;
			int tty = plat_sys_stderr_tty(&cols);

			snprintf(line, sizeof(line), "%d %u", tty, cols);
			put(1, line, strlen(line));
		} else {
			return 98;
		}
	}
	return 0;
}
