/*
 * plat_proc.h: starting programs, the system's part.
 *
 * plat_exec runs a program in place of cuenv (`cuenv exec`). The
 * plat_child_* calls are the back end of proc.h's runner (core/plat/proc.c
 * keeps the portable part: the results, the bound, the deadline): a child
 * with its stdin, and each of its stdout and stderr not read back, on the
 * null device, its output read back through pipes, killed and waited for.
 *
 * Linux (plat_proc_posix.c): posix_spawn, pipes, poll, SIGKILL, waitpid.
 * Windows (plat_proc_win.c): CreateProcessW with the command line of
 * plat_cmdline_quote and an environment block sorted by name without
 * case; each pipe a named pipe read with overlapped I/O, so both are
 * drained at once and a child never blocks on a full one; the child's
 * fd 3 and up (the C runtime's descriptors) handed over in
 * STARTUPINFO.lpReserved2 as the Microsoft C runtimes read it at start;
 * TerminateProcess.
 */
#ifndef CUENV_PLAT_PROC_H
#define CUENV_PLAT_PROC_H

#include <stddef.h>

/*
 * Run argv[0] with envp as its whole environment (NULL: an empty one);
 * a name without a separator is looked up in envp's PATH.
 *
 * Linux: execvp in place of this process; returns only on failure.
 * Windows (no exec there): CreateProcessW with the command line quoted
 * by plat_cmdline_quote and an environment block sorted by name without
 * case (Path is PATH), then waits; returns the child's exit code (>= 0)
 * for the caller to exit with.
 *
 * Returns -1 with errno set when the program cannot be started (ENOENT:
 * not found).
 */
int plat_exec(char *const *argv, char *const *envp);

/* ---- a child read back (proc.h's back end) ------------------------------ */

/*
 * The signal number a child killed by plat_child_kill reports: SIGKILL's
 * on Linux; on Windows, which has no signals, the same number for a
 * child that TerminateProcess ended (so proc_status is 137 on both).
 */
#define PLAT_CHILD_KILLED 9

struct plat_child;

/*
 * The pipes for a child: its descriptor out_fd (0: none; 1: stdout; 3
 * and up: a descriptor of its own) read back as stream 0, with
 * capture_err its stderr as stream 1. NULL with errno set when a pipe
 * cannot be made.
 */
struct plat_child *plat_child_new(int out_fd, int capture_err);

/*
 * Start argv[0] (with search_path and no separator in it, looked up in
 * envp's PATH, not cuenv's) with envp (never NULL) as its whole
 * environment. Returns 0, or an errno value (ENOENT: not found; EACCES:
 * found but not runnable), the child not started.
 */
int plat_child_spawn(struct plat_child *c, char *const *argv, char *const *envp,
		     int search_path);

/*
 * Wait up to wait_ms (-1: no limit) for the next chunk of output.
 * Returns 1 with *stream (0: out, 1: err) and *data and *len set (borrowed
 * until the next call; *len 0: that stream has ended); 0 when the wait
 * passed or a signal interrupted it; 2 when every stream has ended (or
 * none was asked for); -1 with errno set when waiting failed.
 */
int plat_child_read(struct plat_child *c, long long wait_ms, int *stream,
		    const char **data, size_t *len);

/* Kill the child (SIGKILL; TerminateProcess); harmless once it ended. */
void plat_child_kill(struct plat_child *c);

/*
 * Close cuenv's ends of the pipes: a child blocked writing to a full one
 * may go on (and end).
 */
void plat_child_close(struct plat_child *c);

/*
 * Wait up to wait_ms (0: just look; -1: no limit) for the child's end.
 * Returns 1 with *exit_code (its status, or -1 when a signal ended it)
 * and *sig (the signal, or 0) set; 0 when it still runs; -1 when nothing
 * can be known of it (reaped elsewhere).
 */
int plat_child_wait(struct plat_child *c, long long wait_ms, int *exit_code,
		    int *sig);

/*
 * Close what is left and free c (NULL is fine). A child not waited for
 * is not killed, and on Linux stays a zombie: wait first.
 */
void plat_child_free(struct plat_child *c);

#endif
