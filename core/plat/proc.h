/*
 * proc.h: running a child process and reading what it says.
 *
 * One runner for every place that starts a program and waits for it (the
 * probe and nvcc of `cuenv check`, the Python that doctor and needs ask),
 * in the spirit of git's run-command: a struct describes the child (its
 * argv, its whole environment, which of its descriptors are read back and
 * how much of them is kept, a deadline), proc_run starts it, reads,
 * waits, and fills in what happened.
 *
 *	char *argv[] = {"/usr/bin/python3", "-c", script, NULL};
 *	struct proc p = PROC_INIT;
 *
 *	p.argv = argv;
 *	p.envp = ctx->envp;
 *	p.out_fd = 1;
 *	p.max_output = 1 << 20;
 *	p.timeout_ms = 10000;
 *	if (!proc_run(&p, err) && p.exit_code == 0)
 *		use(p.out.data);
 *	proc_release(&p);
 *
 * The child's stdin is /dev/null, and so is each of its stdout and stderr
 * that is not read back: it never shares the terminal with cuenv's own
 * output. The deadline is on a monotonic clock (plat_sys_clock_ms: a step
 * of the wall clock changes nothing) and covers the whole run, the wait
 * for its exit too; past it the child gets SIGKILL. Signals that
 * interrupt the parent (EINTR) are retried, never taken for the child's
 * end.
 *
 * This file is the portable part (the results, the bound, the deadline);
 * starting, reading, killing and waiting are plat_proc.h's plat_child_*
 * (plat_proc_posix.c, plat_proc_win.c). On Windows: the null device is
 * NUL, argv becomes one command line (plat_cmdline_quote) and envp a
 * sorted block, search_path looks in envp's Path with ".exe" added, the
 * kill is TerminateProcess, reported as signal PLAT_CHILD_KILLED (9,
 * SIGKILL's number, so proc_status is 137 on both), and an exit status
 * keeps its low 31 bits (an NTSTATUS such as 0xC0000005 stays >= 0).
 */
#ifndef CUENV_PROC_H
#define CUENV_PROC_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

struct proc {
	/* ---- the child, set by the caller ---- */
	/*
	 * argv[0] is the program: a path, or, with search_path and no '/'
	 * in it, a name looked up in the PATH of envp (as execvp would).
	 */
	char *const *argv;
	char *const *envp; /* its whole environment; NULL: an empty one */
	int search_path;
	/*
	 * The child's descriptor read into out: 1 (stdout), or 3 and up for
	 * a child that answers on a descriptor of its own (its stdout then
	 * goes to /dev/null; on Windows a C runtime descriptor, at most 63,
	 * passed as msvcrt and the UCRT inherit them); 0: none. With
	 * capture_err, fd 2 goes to err.
	 */
	int out_fd;
	int capture_err;
	/*
	 * At most this many bytes are kept of each (0: no bound). What
	 * comes after is read and dropped, or, with kill_on_overflow, the
	 * child is killed (overflowed is set).
	 */
	size_t max_output;
	int kill_on_overflow;
	unsigned timeout_ms; /* killed after this long (0: never) */

	/* ---- what happened, set by proc_run ---- */
	struct buf out, err;
	int exit_code;	 /* its exit status, or -1 when a signal ended it */
	int signal;	 /* the signal that ended it, or 0 */
	int timed_out;	 /* killed at the deadline */
	int overflowed;	 /* killed for saying more than max_output */
	int start_errno; /* why it could not be started, or 0 */
};

#define PROC_INIT                                                              \
	{                                                                      \
		NULL, NULL, 0, 0, 0, 0, 0, 0, BUF_INIT, BUF_INIT, -1, 0, 0, 0, \
			0                                                      \
	}

/*
 * Run p->argv as described and wait for it, filling in p's results (out
 * and err are appended to). Returns CUENV_OK when the child ran, whatever
 * its status; CUENV_E_STORE when it could not be started (start_errno
 * set, message "cannot run 'PROG': REASON") or read (no pipe, a failed
 * poll: the child is killed and reaped first).
 */
int proc_run(struct proc *p, struct cuenv_err *err);

/*
 * Its status as a shell gives it: the exit status, or 128 + the signal
 * that ended it.
 */
int proc_status(const struct proc *p);

/* Free out and err; the rest of p is the caller's. */
void proc_release(struct proc *p);

#endif
