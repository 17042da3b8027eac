/*
 * proc.c: one child process, started, read and reaped within a deadline.
 */
#include "plat/proc.h"

#include <errno.h>
#include <string.h>

#include "plat/plat_proc.h"
#include "plat/plat_sys.h"

/* Keep what fits of data in b; 1 when some did not. */
static int keep(const struct proc *p, struct buf *b, const char *data, size_t n)
{
	size_t room = n;

	if (p->max_output)
		room = b->len >= p->max_output ? 0 : p->max_output - b->len;
	buf_add(b, data, n < room ? n : room);
	return n > room;
}

/*
 * Read the child's output into out and err until both end, the deadline
 * (0: none) passes or, with kill_on_overflow, one says too much. Sets
 * timed_out or overflowed; fails only when waiting for output does.
 */
static int collect(struct proc *p, struct plat_child *c, int64_t deadline,
		   struct cuenv_err *err)
{
	struct buf *into[2] = { &p->out, &p->err };

	for (;;) {
		long long wait = -1;
		const char *data;
		size_t len;
		int stream, r;

		if (deadline) {
			wait = deadline - plat_sys_clock_ms();
			if (wait <= 0) {
				p->timed_out = 1;
				return CUENV_OK;
			}
		}
		r = plat_child_read(c, wait, &stream, &data, &len);
		if (r == 2)
			return CUENV_OK;
		if (r < 0)
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot read from '%s': %s",
					  p->argv[0], strerror(errno));
		if (r == 1 && len && keep(p, into[stream], data, len) &&
		    p->kill_on_overflow) {
			p->overflowed = 1;
			return CUENV_OK;
		}
	}
}

/*
 * Wait for the child, killing it first when it was given up on, or at
 * the deadline (0: none) if it still runs after closing its output.
 */
static void reap(struct proc *p, struct plat_child *c, int64_t deadline)
{
	int killed = p->timed_out || p->overflowed;

	if (killed)
		plat_child_kill(c);
	for (;;) {
		long long wait = -1;

		if (deadline && !killed) {
			wait = deadline - plat_sys_clock_ms();
			if (wait < 0)
				wait = 0; /* one look before the kill */
		}
		if (plat_child_wait(c, wait, &p->exit_code, &p->signal))
			return; /* ended, or reaped elsewhere */
		plat_child_kill(c);
		p->timed_out = killed = 1;
	}
}

int proc_run(struct proc *p, struct cuenv_err *err)
{
	static char *const no_env[] = { NULL };
	char *const *envp = p->envp ? p->envp : no_env;
	int64_t deadline =
		p->timeout_ms ? plat_sys_clock_ms() + p->timeout_ms : 0;
	struct plat_child *c;
	int rc = CUENV_OK, e;

	p->exit_code = -1;
	p->signal = p->timed_out = p->overflowed = p->start_errno = 0;
	c = plat_child_new(p->out_fd, p->capture_err);
	if (!c)
		return cuenv_fail(err, CUENV_E_STORE, "cannot make a pipe: %s",
				  strerror(errno));
	e = plat_child_spawn(c, p->argv, envp, p->search_path);
	if (e) {
		struct buf shown = BUF_INIT;

		p->start_errno = e;
		buf_add_display(&shown, p->argv[0], 200);
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot run '%s': %s",
				shown.data, strerror(e));
		buf_release(&shown);
		goto out;
	}
	rc = collect(p, c, deadline, err);
	/*
	 * Given up on: killed while its pipes are still open, so that it dies
	 * of SIGKILL, not of a SIGPIPE raced in by the close below.
	 */
	if (rc || p->timed_out || p->overflowed)
		plat_child_kill(c);
	/* closed first: a child blocked writing to a full pipe may end */
	plat_child_close(c);
	reap(p, c, rc ? 0 : deadline);
out:
	plat_child_free(c);
	return rc;
}

int proc_status(const struct proc *p)
{
	if (p->exit_code >= 0)
		return p->exit_code;
	return p->signal ? 128 + p->signal : -1;
}

void proc_release(struct proc *p)
{
	buf_release(&p->out);
	buf_release(&p->err);
}
