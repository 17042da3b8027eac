#include "fakes/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plat/file.h"

/* ---- reading whole files ------------------------------------------------- */

static void test_file_read_reads_the_whole_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "a.txt");

	fx_write(fx, "a.txt", "line one\nline two\n");
	buf_adds(&text, "left over from before");
	assert_int_equal(file_read(path, 100, 0, &text, &err), CUENV_OK);
	assert_string_equal(text.data, "line one\nline two\n");
	assert_int_equal(text.len, 18);
	assert_int_equal(err.rc, CUENV_OK);
	buf_release(&text);
	free(path);
}

static void test_file_read_of_empty_file_is_empty_text(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "empty");

	fx_touch(fx, "empty");
	buf_adds(&text, "x");
	assert_int_equal(file_read(path, 0, 0, &text, &err), CUENV_OK);
	assert_int_equal(text.len, 0);
	assert_string_equal(text.data, "");
	buf_release(&text);
	free(path);
}

static void test_file_read_keeps_nul_bytes(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "bin");

	fx_write_bytes(fx, "bin", "a\0b\0", 4);
	assert_int_equal(file_read(path, 4, 0, &text, &err), CUENV_OK);
	assert_int_equal(text.len, 4);
	assert_memory_equal(text.data, "a\0b\0", 5); /* and NUL-terminated */
	buf_release(&text);
	free(path);
}

static void test_file_read_of_missing_file_names_it(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "nothing-here");
	char *want = NULL;

	assert_int_equal(file_read(path, 100, 0, &text, &err), CUENV_E_STORE);
	assert_int_equal(err.rc, CUENV_E_STORE);
	assert_true(asprintf(&want,
			     "cannot open '%s': No such file or "
			     "directory",
			     path) > 0);
	assert_string_equal(err.msg.data, want);
	err_release(&err);
	free(want);
	free(path);
}

static void test_file_read_may_be_missing_is_no(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "nothing-here");
	char *below = fx_path(fx, "a-file/below");

	fx_touch(fx, "a-file");
	assert_int_equal(file_read(path, 100, FILE_MAY_BE_MISSING, &text, &err),
			 CUENV_NO);
	/* err untouched */
	assert_int_equal(err.rc, CUENV_OK);
	assert_int_equal(err.msg.len, 0);
	/* a path through a file (ENOTDIR) is missing too */
	assert_int_equal(
	    file_read(below, 100, FILE_MAY_BE_MISSING, &text, &err), CUENV_NO);
	assert_int_equal(err.msg.len, 0);
	free(below);
	free(path);
}

static void test_file_read_of_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "dir");
	char *want = NULL;

	fx_mkdir(fx, "dir");
	assert_int_equal(file_read(path, 100, FILE_MAY_BE_MISSING, &text, &err),
			 CUENV_NO);
	assert_int_equal(err.msg.len, 0);
	assert_int_equal(file_read(path, 100, 0, &text, &err), CUENV_E_STORE);
	assert_true(asprintf(&want, "'%s' is a folder, not a file", path) > 0);
	assert_string_equal(err.msg.data, want);
	err_release(&err);
	free(want);
	free(path);
}

/* A FIFO nobody writes to would block a plain open and read forever. */
static void test_file_read_refuses_fifo_without_blocking(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "fifo");

	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_int_equal(file_read(path, 100, FILE_MAY_BE_MISSING, &text, &err),
			 CUENV_E_STORE);
	alarm(0);
	assert_non_null(
	    strstr(err.msg.data, "is a FIFO, device or socket, not a file"));
	assert_non_null(strstr(err.msg.data, path));
	err_release(&err);
	free(path);
}

static void test_file_read_bound(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "ten");
	char *want = NULL;

	fx_write(fx, "ten", "0123456789");
	/* exactly the bound: fine */
	assert_int_equal(file_read(path, 10, 0, &text, &err), CUENV_OK);
	assert_string_equal(text.data, "0123456789");
	/* one byte over */
	assert_int_equal(file_read(path, 9, 0, &text, &err), CUENV_E_STORE);
	assert_true(asprintf(&want, "'%s' is larger than 9 bytes", path) > 0);
	assert_string_equal(err.msg.data, want);
	err_release(&err);
	free(want);
	buf_release(&text);
	free(path);
}

