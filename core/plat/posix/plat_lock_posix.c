/*
 * plat_lock_posix.c: plat_lock.h on Linux: open file description locks,
 * classic fcntl locks where the kernel has none (EINVAL).
 */
#include "plat/plat_lock.h"

#include <errno.h>
#include <fcntl.h>

static int set(int fd, short type, int wait)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };
	int ofd = 1;

	for (;;) {
		int cmd = ofd ? (wait ? F_OFD_SETLKW : F_OFD_SETLK)
			      : (wait ? F_SETLKW : F_SETLK);

		fl.l_pid = 0; /* F_OFD_* insist */
		if (!fcntl(fd, cmd, &fl))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EINVAL && ofd) {
			ofd = 0;
			continue;
		}
		if (errno == EACCES)
			errno = EAGAIN;
		return -1;
	}
}

int plat_lock(int fd, int exclusive, int wait)
{
	return set(fd, exclusive ? F_WRLCK : F_RDLCK, wait);
}
