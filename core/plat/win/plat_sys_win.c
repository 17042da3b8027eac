/* plat_sys_win.c: plat_sys.h on Windows. */
#include "plat/plat_sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <tlhelp32.h>

#include "base/buf.h"
#include "base/xalloc.h"

const char *plat_sys_platform(void)
{
	return "windows-x86_64";
}

unsigned plat_sys_cpus(void)
{
	DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);

	return n < 1 ? 1u : (unsigned)n;
}

long plat_sys_pid(void)
{
	return (long)GetCurrentProcessId();
}

int plat_sys_pid_alive(long pid)
{
	HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
			       (DWORD)pid);
	DWORD code = STILL_ACTIVE;

	if (!h)
		return GetLastError() != ERROR_INVALID_PARAMETER;
	if (GetExitCodeProcess(h, &code) && code != STILL_ACTIVE)
		code = 0;
	CloseHandle(h);
	return code == STILL_ACTIVE;
}

void plat_sys_now(int64_t *sec, long *nsec)
{
	FILETIME ft;
	uint64_t t;

	GetSystemTimePreciseAsFileTime(&ft);
	t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
	*sec = (int64_t)(t / 10000000u) - INT64_C(11644473600);
	*nsec = (long)(t % 10000000u) * 100;
}

int64_t plat_sys_clock_ms(void)
{
	return (int64_t)GetTickCount64();
}

/* UTF-16 -> malloc'd UTF-8, or NULL with errno EINVAL. */
static char *narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s;

	if (n <= 0) {
		errno = EINVAL;
		return NULL;
	}
	s = xmalloc((size_t)n);
	WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
	return s;
}

char *plat_sys_system_dir(void)
{
	wchar_t w[MAX_PATH + 1];
	UINT n = GetSystemDirectoryW(w, MAX_PATH + 1);

	if (!n || n > MAX_PATH) {
		errno = n ? ENAMETOOLONG : EACCES;
		return NULL;
	}
	return narrow(w);
}

char *plat_sys_exe_path(void)
{
	for (DWORD size = 260;; size *= 2) {
		wchar_t *w = xmalloc((size_t)size * sizeof(*w));
		DWORD n = GetModuleFileNameW(NULL, w, size);
		char *s;

		if (!n) {
			free(w);
			errno = EACCES;
			return NULL;
		}
		/* cut short: n == size (and ERROR_INSUFFICIENT_BUFFER) */
		if (n < size) {
			s = narrow(w);
			free(w);
			return s;
		}
		free(w);
		if (size >= 32768u * 2) {
			errno = ENAMETOOLONG;
			return NULL;
		}
	}
}

/* The entry of pid in snapshot snap, into *pe; 0 when it is not there. */
static int find_process(HANDLE snap, DWORD pid, PROCESSENTRY32W *pe)
{
	pe->dwSize = sizeof(*pe);
	if (!Process32FirstW(snap, pe))
		return 0;
	do {
		if (pe->th32ProcessID == pid)
			return 1;
	} while (Process32NextW(snap, pe));
	return 0;
}

/*
 * Was process pid started before this one? A parent that ended leaves
 * its id free for a newer process, which is then no parent of ours.
 */
static int started_before_me(DWORD pid)
{
	HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
	FILETIME made, mine, x1, x2, x3;
	int before = 1; /* cannot ask: taken on trust */

	if (!h)
		return GetLastError() != ERROR_INVALID_PARAMETER;
	if (GetProcessTimes(h, &made, &x1, &x2, &x3) &&
	    GetProcessTimes(GetCurrentProcess(), &mine, &x1, &x2, &x3))
		before = CompareFileTime(&made, &mine) <= 0;
	CloseHandle(h);
	return before;
}

char *plat_sys_parent_name(void)
{
	HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
	PROCESSENTRY32W pe;
	char *name = NULL;
	int found;

	if (snap == INVALID_HANDLE_VALUE) {
		errno = EACCES;
		return NULL;
	}
	found = find_process(snap, GetCurrentProcessId(), &pe) &&
		find_process(snap, pe.th32ParentProcessID, &pe) &&
		started_before_me(pe.th32ProcessID);
	CloseHandle(snap);
	if (!found) {
		errno = ENOENT; /* no parent, or it ended */
		return NULL;
	}
	name = narrow(pe.szExeFile);
	if (name) {
		size_t n = strlen(name);
		const char *base = name + n;

		while (base > name && base[-1] != '\\' && base[-1] != '/')
			base--;
		if (n >= 4 && !_stricmp(name + n - 4, ".exe"))
			name[n - 4] = '\0';
		memmove(name, base, strlen(base) + 1);
	}
	return name;
}

int plat_sys_stderr_tty(unsigned *cols)
{
	HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
	CONSOLE_SCREEN_BUFFER_INFO info;
	DWORD mode;

	*cols = 0;
	if (!h || h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode))
		return 0;
	if (GetConsoleScreenBufferInfo(h, &info) &&
	    info.srWindow.Right >= info.srWindow.Left)
		*cols = (unsigned)(info.srWindow.Right - info.srWindow.Left +
				   1);
	return 1;
}

int plat_sys_stdin_tty(void)
{
	HANDLE h = GetStdHandle(STD_INPUT_HANDLE);
	DWORD mode;

	return h && h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode);
}

int plat_sys_color_tty(int fd)
{
	HANDLE h = GetStdHandle(fd == 1 ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
	DWORD mode;

	if (!h || h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode))
		return 0;
	/* ENABLE_VIRTUAL_TERMINAL_PROCESSING: Windows 10 and later */
	return (mode & 0x0004) || SetConsoleMode(h, mode | 0x0004);
}

const char *plat_sys_signal_name(int sig)
{
	static char text[32];

	if (sig == 9)
		return "Killed";
	snprintf(text, sizeof(text), "Unknown signal %d", sig);
	return text;
}

enum plat_lib_naming plat_sys_lib_naming(void)
{
	return PLAT_LIB_DLL;
}

const char *plat_sys_cuda_driver(void)
{
	return "nvcuda.dll";
}
