/* plat_lock_win.c: plat_lock.h on Windows: LockFileEx on the handle. */
#include "plat/plat_lock.h"

#include <errno.h>
#include <io.h>
#include <string.h>
#include <windows.h>

int plat_lock(int fd, int exclusive, int wait)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	OVERLAPPED ov;
	DWORD flags = (exclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0) |
		      (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);

	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	memset(&ov, 0, sizeof(ov));
	if (LockFileEx(h, flags, 0, MAXDWORD, MAXDWORD, &ov))
		return 0;
	errno = GetLastError() == ERROR_LOCK_VIOLATION ||
				GetLastError() == ERROR_IO_PENDING
			? EAGAIN
			: EIO;
	return -1;
}