/* Larger than one read block, and a bound that falls inside a block. */
static void test_file_read_bound_across_blocks(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "big");
	size_t n = 3 * 4096 + 17;
	char *data = malloc(n);

	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	fx_write_bytes(fx, "big", data, n);
	assert_int_equal(file_read(path, n, 0, &text, &err), CUENV_OK);
	assert_int_equal(text.len, n);
	assert_memory_equal(text.data, data, n);
	assert_int_equal(file_read(path, n - 1, 0, &text, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "larger than"));
	err_release(&err);
	buf_release(&text);
	free(data);
	free(path);
}

static void test_file_read_of_unreadable_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "secret");

	if (geteuid() == 0) {
		free(path);
		skip(); /* root reads anything */
	}
	fx_write(fx, "secret", "x");
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(file_read(path, 100, FILE_MAY_BE_MISSING, &text, &err),
			 CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot open"));
	assert_non_null(strstr(err.msg.data, path));
	err_release(&err);
	free(path);
}

static void test_file_read_fd_appends_up_to_max(void **state)
{
	struct fixture *fx = *state;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "f");
	int fd;

	fx_write(fx, "f", "abcdef");
	buf_adds(&text, ">");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(file_read_fd(fd, 6, &text), 0);
	assert_string_equal(text.data, ">abcdef");
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	buf_reset(&text);
	errno = 0;
	assert_int_equal(file_read_fd(fd, 5, &text), -1);
	assert_int_equal(errno, EFBIG);
	close(fd);
	buf_release(&text);
	free(path);
}

/* ---- writing whole files ------------------------------------------------- */

