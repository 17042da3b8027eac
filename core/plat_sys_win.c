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
