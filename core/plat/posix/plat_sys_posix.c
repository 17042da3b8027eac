/* plat_sys_posix.c: plat_sys.h on Linux. */
#include "plat/plat_sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "plat/plat_path.h"

/* ---- which platform: a server or a Jetson (issue 25) ------------------- */

/*
 * The first size - 1 bytes at most of root/rel into out, NUL-terminated
 * (a NUL inside stays: the device tree separates its strings so); the
 * count read, or -1 when the file cannot be read.
 */
static long read_head(const char *root, const char *rel, char *out, size_t size)
{
	struct buf p = BUF_INIT;
	FILE *f;
	size_t n = 0;

	buf_path(&p, root, rel);
	f = fopen(p.data, "rb");
	buf_release(&p);
	if (!f)
		return -1;
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return (long)n;
}

/* Does the NUL-separated list of n bytes hold a string starting with s? */
static int list_has_prefix(const char *list, size_t n, const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < n; i += strlen(list + i) + 1)
		if (!strncmp(list + i, s, len))
			return 1;
	return 0;
}

const char *plat_sys_linux_platform(const char *machine, const char *root)
{
	char text[4096];
	long n;

	if (!strcmp(machine, "ppc64le"))
		return "linux-ppc64le";
	if (strcmp(machine, "aarch64"))
		return "linux-x86_64";
	/* L4T's "# R36 (release), REVISION: 4.0, ..." */
	n = read_head(root, "etc/nv_tegra_release", text, sizeof(text));
	if (n >= 0) {
		unsigned long major = 0;
		const char *r = strstr(text, "# R");

		if (r && r[3] >= '0' && r[3] <= '9')
			major = strtoul(r + 3, NULL, 10);
		return major >= 38 ? "linux-sbsa" : "linux-aarch64";
	}
	n = read_head(root, "proc/device-tree/compatible", text, sizeof(text));
	if (n > 0 && !list_has_prefix(text, (size_t)n, "nvidia,tegra264") &&
	    list_has_prefix(text, (size_t)n, "nvidia,tegra"))
		return "linux-aarch64";
	return "linux-sbsa";
}

const char *plat_sys_platform(void)
{
	struct utsname u;

	if (uname(&u))
		return "linux-x86_64";
	return plat_sys_linux_platform(u.machine, "/");
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

int64_t plat_sys_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* readlink's whole answer, however long: one call, no walk of links. */
char *plat_sys_system_dir(void)
{
	errno = ENOSYS;
	return NULL;
}

char *plat_sys_exe_path(void)
{
	struct buf b = BUF_INIT;

	for (size_t size = 256;; size *= 2) {
		ssize_t n;

		buf_reset(&b);
		buf_grow(&b, size);
		n = readlink("/proc/self/exe", b.data, size);
		if (n < 0) {
			buf_release(&b);
			return NULL;
		}
		if ((size_t)n < size) {
			b.len = (size_t)n;
			b.data[n] = '\0';
			return buf_detach(&b);
		}
	}
}

char *plat_sys_parent_name(void)
{
	char path[64], comm[64];
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)getppid());
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fgets(comm, sizeof(comm), f)) {
		e = ferror(f) ? errno : ENOENT;
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strdup(comm);
}

int plat_sys_stderr_tty(unsigned *cols)
{
	struct winsize w;

	*cols = 0;
	if (!isatty(2))
		return 0;
	if (!ioctl(2, TIOCGWINSZ, &w))
		*cols = w.ws_col;
	return 1;
}

int plat_sys_stdin_tty(void)
{
	return isatty(0);
}

int plat_sys_color_tty(int fd)
{
	return isatty(fd);
}

const char *plat_sys_signal_name(int sig)
{
	const char *s = strsignal(sig);

	return s ? s : "Unknown signal";
}

enum plat_lib_naming plat_sys_lib_naming(void)
{
	return PLAT_LIB_SONAME;
}

const char *plat_sys_cuda_driver(void)
{
	return "libcuda.so.1";
}
