/*
 * plat_proc_posix.c: plat_proc.h on Linux: execvp; posix_spawn, pipes,
 * poll, SIGKILL, waitpid.
 */
#include "plat/plat_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "plat/envmap.h"

extern char **environ;

int plat_exec(char *const *argv, char *const *envp)
{
	static char *no_env[] = { NULL };
	char **saved = environ;
	int e;

	/* execvp searches the new PATH: the selection's nvcc is found */
	environ = envp ? (char **)envp : no_env;
	execvp(argv[0], argv);
	e = errno;
	/* the caller frees envp: environ must not point into it */
	environ = saved;
	errno = e;
	return -1;
}

/* ---- a child read back ------------------------------------------------- */

struct plat_child {
	int out_fd, capture_err;
	int fds[2][2]; /* [stream][read, write]; -1: none */
	int next;      /* the stream read first next time */
	pid_t pid;
	char chunk[16384];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
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

struct plat_child *plat_child_new(int out_fd, int capture_err)
{
	struct plat_child *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->out_fd = out_fd;
	c->capture_err = capture_err;
	c->pid = -1;
	for (int i = 0; i < 2; i++)
		c->fds[i][0] = c->fds[i][1] = -1;
	if ((out_fd && open_pipe(c->fds[0])) ||
	    (capture_err && open_pipe(c->fds[1]))) {
		int e = errno;

		plat_child_free(c);
		errno = e;
		return NULL;
	}
	return c;
}

/*
 * posix_spawn argv[0]; with search_path and no '/' in it, each folder of
 * envp's PATH in turn, as execvp does: a folder where it is missing is
 * passed over, one where it may not be run too but remembered (EACCES).
 * Returns 0 or an errno value.
 */
static int spawn(char *const *argv, char *const *envp, int search_path,
		 const posix_spawn_file_actions_t *fa, pid_t *pid)
{
	const char *prog = argv[0], *path, *dir;
	struct buf cand = BUF_INIT;
	int e = ENOENT, denied = 0;

	if (!search_path || strchr(prog, '/'))
		return posix_spawn(pid, prog, fa, NULL, argv, envp);
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
		e = posix_spawn(pid, cand.data, fa, NULL, argv, envp);
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

int plat_child_spawn(struct plat_child *c, char *const *argv, char *const *envp,
		     int search_path)
{
	posix_spawn_file_actions_t fa;
	int e;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (c->out_fd != 1)
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
	if (!c->capture_err)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
	if (c->out_fd)
		posix_spawn_file_actions_adddup2(&fa, c->fds[0][1], c->out_fd);
	if (c->capture_err)
		posix_spawn_file_actions_adddup2(&fa, c->fds[1][1], 2);
	e = spawn(argv, envp, search_path, &fa, &c->pid);
	posix_spawn_file_actions_destroy(&fa);
	close_fd(&c->fds[0][1]);
	close_fd(&c->fds[1][1]);
	if (e)
		c->pid = -1;
	return e;
}

int plat_child_read(struct plat_child *c, long long wait_ms, int *stream,
		    const char **data, size_t *len)
{
	struct pollfd pf[2];
	int n, wait = wait_ms < 0	  ? -1
		      : wait_ms > INT_MAX ? INT_MAX
					  : (int)wait_ms;

	for (int i = 0; i < 2; i++)
		pf[i] = (struct pollfd){ .fd = c->fds[i][0], .events = POLLIN };
	if (pf[0].fd < 0 && pf[1].fd < 0)
		return 2;
	n = poll(pf, 2, wait);
	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0)
		return n;
	/* the streams take turns: one that never pauses starves no other */
	for (int k = 0; k < 2; k++) {
		int i = (c->next + k) % 2;
		ssize_t got;

		if (pf[i].fd < 0 || !pf[i].revents)
			continue;
		got = read(pf[i].fd, c->chunk, sizeof(c->chunk));
		if (got < 0 && errno == EINTR)
			return 0;
		c->next = !i;
		*stream = i;
		*data = c->chunk;
		*len = got > 0 ? (size_t)got : 0;
		if (got <= 0)
			close_fd(&c->fds[i][0]); /* its end */
		return 1;
	}
	return 0;
}

void plat_child_kill(struct plat_child *c)
{
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
}

void plat_child_close(struct plat_child *c)
{
	close_fd(&c->fds[0][0]);
	close_fd(&c->fds[1][0]);
}

int plat_child_wait(struct plat_child *c, long long wait_ms, int *exit_code,
		    int *sig)
{
	long long deadline = wait_ms > 0 ? now_ms() + wait_ms : 0;
	long pause_ms = 1;
	int ws = 0;

	if (c->pid <= 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(c->pid, &ws, wait_ms < 0 ? 0 : WNOHANG);
		long long left;

		if (r == c->pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			c->pid = -1;
			return -1; /* reaped elsewhere: nothing known of it */
		}
		left = deadline ? deadline - now_ms() : 0;
		if (left <= 0)
			return 0;
		if (pause_ms > left)
			pause_ms = (long)left;
		nanosleep(&(struct timespec){ .tv_sec = pause_ms / 1000,
					      .tv_nsec = pause_ms % 1000 *
							 1000000 },
			  NULL);
		if (pause_ms < 50)
			pause_ms *= 2;
	}
	c->pid = -1;
	*exit_code = -1;
	*sig = 0;
	if (WIFEXITED(ws)) {
		*exit_code = WEXITSTATUS(ws);
	} else if (WIFSIGNALED(ws)) {
		*sig = WTERMSIG(ws);
	}
	return 1;
}

void plat_child_free(struct plat_child *c)
{
	if (!c)
		return;
	for (int i = 0; i < 2; i++) {
		close_fd(&c->fds[i][0]);
		close_fd(&c->fds[i][1]);
	}
	free(c);
}
