/*
 * plat_sys.h: facts about the running system (issue 13).
 *
 * plat_sys_platform: the platform name NVIDIA's redistrib manifests use
 * for this machine: on Linux from uname(2)'s machine and, on aarch64, the
 * files that tell a Jetson from a server (plat_sys_linux_platform);
 * "windows-x86_64" on Windows (the only Windows platform in NVIDIA's
 * manifests).
 * plat_sys_cpus: processors this process may run on, at least 1
 * (sysconf(_SC_NPROCESSORS_ONLN); GetActiveProcessorCount).
 */
#ifndef CUENV_PLAT_SYS_H
#define CUENV_PLAT_SYS_H

#include <stdint.h>

const char *plat_sys_platform(void);

/*
 * Linux only: the platform of a machine whose uname(2) machine is machine,
 * reading the files under root ("/" for this one; a test's folder).
 * "x86_64" (and anything unknown) is "linux-x86_64", "ppc64le"
 * "linux-ppc64le". "aarch64" is a Jetson, "linux-aarch64" (the CUDA of
 * NVIDIA's L4T, built for its integrated GPU), when root/etc/
 * nv_tegra_release exists (L4T writes it: "# R36 (release), ...") or
 * one of the strings of root/proc/device-tree/compatible starts with
 * "nvidia,tegra"; else a server, "linux-sbsa" (Grace, DGX Spark, other
 * SBSA machines with a discrete GPU). L4T R38 and later (JetPack 7) and
 * Thor ("nvidia,tegra264") take the server CUDA: "linux-sbsa", as CUDA
 * 13's manifests, which have no linux-aarch64 rows, expect.
 */
const char *plat_sys_linux_platform(const char *machine, const char *root);
unsigned plat_sys_cpus(void);

/*
 * This process's id (getpid; GetCurrentProcessId), and whether pid is
 * still running: 0 only when the system says there is no such process
 * (kill(pid, 0)'s ESRCH; OpenProcess failing with ERROR_INVALID_PARAMETER
 * or the process having exited), so one that cannot be asked counts as
 * alive. (plat_proc.h may take these over.)
 */
/* The time of day (clock_gettime(CLOCK_REALTIME)). */
void plat_sys_now(int64_t *sec, long *nsec);

long plat_sys_pid(void);
int plat_sys_pid_alive(long pid);

/*
 * Milliseconds on a clock that never steps back nor jumps with the time
 * of day (CLOCK_MONOTONIC; GetTickCount64), from an arbitrary start: for
 * deadlines.
 */
int64_t plat_sys_clock_ms(void);

/*
 * The running program's file, absolute, UTF-8 (readlink of
 * /proc/self/exe; GetModuleFileNameW(NULL)): malloc'd, or NULL with errno
 * set.
 */
char *plat_sys_exe_path(void);

/*
 * The folder Windows' loader searches second for a DLL loaded by name
 * (GetSystemDirectoryW: "C:\\Windows\\system32"), UTF-8, malloc'd. POSIX
 * systems have none: NULL with errno ENOSYS (doctor then knows the loader
 * is not Windows').
 */
char *plat_sys_system_dir(void);

/*
 * The name of the process that started this one, as the system keeps it:
 * Linux: /proc/PPID/comm ("bash", cut to 15 bytes by the kernel);
 * Windows: the parent's file name from a Toolhelp32 snapshot, without
 * its folder and without a final ".exe" (any case): "pwsh", "cmd",
 * "bash". malloc'd, or NULL with errno set (ENOENT: no parent known, or
 * it ended).
 */
char *plat_sys_parent_name(void);

/*
 * Is stderr a terminal (isatty(2); on Windows a console, GetConsoleMode:
 * a pipe, a file or the null device is not)? Returns 1 or 0. *cols: its
 * width in columns (TIOCGWINSZ's ws_col; the console window's width from
 * GetConsoleScreenBufferInfo), 0 when it is not a terminal or does not
 * say.
 */
int plat_sys_stderr_tty(unsigned *cols);

/*
 * Is stdin a terminal that a person can answer a question on (isatty(0);
 * on Windows a console: GetConsoleMode)? Returns 1 or 0.
 */
int plat_sys_stdin_tty(void);

/*
 * Does fd (1: stdout, 2: stderr) go to a terminal that shows ANSI colour
 * sequences (isatty(fd); on Windows a console that takes virtual terminal
 * sequences, which this turns on)? Returns 1 or 0.
 */
int plat_sys_color_tty(int fd);

/*
 * What killed a child, in words, for status 128 + sig (proc.h): POSIX's
 * strsignal ("Killed", "Segmentation fault"); on Windows, where proc
 * reports TerminateProcess as signal 9 and nothing else as a signal,
 * "Killed" for 9 and "Unknown signal N" otherwise. Never NULL; may be
 * overwritten by the next call.
 */
const char *plat_sys_signal_name(int sig);

/*
 * How this system names the CUDA libraries an application loads by name
 * (plat_dl.h): Linux by soname ("libcudart.so.11.0", the driver
 * "libcuda.so.1"), Windows by DLL name ("cudart64_110.dll", the driver
 * "nvcuda.dll", which NVIDIA's display driver puts in System32).
 */
enum plat_lib_naming { PLAT_LIB_SONAME, PLAT_LIB_DLL };

enum plat_lib_naming plat_sys_lib_naming(void);

/* The CUDA driver's library: "libcuda.so.1", or "nvcuda.dll". */
const char *plat_sys_cuda_driver(void);

#endif
