/* plat_sys_win.c: plat_sys.h on Windows. */
#include "plat_sys.h"

#include <windows.h>

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
