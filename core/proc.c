/*
 * proc.c: one child process, started, read and reaped within a deadline.
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * fd moved to 10 and up, close-on-exec: the child's dup2() onto 1, 2 or 3
 * then never meets a pipe end already there (a no-op that would leave
 * it close-on-exec, and the child without it).
 */
static int high_fd(int fd)
{
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	close(fd);
	return hi;
}

static int open_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	fds[0] = high_fd(fds[0]);
	fds[1] = high_fd(fds[1]);
	return fds[0] < 0 || fds[1] < 0 ? -1 : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * posix_spawn argv[0]; with search_path and no '/' in it, each folder of
 * envp's PATH in turn, as execvp does: a folder where it is missing is
 * passed over, one where it may not be run too but remembered (EACCES).
 * Returns 0 or an errno value.
 */
static int spawn(const struct proc *p, char *const *envp,
		 const posix_spawn_file_actions_t *fa, pid_t *pid)
{
	const char *prog = p->argv[0], *path, *dir;
	struct buf cand = BUF_INIT;
	int e = ENOENT, denied = 0;

	if (!p->search_path || strchr(prog, '/'))
		return posix_spawn(pid, prog, fa, NULL, p->argv, envp);
	if (!*prog)
		return ENOENT;
	path = env_get(envp, "PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (dir = path;; dir++) {
		size_t n = strcspn(dir, ":");

		buf_reset(&cand);
		buf_add(&cand, n ? dir : ".", n ? n : 1);
		buf_addc(&cand, '/');
		buf_adds(&cand, prog);
		e = posix_spawn(pid, cand.data, fa, NULL, p->argv, envp);
		if (e == EACCES)
			denied = 1;
		else if (e != ENOENT && e != ENOTDIR)
			break;
		dir += n;
		if (!*dir)
			break;
	}
	buf_release(&cand);
	return e && denied ? EACCES : e;
}

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
 * Read fds[] (-1: closed) into out and err until both end, the deadline
 * (0: none) passes or, with kill_on_overflow, one says too much. Sets
 * timed_out or overflowed; fails only when poll() does.
 */
static int collect(struct proc *p, int fds[2], long long deadline,
		   struct cuenv_err *err)
{
	struct pollfd pf[2];
	struct buf *into[2] = { &p->out, &p->err };
	char chunk[16384];

	for (int i = 0; i < 2; i++)
		pf[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		int wait = -1, n;

		if (deadline) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				p->timed_out = 1;
				return CUENV_OK;
			}
			wait = left > INT_MAX ? INT_MAX : (int)left;
		}
		n = poll(pf, 2, wait);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot read from '%s': %s",
					  p->argv[0], strerror(errno));
		for (int i = 0; i < 2; i++) {
			ssize_t got;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			got = read(pf[i].fd, chunk, sizeof(chunk));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				pf[i].fd = -1; /* its end: the caller closes */
				continue;
			}
			if (keep(p, into[i], chunk, (size_t)got) &&
			    p->kill_on_overflow) {
				p->overflowed = 1;
				return CUENV_OK;
			}
		}
	}
	return CUENV_OK;
}

/*
 * Wait for pid, killing it first when it was given up on, or at the
 * deadline (0: none) if it still runs after closing its output.
 */
static void reap(struct proc *p, pid_t pid, long long deadline)
{
	int killed = p->timed_out || p->overflowed, ws = 0;
	long pause_ms = 1;

	if (killed)
		kill(pid, SIGKILL);
	for (;;) {
		pid_t r = waitpid(pid, &ws, deadline && !killed ? WNOHANG : 0);
		long long left;

		if (r == pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return; /* reaped elsewhere: nothing known of it */
		left = deadline - now_ms();
		if (left <= 0) {
			kill(pid, SIGKILL);
			p->timed_out = killed = 1;
			continue;
		}
		if (pause_ms > left)
			pause_ms = (long)left;
		nanosleep(&(struct timespec){ .tv_sec = pause_ms / 1000,
					      .tv_nsec = pause_ms % 1000 *
							 1000000 },
			  NULL);
		if (pause_ms < 50)
			pause_ms *= 2;
	}
	if (WIFEXITED(ws)) {
		p->exit_code = WEXITSTATUS(ws);
	} else if (WIFSIGNALED(ws)) {
		p->exit_code = -1;
		p->signal = WTERMSIG(ws);
	}
}

int proc_run(struct proc *p, struct cuenv_err *err)
{
	static char *const no_env[] = { NULL };
	char *const *envp = p->envp ? p->envp : no_env;
	posix_spawn_file_actions_t fa;
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, rc = CUENV_OK, e;
	long long deadline = p->timeout_ms ? now_ms() + p->timeout_ms : 0;
	pid_t pid;

	p->exit_code = -1;
	p->signal = p->timed_out = p->overflowed = p->start_errno = 0;
	if ((p->out_fd && open_pipe(out)) ||
	    (p->capture_err && open_pipe(errp))) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot make a pipe: %s",
				strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (p->out_fd != 1)
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
	if (!p->capture_err)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
	if (p->out_fd)
		posix_spawn_file_actions_adddup2(&fa, out[1], p->out_fd);
	if (p->capture_err)
		posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
	e = spawn(p, envp, &fa, &pid);
	posix_spawn_file_actions_destroy(&fa);
	close_fd(&out[1]);
	close_fd(&errp[1]);
	if (e) {
		struct buf shown = BUF_INIT;

		p->start_errno = e;
		buf_add_display(&shown, p->argv[0], 200);
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot run '%s': %s",
				shown.data, strerror(e));
		buf_release(&shown);
		goto out;
	}
	{
		int fds[2] = { out[0], errp[0] };

		rc = collect(p, fds, deadline, err);
	}
	/*
	 * Given up on: killed while its pipes are still open, so that it dies
	 * of SIGKILL, not of a SIGPIPE raced in by the close below.
	 */
	if (rc || p->timed_out || p->overflowed)
		kill(pid, SIGKILL);
	/* closed first: a child blocked writing to a full pipe may end */
	close_fd(&out[0]);
	close_fd(&errp[0]);
	reap(p, pid, rc ? 0 : deadline);
out:
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
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
