/* plat_sys_posix.c: plat_sys.h on Linux. */
#include "plat_sys.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *plat_sys_platform(void)
{
	struct utsname u;

	if (uname(&u))
		return "linux-x86_64";
	if (!strcmp(u.machine, "aarch64"))
		return "linux-sbsa";
	if (!strcmp(u.machine, "ppc64le"))
		return "linux-ppc64le";
	return "linux-x86_64";
}

unsigned plat_sys_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1u : (unsigned)n;
}

long plat_sys_pid(void)
{
	return (long)getpid();
}

int plat_sys_pid_alive(long pid)
{
	return !(kill((pid_t)pid, 0) && errno == ESRCH);
}

void plat_sys_now(int64_t *sec, long *nsec)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	*sec = (int64_t)now.tv_sec;
	*nsec = now.tv_nsec;
}