static void test_file_write_creates_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "new");
	char *text;
	struct stat st;

	assert_int_equal(file_write(path, "hello\n", 6, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	text = fx_read(fx, "new");
	assert_string_equal(text, "hello\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(fx_count_entries(fx, ""), 1);
	free(text);
	free(path);
}

static void test_file_write_writes_len_bytes(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, "bin");

	/* NUL bytes are data, and only len bytes are written */
	assert_int_equal(file_write(path, "a\0bXYZ", 3, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	assert_int_equal(file_read(path, 10, 0, &text, &err), CUENV_OK);
	assert_int_equal(text.len, 3);
	assert_memory_equal(text.data, "a\0b", 3);
	/* an empty text is an empty file, not a removal */
	assert_int_equal(file_write(path, "", 0, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	assert_true(fx_exists(fx, "bin"));
	assert_int_equal(file_read(path, 10, 0, &text, &err), CUENV_OK);
	assert_int_equal(text.len, 0);
	buf_release(&text);
	free(path);
}

static void test_file_write_replaces_by_rename(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/f");
	char old[32] = {0};
	char *text;
	struct stat before, after;
	int fd;

	fx_write(fx, "proj/f", "old text\n");
	assert_int_equal(stat(path, &before), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(file_write(path, "new\n", 4, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	assert_int_equal(stat(path, &after), 0);
	/* a new file took the name; a reader of the old one sees it whole */
	assert_true(before.st_ino != after.st_ino);
	assert_int_equal(read(fd, old, sizeof(old) - 1), 9);
	assert_string_equal(old, "old text\n");
	close(fd);
	text = fx_read(fx, "proj/f");
	assert_string_equal(text, "new\n");
	/* no temporary file left behind */
	assert_int_equal(fx_count_entries(fx, "proj"), 1);
	free(text);
	free(path);
}

static void test_file_write_keeps_or_sets_mode(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "f");
	char *fresh = fx_path(fx, "g");
	struct stat st;

	fx_write(fx, "f", "1\n");
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(file_write(path, "2\n", 2, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(file_write(path, "3\n", 2, FILE_MODE_KEEP, &err),
			 CUENV_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0664);
	/* a mode given wins over the old file's */
	assert_int_equal(file_write(path, "4\n", 2, 0640, &err), CUENV_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* and is not cut by the umask */
	assert_int_equal(file_write(fresh, "5\n", 2, 0755, &err), CUENV_OK);
	assert_int_equal(stat(fresh, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	free(fresh);
	free(path);
}

/* A linked file: neither the link nor its target is written or removed. */
static void test_file_write_and_remove_refuse_symlink(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/.cuenv");
	char *want = NULL;
	char *got;

	fx_write(fx, "shared/cuenv", "cuda = 11.8\n");
	fx_mkdir(fx, "proj");
	fx_symlink(fx, "../shared/cuenv", "proj/.cuenv");
	assert_int_equal(file_write(path, "x\n", 2, FILE_MODE_KEEP, &err),
			 CUENV_E_STORE);
	assert_true(asprintf(&want,
			     "'%s' is a symbolic link to "
			     "'../shared/cuenv': cuenv does not write "
			     "or remove through it",
			     path) > 0);
	assert_string_equal(err.msg.data, want);
	assert_non_null(strstr(err.hint.data, "edit '../shared/cuenv'"));
	err_release(&err);
	assert_int_equal(file_remove(path, &err), CUENV_E_STORE);
	assert_string_equal(err.msg.data, want);
	err_release(&err);
	got = fx_read(fx, "shared/cuenv");
	assert_string_equal(got, "cuda = 11.8\n");
	free(got);
	assert_int_equal(fx_count_entries(fx, "proj"), 1);
	assert_int_equal(fx_count_entries(fx, "shared"), 1);
	free(want);
	free(path);
}

static void test_file_write_into_missing_folder_fails(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "missing/f");

	assert_int_equal(file_write(path, "x\n", 2, FILE_MODE_KEEP, &err),
			 CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, path));
	assert_non_null(strstr(err.msg.data, "cannot write"));
	assert_int_equal(fx_count_entries(fx, ""), 0);
	err_release(&err);
	free(path);
}

/*
 * After a failed file_write of path (dir/f, which held "old text\n"): err
 * names path, the old file is whole, and no temporary file is left.
 */
static void assert_old_file_kept(const struct fixture *fx, const char *dir,
				 struct cuenv_err *err, const char *path)
{
	char *rel = NULL, *text;

	assert_int_equal(err->rc, CUENV_E_STORE);
	assert_non_null(strstr(err->msg.data, path));
	assert_true(asprintf(&rel, "%s/f", dir) > 0);
	text = fx_read(fx, rel);
	assert_string_equal(text, "old text\n");
	assert_int_equal(fx_count_entries(fx, dir), 1);
	err_release(err);
	free(text);
	free(rel);
}

/*
 * A write that fails half-way (here: over the file size limit, as a full
 * disk would) leaves the old file as it was and no temporary file.
 */
static void test_file_write_failure_keeps_old_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/f");
	size_t n = 64 * 1024;
	char *data = malloc(n);
	struct rlimit old_limit, limit;
	void (*old_handler)(int);
	int rc;

	memset(data, 'n', n);
	fx_write(fx, "proj/f", "old text\n");
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
	limit = old_limit;
	limit.rlim_cur = 4096;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
	rc = file_write(path, data, n, FILE_MODE_KEEP, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, strerror(EFBIG)));
	assert_old_file_kept(fx, "proj", &err, path);
	free(data);
	free(path);
}

static void test_file_write_in_read_only_folder_keeps_old_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "ro");
	char *path = fx_path(fx, "ro/f");

	if (geteuid() == 0) {
		free(dir);
		free(path);
		skip(); /* root writes anywhere */
	}
	fx_write(fx, "ro/f", "old text\n");
	assert_int_equal(chmod(dir, 0555), 0);
	assert_int_equal(file_write(path, "new\n", 4, FILE_MODE_KEEP, &err),
			 CUENV_E_STORE);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_old_file_kept(fx, "ro", &err, path);
	free(dir);
	free(path);
}

static void test_file_remove(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "f");
	char *dir = fx_path(fx, "d");

	fx_write(fx, "f", "x");
	assert_int_equal(file_remove(path, &err), CUENV_OK);
	assert_false(fx_exists(fx, "f"));
	/* and again, with nothing left to remove */
	assert_int_equal(file_remove(path, &err), CUENV_OK);
	/* a folder is no file */
	fx_mkdir(fx, "d");
	assert_int_equal(file_remove(dir, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot remove"));
	assert_non_null(strstr(err.msg.data, dir));
	err_release(&err);
	free(dir);
	free(path);
}

/* ---- descriptors -----------------------------------------------------------
 */

/* The test pattern: no run of it repeats at a block's period. */
static char pattern(size_t i)
{
	return (char)((i * 7 + i / 251) & 0xff);
}

/*
 * A child on one end of the pipe p, moving n bytes of the pattern through
 * it in pieces, pausing after each: SLOW_WRITER writes them to p[1],
 * SLOW_READER reads p[0] to its end and exits 0 when it saw them all.
 */
enum { SLOW_READER, SLOW_WRITER };

static pid_t slow_peer(const int p[2], int end, size_t n, size_t piece,
		       long pause_us)
{
	pid_t pid = fork();
	int fd = p[end];

	assert_true(pid >= 0);
	if (pid)
		return pid;
	close(p[!end]); /* or the reader's end never comes */
	for (size_t off = 0;;) {
		char chunk[4096];
		ssize_t r = (ssize_t)(n - off < piece ? n - off : piece);

		if (end == SLOW_WRITER) {
			if (!r)
				_exit(0);
			for (ssize_t i = 0; i < r; i++)
				chunk[i] = pattern(off + (size_t)i);
			if (write(fd, chunk, (size_t)r) != r)
				_exit(2);
		} else {
			r = read(fd, chunk, piece);
			if (r < 0)
				_exit(2);
			if (!r)
				_exit(off == n ? 0 : 3);
			for (ssize_t i = 0; i < r; i++)
				if (chunk[i] != pattern(off + (size_t)i))
					_exit(4);
		}
		off += (size_t)r;
		usleep((useconds_t)pause_us);
	}
}

static int exit_status(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Short reads (a pipe written in pieces) add up; EOF stops short. */
static void test_file_read_full_joins_short_reads(void **state)
{
	size_t n = 10000;
	char *got = malloc(n + 100);
	int p[2];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = slow_peer(p, SLOW_WRITER, n, 1000, 1000);
	close(p[1]);
	assert_int_equal(file_read_full(p[0], got, 4000), 4000);
	/* more asked for than is left: stops at the end of the data */
	assert_int_equal(file_read_full(p[0], got + 4000, n + 100 - 4000),
			 n - 4000);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i], pattern(i));
	assert_int_equal(file_read_full(p[0], got, 10), 0);
	close(p[0]);
	assert_int_equal(exit_status(pid), 0);
	free(got);
}

static void test_file_write_full_through_a_slow_reader(void **state)
{
	size_t n = 256 * 1024; /* more than a pipe holds */
	char *data = malloc(n);
	int p[2];
	pid_t pid;

	(void)state;
	for (size_t i = 0; i < n; i++)
		data[i] = pattern(i);
	assert_int_equal(pipe(p), 0);
	pid = slow_peer(p, SLOW_READER, n, 4096, 0);
	close(p[0]);
	assert_int_equal(file_write_full(p[1], data, n), 0);
	close(p[1]);
	assert_int_equal(exit_status(pid), 0);
	free(data);
}

static void test_file_write_full_reports_errors(void **state)
{
	int p[2];
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	errno = 0;
	assert_int_equal(file_write_full(p[1], "x", 1), -1);
	assert_int_equal(errno, EPIPE);
	close(p[1]);
	signal(SIGPIPE, old);
}

static void test_file_pread_full_reads_at_offset(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, "f");
	char got[16] = {0};
	int fd;

	fx_write(fx, "f", "0123456789");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(file_pread_full(fd, got, 4, 3), 4);
	assert_string_equal(got, "3456");
	/* past the end: what there is */
	memset(got, 0, sizeof(got));
	assert_int_equal(file_pread_full(fd, got, 8, 6), 4);
	assert_string_equal(got, "6789");
	/* the file offset is not moved */
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
	free(path);
}

/* ---- EINTR --------------------------------------------------------------- */

static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks++;
}

/* SIGALRM every millisecond, without SA_RESTART: blocked calls fail EINTR. */
static void ticker_start(struct sigaction *old)
{
	struct sigaction sa;
	struct itimerval every = {{0, 1000}, {0, 1000}};

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	ticks = 0;
	assert_int_equal(sigaction(SIGALRM, &sa, old), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &every, NULL), 0);
}

static void ticker_stop(const struct sigaction *old)
{
	struct itimerval off = {{0, 0}, {0, 0}};

	assert_int_equal(setitimer(ITIMER_REAL, &off, NULL), 0);
	assert_int_equal(sigaction(SIGALRM, old, NULL), 0);
}

static void test_file_read_full_retries_on_eintr(void **state)
{
	size_t n = 32 * 1024;
	char *got = malloc(n);
	struct sigaction old;
	char c;
	int p[2];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	ticker_start(&old);
	/* the set-up interrupts: a plain read of an idle pipe fails EINTR */
	errno = 0;
	assert_int_equal(read(p[0], &c, 1), -1);
	assert_int_equal(errno, EINTR);
	/* a writer that pauses 3 ms between pieces: reads block, are hit */
	pid = slow_peer(p, SLOW_WRITER, n, 1024, 3000);
	close(p[1]);
	ticks = 0;
	assert_int_equal(file_read_full(p[0], got, n), (ssize_t)n);
	ticker_stop(&old);
	assert_true(ticks > 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i], pattern(i));
	close(p[0]);
	assert_int_equal(exit_status(pid), 0);
	free(got);
}

static void test_file_write_full_retries_on_eintr(void **state)
{
	size_t n = 256 * 1024; /* four pipes full */
	char *data = malloc(n);
	struct sigaction old;
	int p[2];
	pid_t pid;

	(void)state;
	for (size_t i = 0; i < n; i++)
		data[i] = pattern(i);
	/* the set-up interrupts: a plain write to a full pipe fails EINTR */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
	while (write(p[1], data, 4096) > 0)
		;
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(fcntl(p[1], F_SETFL, 0), 0);
	ticker_start(&old);
	errno = 0;
	assert_int_equal(write(p[1], data, 1), -1);
	assert_int_equal(errno, EINTR);
	ticker_stop(&old);
	close(p[0]);
	close(p[1]);
	/*
	 * A reader that pauses 2 ms a page: the pipe stays full, and writes
	 * block long enough to be hit before they write anything.
	 */
	assert_int_equal(pipe(p), 0);
	pid = slow_peer(p, SLOW_READER, n, 4096, 2000);
	close(p[0]);
	ticker_start(&old);
	assert_int_equal(file_write_full(p[1], data, n), 0);
	ticker_stop(&old);
	assert_true(ticks > 0);
	close(p[1]);
	assert_int_equal(exit_status(pid), 0);
	free(data);
}

/* ---- mapping ------------------------------------------------------------- */

static void test_file_map_maps_the_whole_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct file_map m;
	char *path = fx_path(fx, "lib.so");

	fx_write_bytes(fx, "lib.so", "\177ELF\0xyz", 8);
	assert_int_equal(file_map(path, 8, &m, &err), CUENV_OK);
	assert_int_equal(m.len, 8);
	assert_true(m.regular);
	assert_memory_equal(m.data, "\177ELF\0xyz", 8);
	file_unmap(&m);
	assert_null(m.data);
	free(path);
}

static void test_file_map_says_no_to_short_and_irregular_files(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct file_map m;
	char *path = fx_path(fx, "short"), *dir = fx_path(fx, "dir");

	fx_write(fx, "short", "MZ");
	assert_int_equal(file_map(path, 3, &m, &err), CUENV_NO);
	assert_true(m.regular);
	assert_null(m.data);
	assert_int_equal(err.rc, CUENV_OK); /* the caller says what it is not */
	file_unmap(&m);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(file_map(dir, 1, &m, &err), CUENV_NO);
	assert_false(m.regular);
	assert_int_equal(err.rc, CUENV_OK);
	file_unmap(&m);
	free(path);
	free(dir);
}

/* file_map on a FIFO (a library named x.so): no, at once (it opened the
 * FIFO blocking before, waiting for a writer). */
static void test_file_map_says_no_to_a_fifo_without_blocking(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct file_map m;
	char *path = fx_path(fx, "x.so");

	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_int_equal(file_map(path, 1, &m, &err), CUENV_NO);
	alarm(0);
	assert_false(m.regular);
	assert_int_equal(err.rc, CUENV_OK);
	file_unmap(&m);
	free(path);
}

/* ---- opening a file from outside ------------------------------------------ */

static void test_file_open_read_opens_a_regular_file(void **state)
{
	struct fixture *fx = *state;
	struct plat_stat st;
	char *path = fx_path(fx, "a");
	char got[4] = {0};
	int fd;

	fx_write(fx, "a", "abc");
	fd = file_open_read(PLAT_AT_CWD, path, 0, &st);
	assert_true(fd >= 0);
	assert_int_equal(st.type, PLAT_F_REG);
	assert_int_equal(st.size, 3);
	assert_int_equal(file_read_full(fd, got, 3), 3);
	assert_string_equal(got, "abc");
	close(fd);
	free(path);
}

/* A FIFO, a folder, a device: FILE_NOT_REGULAR at once, nothing left
 * open, the type said. */
static void test_file_open_read_refuses_what_is_not_a_file(void **state)
{
	struct fixture *fx = *state;
	struct plat_stat st;
	char *fifo = fx_path(fx, "redistrib_99.1.0.json");
	char *dir = fx_path(fx, "d");
	int before = dup(0), after;

	assert_true(before >= 0);
	close(before);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_int_equal(file_open_read(PLAT_AT_CWD, fifo, 0, &st),
			 FILE_NOT_REGULAR);
	alarm(0);
	assert_int_equal(st.type, PLAT_F_OTHER);
	assert_int_equal(file_open_read(PLAT_AT_CWD, dir, 0, &st),
			 FILE_NOT_REGULAR);
	assert_int_equal(st.type, PLAT_F_DIR);
	assert_int_equal(file_open_read(PLAT_AT_CWD, "/dev/null", 0, NULL),
			 FILE_NOT_REGULAR);
	after = dup(0); /* the lowest free descriptor: none was leaked */
	assert_int_equal(after, before);
	close(after);
	assert_string_equal(file_type_name(PLAT_F_DIR), "a folder");
	assert_string_equal(file_type_name(PLAT_F_OTHER),
			    "a FIFO, device or socket");
	free(fifo);
	free(dir);
}

/* Relative to a folder's descriptor; FILE_NOFOLLOW refuses a link as the
 * last name (ELOOP), and a missing name is -1 with ENOENT. */
static void test_file_open_read_at_a_folder_and_no_link(void **state)
{
	struct fixture *fx = *state;
	char *dir = fx_path(fx, "");
	char *link = fx_path(fx, "l");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY), fd;

	assert_true(dfd >= 0);
	fx_write(fx, "a", "abc");
	assert_int_equal(symlink("a", link), 0);
	fd = file_open_read(dfd, "l", 0, NULL);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(file_open_read(dfd, "l", FILE_NOFOLLOW, NULL), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(file_open_read(dfd, "none", 0, NULL), -1);
	assert_int_equal(errno, ENOENT);
	close(dfd);
	free(dir);
	free(link);
}

static void test_file_corrupt_names_the_kind_and_shows_the_name(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(file_corrupt(&err, "PE", "a\nb.dll", "no end"),
			 CUENV_E_MANIFEST);
	assert_int_equal(err.rc, CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data,
			    "corrupt PE file 'a\\x0ab.dll': no end");
	err_release(&err);
}

static void test_file_map_of_missing_file_names_it(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct file_map m;
	char *path = fx_path(fx, "gone.dll");

	assert_int_equal(file_map(path, 2, &m, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot open '"));
	assert_non_null(strstr(err.msg.data, "gone.dll': No such file"));
	file_unmap(&m);
	err_release(&err);
	free(path);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    FS_TEST(test_file_read_reads_the_whole_file),
	    FS_TEST(test_file_read_of_empty_file_is_empty_text),
	    FS_TEST(test_file_read_keeps_nul_bytes),
	    FS_TEST(test_file_read_of_missing_file_names_it),
	    FS_TEST(test_file_read_may_be_missing_is_no),
	    FS_TEST(test_file_read_of_folder),
	    FS_TEST(test_file_read_refuses_fifo_without_blocking),
	    FS_TEST(test_file_read_bound),
	    FS_TEST(test_file_read_bound_across_blocks),
	    FS_TEST(test_file_read_of_unreadable_file),
	    FS_TEST(test_file_read_fd_appends_up_to_max),
	    FS_TEST(test_file_write_creates_file),
	    FS_TEST(test_file_write_writes_len_bytes),
	    FS_TEST(test_file_write_replaces_by_rename),
	    FS_TEST(test_file_write_keeps_or_sets_mode),
	    FS_TEST(test_file_write_and_remove_refuse_symlink),
	    FS_TEST(test_file_write_into_missing_folder_fails),
	    FS_TEST(test_file_write_failure_keeps_old_file),
	    FS_TEST(test_file_write_in_read_only_folder_keeps_old_file),
	    FS_TEST(test_file_remove),
	    FS_TEST(test_file_map_maps_the_whole_file),
	    FS_TEST(test_file_map_says_no_to_short_and_irregular_files),
	    FS_TEST(test_file_map_of_missing_file_names_it),
	    FS_TEST(test_file_map_says_no_to_a_fifo_without_blocking),
	    FS_TEST(test_file_open_read_opens_a_regular_file),
	    FS_TEST(test_file_open_read_refuses_what_is_not_a_file),
	    FS_TEST(test_file_open_read_at_a_folder_and_no_link),
	    cmocka_unit_test(
		test_file_corrupt_names_the_kind_and_shows_the_name),
	    cmocka_unit_test(test_file_read_full_joins_short_reads),
	    cmocka_unit_test(test_file_write_full_through_a_slow_reader),
	    cmocka_unit_test(test_file_write_full_reports_errors),
	    FS_TEST(test_file_pread_full_reads_at_offset),
	    cmocka_unit_test(test_file_read_full_retries_on_eintr),
	    cmocka_unit_test(test_file_write_full_retries_on_eintr),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
