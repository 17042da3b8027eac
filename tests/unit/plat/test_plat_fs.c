/*
 * test_plat_fs.c: core/plat/posix/plat_fs_posix.c, the Linux side of plat_fs.h.
 * Expected values come from the system calls themselves (stat(2),
 * readlink(2)) or are written by hand; tests/windows/test_core.c checks
 * plat_fs_win.c the same way under wine.
 */
#include "fakes/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "plat/plat_fs.h"
#include "plat/plat_lock.h"
#include "plat/plat_sys.h"

static int put(const char *path, const char *text)
{
	int fd =
	    plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	if (plat_write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		plat_close(fd);
		return -1;
	}
	return plat_close(fd);
}

static void test_create_excl_write_read_pread(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, "a file é.txt");
	char got[16] = {0};
	int fd =
	    plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(plat_write(fd, "hello world", 11), 11);
	assert_int_equal(plat_close(fd), 0);
	errno = 0;
	assert_int_equal(
	    plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL, 0600),
	    -1);
	assert_int_equal(errno, EEXIST);
	fd = plat_open(path, PLAT_O_READ, 0);
	assert_true(fd >= 0);
	assert_int_equal(plat_pread(fd, got, 5, 6), 5);
	assert_string_equal(got, "world");
	assert_int_equal(plat_read(fd, got, sizeof(got) - 1), 11);
	got[11] = '\0';
	assert_string_equal(got, "hello world");
	assert_int_equal(plat_read(fd, got, 4), 0);
	assert_int_equal(plat_fsync(fd), 0);
	assert_int_equal(plat_close(fd), 0);
	/* close-on-exec, as every open in core had it */
	fd = plat_open(path, PLAT_O_READ, 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	plat_close(fd);
	free(path);
}

static void test_append_and_trunc(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, "log");
	char got[16] = {0};
	int fd;

	assert_int_equal(put(path, "ab"), 0);
	fd = plat_open(path, PLAT_O_WRITE | PLAT_O_APPEND, 0);
	assert_true(fd >= 0);
	assert_int_equal(plat_write(fd, "cd", 2), 2);
	plat_close(fd);
	fd = plat_open(path, PLAT_O_READ, 0);
	assert_int_equal(plat_read(fd, got, sizeof(got)), 4);
	assert_string_equal(got, "abcd");
	plat_close(fd);
	fd = plat_open(path, PLAT_O_WRITE | PLAT_O_TRUNC, 0);
	plat_close(fd);
	fd = plat_open(path, PLAT_O_READ, 0);
	assert_int_equal(plat_read(fd, got, sizeof(got)), 0);
	plat_close(fd);
	free(path);
}

static void test_stat_matches_the_system(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, "f"), *dir = fx_path(fx, "d");
	struct plat_stat st;
	struct stat s;
	int fd;

	fx_write(fx, "f", "12345");
	fx_mkdir(fx, "d");
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(stat(path, &s), 0);
	assert_int_equal(plat_stat(path, &st), 0);
	assert_int_equal(st.type, PLAT_F_REG);
	assert_int_equal(st.size, 5);
	assert_int_equal(st.perm, 0640);
	assert_int_equal(st.mtime, s.st_mtim.tv_sec);
	assert_int_equal(st.mtime_ns, s.st_mtim.tv_nsec);
	assert_int_equal(st.id.dev, s.st_dev);
	assert_int_equal(st.id.ino, s.st_ino);
	assert_int_equal(st.nlink, 1);
	fd = plat_open(path, PLAT_O_READ, 0);
	assert_int_equal(plat_fchmod(fd, 0600), 0);
	assert_int_equal(plat_fstat(fd, &st), 0);
	assert_int_equal(st.perm, 0600);
	assert_int_equal(st.id.ino, s.st_ino);
	plat_close(fd);
	assert_int_equal(plat_stat(dir, &st), 0);
	assert_int_equal(st.type, PLAT_F_DIR);
	assert_int_equal(plat_stat("/dev/null", &st), 0);
	assert_int_equal(st.type, PLAT_F_OTHER);
	errno = 0;
	assert_int_equal(plat_stat("/nonexistent/x", &st), -1);
	assert_int_equal(errno, ENOENT);
	free(path);
	free(dir);
}

static void test_links_are_refused_not_followed(void **state)
{
	struct fixture *fx = *state;
	char *target = fx_path(fx, "real"), *link = fx_path(fx, "ln");
	char text[64];
	struct plat_stat st;
	int fd;

	fx_write(fx, "real", "x");
	assert_int_equal(symlink("real", link), 0);
	errno = 0;
	assert_int_equal(plat_open(link, PLAT_O_READ | PLAT_O_NOFOLLOW, 0), -1);
	assert_int_equal(errno, ELOOP);
	fd = plat_open(link, PLAT_O_READ, 0); /* without: followed */
	assert_true(fd >= 0);
	plat_close(fd);
	assert_int_equal(plat_lstat(link, &st), 0);
	assert_int_equal(st.type, PLAT_F_LINK);
	assert_int_equal(plat_stat(link, &st), 0);
	assert_int_equal(st.type, PLAT_F_REG);
	assert_int_equal(plat_readlink(link, text, sizeof(text)), 4);
	assert_string_equal(text, "real");
	assert_int_equal(plat_readlink(link, text, 3), 2); /* cut short */
	assert_string_equal(text, "re");
	errno = 0;
	assert_int_equal(plat_readlink(target, text, sizeof(text)), -1);
	assert_int_equal(errno, EINVAL);
	/* unlink removes the link, never its target */
	assert_int_equal(plat_unlink(link), 0);
	assert_int_equal(plat_stat(target, &st), 0);
	free(target);
	free(link);
}

static void test_at_operations_are_relative_to_the_folder(void **state)
{
	struct fixture *fx = *state;
	char *dirpath = fx_path(fx, "d"), *moved = fx_path(fx, "d/sub/b");
	struct plat_stat st;
	int dir, fd;

	fx_mkdir(fx, "d");
	dir = plat_open(dirpath, PLAT_O_READ | PLAT_O_DIR, 0);
	assert_true(dir >= 0);
	assert_int_equal(plat_mkdir_at(dir, "sub", 0755), 0);
	errno = 0;
	assert_int_equal(plat_mkdir_at(dir, "sub", 0755), -1);
	assert_int_equal(errno, EEXIST);
	fd = plat_open_at(dir, "a", PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL,
			  0644);
	assert_true(fd >= 0);
	assert_int_equal(plat_write(fd, "abc", 3), 3);
	plat_close(fd);
	assert_int_equal(plat_stat_at(dir, "a", 1, &st), 0);
	assert_int_equal(st.size, 3);
	assert_int_equal(plat_rename_at(dir, "a", dir, "sub/b"), 0);
	assert_int_equal(plat_stat(moved, &st), 0);
	assert_int_equal(st.size, 3);
	assert_int_equal(symlinkat("sub", dir, "lnk"), 0);
	assert_int_equal(plat_stat_at(dir, "lnk", 1, &st), 0);
	assert_int_equal(st.type, PLAT_F_LINK);
	assert_int_equal(plat_stat_at(dir, "lnk", 0, &st), 0);
	assert_int_equal(st.type, PLAT_F_DIR);
	errno = 0;
	assert_int_equal(
	    plat_open_at(dir, "lnk", PLAT_O_READ | PLAT_O_DIR | PLAT_O_NOFOLLOW,
			 0),
	    -1);
	/* Linux says ENOTDIR for O_DIRECTORY|O_NOFOLLOW on a link */
	assert_true(errno == ENOTDIR || errno == ELOOP);
	assert_int_equal(plat_unlink_at(dir, "sub/b"), 0);
	errno = 0;
	assert_int_equal(plat_stat(moved, &st), -1);
	assert_int_equal(errno, ENOENT);
	fd = plat_open_at(dir, "sub", PLAT_O_READ, 0); /* a folder reads */
	assert_true(fd >= 0);
	plat_close(fd);
	plat_close(dir);
	/* PLAT_O_DIR on a file */
	fx_write(fx, "plain", "");
	free(dirpath);
	dirpath = fx_path(fx, "plain");
	errno = 0;
	assert_int_equal(plat_open(dirpath, PLAT_O_READ | PLAT_O_DIR, 0), -1);
	assert_int_equal(errno, ENOTDIR);
	free(dirpath);
	free(moved);
}

static void test_rename_replaces_and_hard_links_share_the_file(void **state)
{
	struct fixture *fx = *state;
	char *a = fx_path(fx, "a"), *b = fx_path(fx, "b"),
	     *c = fx_path(fx, "c");
	struct plat_stat sa, sb, sc;
	char got[8] = {0};
	int fd;

	assert_int_equal(put(a, "new"), 0);
	assert_int_equal(put(b, "old"), 0);
	assert_int_equal(plat_stat(a, &sa), 0);
	assert_int_equal(plat_rename(a, b), 0);
	assert_int_equal(plat_stat(b, &sb), 0);
	assert_int_equal(sb.id.ino, sa.id.ino);
	assert_int_equal(sb.id.dev, sa.id.dev);
	fd = plat_open(b, PLAT_O_READ, 0);
	assert_int_equal(plat_read(fd, got, sizeof(got)), 3);
	assert_string_equal(got, "new");
	plat_close(fd);
	assert_int_equal(plat_link_at(PLAT_AT_CWD, b, PLAT_AT_CWD, c), 0);
	assert_int_equal(plat_stat(c, &sc), 0);
	assert_int_equal(sc.id.ino, sb.id.ino);
	assert_int_equal(sc.nlink, 2);
	errno = 0;
	assert_int_equal(plat_link_at(PLAT_AT_CWD, b, PLAT_AT_CWD, c), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(plat_unlink(b), 0);
	assert_int_equal(plat_stat(c, &sc), 0);
	assert_int_equal(sc.nlink, 1);
	errno = 0;
	assert_int_equal(plat_unlink(b), -1);
	assert_int_equal(errno, ENOENT);
	free(a);
	free(b);
	free(c);
}

static void test_readdir_lists_every_name_once(void **state)
{
	struct fixture *fx = *state;
	char *dir = fx_path(fx, "d"), *empty = fx_path(fx, "e");
	int seen_a = 0, seen_b = 0, seen_sub = 0, other = 0;
	struct plat_dir *d;
	const char *name;

	fx_write(fx, "d/a", "");
	fx_write(fx, "d/b b", "");
	fx_mkdir(fx, "d/sub");
	fx_mkdir(fx, "e");
	d = plat_opendir(dir);
	assert_non_null(d);
	while ((name = plat_readdir(d))) {
		if (!strcmp(name, "a"))
			seen_a++;
		else if (!strcmp(name, "b b"))
			seen_b++;
		else if (!strcmp(name, "sub"))
			seen_sub++;
		else
			other++;
	}
	assert_int_equal(errno, 0);
	plat_closedir(d);
	assert_int_equal(seen_a, 1);
	assert_int_equal(seen_b, 1);
	assert_int_equal(seen_sub, 1);
	assert_int_equal(other, 0);
	d = plat_opendir(empty);
	assert_non_null(d);
	assert_null(plat_readdir(d));
	assert_int_equal(errno, 0);
	plat_closedir(d);
	assert_int_equal(plat_rmdir(empty), 0);
	errno = 0;
	assert_null(plat_opendir(empty));
	assert_int_equal(errno, ENOENT);
	free(dir);
	free(empty);
}

static void test_mkstemp_map_and_free_space(void **state)
{
	struct fixture *fx = *state;
	char *tmpl = fx_path(fx, "t.tmpXXXXXX"), *bad = fx_path(fx, "t.XXXX");
	struct plat_stat st;
	struct statvfs vfs;
	uint64_t free_bytes = 0, total = 0;
	char *p;
	int fd;

	fd = plat_mkstemps(tmpl, 0);
	assert_true(fd >= 0);
	assert_null(strstr(tmpl, "XXXXXX"));
	assert_int_equal(plat_write(fd, "mapped!", 7), 7);
	assert_int_equal(plat_fstat(fd, &st), 0);
	assert_int_equal(st.perm, 0600);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	p = plat_map(fd, 7);
	assert_non_null(p);
	assert_memory_equal(p, "mapped!", 7);
	plat_unmap(p, 7);
	errno = 0;
	assert_null(plat_map(fd, 0));
	assert_int_equal(errno, EINVAL);
	plat_close(fd);
	errno = 0;
	assert_int_equal(plat_mkstemps(bad, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(plat_disk_space(fx->root, &free_bytes, &total), 0);
	assert_int_equal(statvfs(fx->root, &vfs), 0);
	assert_true(free_bytes > 0);
	assert_true(free_bytes <= total);
	assert_true(total == (uint64_t)vfs.f_blocks * vfs.f_frsize);
	errno = 0;
	assert_int_equal(plat_disk_space("/nonexistent/x", &free_bytes, &total),
			 -1);
	assert_int_equal(errno, ENOENT);
	/* a folder that cannot be opened is left to the file system */
	assert_int_equal(plat_sync_dir("/nonexistent/x"), 0);
	assert_int_equal(plat_sync_dir(fx->root), 0);
	free(tmpl);
	free(bad);
}

static void test_nonblock_fifo_open_does_not_wait(void **state)
{
	struct fixture *fx = *state;
	char *fifo = fx_path(fx, "fifo");
	struct plat_stat st;
	int fd;

	assert_int_equal(mkfifo(fifo, 0600), 0);
	fd = plat_open(fifo, PLAT_O_READ | PLAT_O_NONBLOCK, 0);
	assert_true(fd >= 0);
	assert_int_equal(plat_fstat(fd, &st), 0);
	assert_int_equal(st.type, PLAT_F_OTHER);
	plat_close(fd);
	free(fifo);
}

static void test_more_calls_for_store(void **state)
{
	struct fixture *fx = *state;
	char *file = fx_path(fx, "f"), *dirp = fx_path(fx, "d");
	char *tmpl = fx_path(fx, "t-XXXXXX.lock"),
	     *dtmpl = fx_path(fx, "s-XXXXXX");
	char *ln = fx_path(fx, "d/ln");
	char got[16] = {0}, text[16];
	struct plat_stat st;
	struct plat_dir *d;
	struct stat s;
	const char *name;
	int fd, dir, dirs = 0, others = 0;

	fd = plat_open(file, PLAT_O_WRITE | PLAT_O_CREATE, 0644);
	assert_int_equal(plat_write(fd, "abcdef", 6), 6);
	assert_int_equal(plat_ftruncate(fd, 2), 0);
	assert_int_equal(plat_pwrite(fd, "XY", 2, 4), 2); /* a hole 2..3 */
	assert_int_equal(plat_pread(fd, got, 6, 0), 6);
	assert_memory_equal(got, "ab\0\0XY", 6);
	assert_int_equal(plat_set_times(fd, 1000000000, 250000000), 0);
	assert_int_equal(stat(file, &s), 0);
	assert_int_equal(s.st_mtim.tv_sec, 1000000000);
	assert_int_equal(s.st_mtim.tv_nsec, 250000000);
	assert_int_equal(s.st_atim.tv_sec, 1000000000);
	plat_close(fd);
	assert_int_equal(plat_chmod(file, 0600), 0);
	assert_int_equal(plat_stat(file, &st), 0);
	assert_int_equal(st.perm, 0600);

	fd = plat_mkstemps(tmpl, 5);
	assert_true(fd >= 0);
	assert_null(strstr(tmpl, "XXXXXX"));
	assert_string_equal(tmpl + strlen(tmpl) - 5, ".lock");
	plat_close(fd);
	assert_non_null(plat_mkdtemp(dtmpl));
	assert_int_equal(plat_stat(dtmpl, &st), 0);
	assert_int_equal(st.type, PLAT_F_DIR);
	assert_int_equal(st.perm, 0700);

	fx_mkdir(fx, "d/sub");
	fx_write(fx, "d/file", "");
	assert_int_equal(plat_symlink("sub", ln), 0);
	assert_int_equal(plat_readlink(ln, text, sizeof(text)), 3);
	dir = plat_open(dirp, PLAT_O_READ | PLAT_O_DIR, 0);
	d = plat_fdopendir(dir);
	assert_non_null(d);
	while ((name = plat_readdir(d))) {
		/* d_type may be unknown (0), never "folder" for the link */
		if (plat_readdir_is_dir(d)) {
			assert_string_equal(name, "sub");
			dirs++;
		} else {
			others++;
		}
	}
	plat_closedir(d);
	assert_true(dirs <= 1);
	assert_int_equal(dirs + others, 3);
	/* dir is still open and usable after plat_closedir */
	assert_int_equal(plat_chmod_at(dir, "sub", 0500), 0);
	assert_int_equal(plat_stat_at(dir, "sub", 1, &st), 0);
	assert_int_equal(st.perm, 0500);
	assert_int_equal(plat_rmdir_at(dir, "sub"), 0);
	errno = 0;
	assert_int_equal(plat_stat_at(dir, "sub", 1, &st), -1);
	assert_int_equal(errno, ENOENT);
	plat_close(dir);
	free(file);
	free(dirp);
	free(tmpl);
	free(dtmpl);
	free(ln);
}

/* Locks belong to the open file: two descriptors of one process clash. */
static void test_locks_belong_to_the_open_file(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, ".lock");
	int a = plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE, 0644);
	int b = plat_open(path, PLAT_O_WRITE, 0);

	assert_int_equal(plat_lock(a, 1, 0), 0);
	errno = 0;
	assert_int_equal(plat_lock(b, 1, 0), -1);
	assert_int_equal(errno, EAGAIN);
	errno = 0;
	assert_int_equal(plat_lock(b, 0, 0), -1);
	assert_int_equal(errno, EAGAIN);
	plat_close(a); /* closing drops the lock: core never unlocks */
	a = plat_open(path, PLAT_O_WRITE, 0);
	assert_int_equal(plat_lock(a, 0, 0), 0);
	assert_int_equal(plat_lock(b, 0, 1), 0); /* shared with shared */
	errno = 0;
	assert_int_equal(plat_lock(b, 1, 0), -1); /* a still shares it */
	assert_int_equal(errno, EAGAIN);
	plat_close(a); /* and a's shared one */
	assert_int_equal(plat_lock(b, 1, 0), 0);
	plat_close(b);
	free(path);
}

static void test_glob_sorted_hidden_left_out(void **state)
{
	struct fixture *fx = *state;
	char *pat = fx_path(fx, "d/*.conf"), *a = fx_path(fx, "d/a.conf"),
	     *b = fx_path(fx, "d/b.conf"), *none = fx_path(fx, "d/*.none");
	struct strv got = STRV_INIT;

	fx_mkdir(fx, "d");
	fx_write(fx, "d/b.conf", "");
	fx_write(fx, "d/a.conf", "");
	fx_write(fx, "d/.h.conf", "");
	fx_write(fx, "d/x.txt", "");
	strv_push(&got, "kept");
	plat_glob(pat, &got);
	assert_int_equal(got.n, 3);
	assert_string_equal(got.v[0], "kept");
	assert_string_equal(got.v[1], a);
	assert_string_equal(got.v[2], b);
	plat_glob(none, &got);
	assert_int_equal(got.n, 3);
	strv_release(&got);
	free(pat);
	free(a);
	free(b);
	free(none);
}

static void test_sys_facts(void **state)
{
	(void)state;
	assert_int_equal(plat_sys_pid(), (long)getpid());
	assert_true(plat_sys_pid_alive((long)getpid()));
	/* above the kernel's pid_max (at most 2^22) */
	assert_false(plat_sys_pid_alive(1L << 30));
	assert_true(plat_sys_cpus() >= 1);
	assert_true(plat_sys_cpus() == (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	/* CUDA's libraries go by soname here; the driver's is libcuda.so.1 */
	assert_int_equal(plat_sys_lib_naming(), PLAT_LIB_SONAME);
	assert_string_equal(plat_sys_cuda_driver(), "libcuda.so.1");
}
/* The calls the install pipeline added (issue 13): seek, disk space,
 * link/symlink/readlink by name in a folder, wide names. */
static void test_install_pipeline_calls(void **state)
{
	struct fixture *fx = *state;
	char *a = fx_path(fx, "a"), *dirpath = fx_path(fx, "d");
	struct plat_stat st, st2;
	struct statvfs vfs;
	uint64_t avail = 0, total = 0;
	char got[16] = {0};
	int fd, dir;

	assert_int_equal(put(a, "abcdef"), 0);
	fd = plat_open(a, PLAT_O_READ, 0);
	assert_int_equal(plat_seek(fd, 4), 0);
	assert_int_equal(plat_read(fd, got, sizeof got), 2);
	assert_string_equal(got, "ef");
	assert_int_equal(plat_seek(fd, 0), 0);
	assert_int_equal(plat_read(fd, got, 1), 1);
	assert_int_equal(got[0], 'a');
	plat_close(fd);

	assert_int_equal(plat_disk_space(fx->root, &avail, &total), 0);
	assert_int_equal(statvfs(fx->root, &vfs), 0);
	assert_true(total == (uint64_t)vfs.f_blocks * vfs.f_frsize);
	assert_true(avail > 0 && avail <= total);
	errno = 0;
	assert_int_equal(plat_disk_space("/nonexistent/x", &avail, &total), -1);
	assert_int_equal(errno, ENOENT);

	fx_mkdir(fx, "d");
	dir = plat_open(dirpath, PLAT_O_READ | PLAT_O_DIR, 0);
	assert_true(dir >= 0);
	assert_int_equal(plat_link_at(PLAT_AT_CWD, a, dir, "hard"), 0);
	assert_int_equal(plat_stat_at(dir, "hard", 1, &st), 0);
	assert_int_equal(plat_stat(a, &st2), 0);
	assert_true(st.id.ino == st2.id.ino && st.nlink == 2);
	errno = 0;
	assert_int_equal(plat_link_at(PLAT_AT_CWD, a, dir, "hard"), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(plat_symlink_at("../a", dir, "soft"), 0);
	assert_int_equal(plat_stat_at(dir, "soft", 1, &st), 0);
	assert_int_equal(st.type, PLAT_F_LINK);
	/* linkat without AT_SYMLINK_FOLLOW links the link itself */
	assert_int_equal(plat_link_at(dir, "soft", dir, "soft2"), 0);
	assert_int_equal(plat_stat_at(dir, "soft2", 1, &st), 0);
	assert_int_equal(st.type, PLAT_F_LINK);
	assert_int_equal(plat_readlink_at(dir, "soft2", got, sizeof got), 4);
	assert_string_equal(got, "../a");
	assert_int_equal(plat_readlink_at(dir, "soft", got, 3), 2);
	assert_string_equal(got, "..");
	errno = 0;
	assert_int_equal(plat_readlink_at(dir, "hard", got, sizeof got), -1);
	assert_int_equal(errno, EINVAL);
	plat_close(dir);

	/* POSIX names are bytes: no wide form */
	assert_int_equal(plat_wide_names(), 0);
	errno = 0;
	assert_null(plat_to_wide("x"));
	assert_int_equal(errno, ENOSYS);
	assert_null(plat_from_wide(L"x"));
	free(a);
	free(dirpath);
}

static void test_sys_clock_ms_is_monotonic(void **state)
{
	struct timespec ts;
	int64_t a, b, mono;

	(void)state;
	a = plat_sys_clock_ms();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	mono = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	nanosleep(&(struct timespec){0, 50 * 1000000}, NULL);
	b = plat_sys_clock_ms();
	assert_true(mono - a >= 0 && mono - a < 1000);
	assert_true(b - a >= 50 && b - a < 5000);
}

static void test_sys_exe_path_is_this_program(void **state)
{
	char *exe = plat_sys_exe_path();
	struct stat a, b;

	(void)state;
	assert_non_null(exe);
	assert_int_equal(exe[0], '/');
	assert_string_equal(strrchr(exe, '/'), "/test_plat_fs");
	assert_int_equal(stat(exe, &a), 0);
	assert_int_equal(stat("/proc/self/exe", &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	free(exe);
}

/* POSIX systems have no System32: doctor knows the loader is not Windows'. */
static void test_sys_system_dir_is_none(void **state)
{
	(void)state;
	errno = 0;
	assert_null(plat_sys_system_dir());
	assert_int_equal(errno, ENOSYS);
}

/* A child asks: its parent is this program ("test_plat_fs", comm). */
static void test_sys_parent_name_is_the_parent(void **state)
{
	int fds[2], ws = 0;
	char got[64] = {0};
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *name = plat_sys_parent_name();
		const char *s = name ? name : "(null)";

		_exit(write(fds[1], s, strlen(s)) == (ssize_t)strlen(s) ? 0
									: 1);
	}
	close(fds[1]);
	assert_true(read(fds[0], got, sizeof(got) - 1) > 0);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_string_equal(got, "test_plat_fs");
}

/* stderr on /dev/null, then on a terminal of 123 columns (a pty). */
static void test_sys_stderr_tty_and_width(void **state)
{
	struct winsize w = {.ws_row = 40, .ws_col = 123};
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	int pt = posix_openpt(O_RDWR | O_NOCTTY), tty;
	unsigned cols = 7;

	(void)state;
	assert_true(saved >= 0 && null >= 0 && pt >= 0);
	assert_int_equal(grantpt(pt), 0);
	assert_int_equal(unlockpt(pt), 0);
	tty = open(ptsname(pt), O_RDWR | O_NOCTTY);
	assert_true(tty >= 0);
	assert_int_equal(ioctl(tty, TIOCSWINSZ, &w), 0);
	dup2(null, 2);
	assert_int_equal(plat_sys_stderr_tty(&cols), 0);
	assert_int_equal(cols, 0);
	dup2(tty, 2);
	assert_int_equal(plat_sys_stderr_tty(&cols), 1);
	dup2(saved, 2);
	assert_int_equal(cols, 123);
	close(saved);
	close(null);
	close(tty);
	close(pt);
}

static void test_getcwd_is_the_current_folder(void **state)
{
	struct fixture *fx = *state;
	char *dir = fx_path(fx, "cwd \xc3\xa9"), *old = getcwd(NULL, 0);
	char *real, *got;

	assert_int_equal(plat_mkdir(dir, 0755), 0);
	real = realpath(dir, NULL);
	assert_int_equal(chdir(dir), 0);
	got = plat_getcwd();
	assert_int_equal(chdir(old), 0);
	assert_string_equal(got, real);
	free(got);
	free(real);
	free(old);
	free(dir);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* ---- the platform: a server or a Jetson (issue 25) ---------------------- */

/* An aarch64 machine with neither file of a Jetson is a server. */
static void test_sys_aarch64_server_is_sbsa(void **state)
{
	struct fixture *fx = *state;
	static const char ampere[] = "ampere,mtjade\0arm,sbsa";

	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-sbsa");
	/* a device tree of another maker's board */
	fx_write_bytes(fx, "proc/device-tree/compatible", ampere,
		       sizeof(ampere));
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-sbsa");
}

/* L4T's release file makes a Jetson, whatever the device tree says. */
static void test_sys_aarch64_l4t_release_is_jetson(void **state)
{
	struct fixture *fx = *state;

	fx_write(fx, "etc/nv_tegra_release",
		 "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: "
		 "generic, EABI: aarch64, DATE: Fri Sep 13 04:36:44 UTC "
		 "2024\n");
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-aarch64");
	/* an empty or unreadable-format one still says L4T */
	fx_write(fx, "etc/nv_tegra_release", "");
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-aarch64");
}

/* Without the release file, a Tegra SoC in the device tree (the second
 * of its NUL-separated strings here) makes a Jetson. */
static void test_sys_aarch64_tegra_device_tree_is_jetson(void **state)
{
	struct fixture *fx = *state;
	static const char orin[] = "nvidia,p3737-0000+p3701-0005\0"
				   "nvidia,p3701-0005\0nvidia,tegra234";

	fx_write_bytes(fx, "proc/device-tree/compatible", orin, sizeof(orin));
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-aarch64");
}

/* JetPack 7 (L4T R38) and Thor use NVIDIA's server CUDA. */
static void test_sys_aarch64_jetpack7_and_thor_are_sbsa(void **state)
{
	struct fixture *fx = *state;
	static const char thor[] = "nvidia,p3971-0080+p3834-0008\0"
				   "nvidia,tegra264";

	fx_write_bytes(fx, "proc/device-tree/compatible", thor, sizeof(thor));
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-sbsa");
	fx_write(fx, "etc/nv_tegra_release",
		 "# R38 (release), REVISION: 2.0, BOARD: generic\n");
	assert_string_equal(plat_sys_linux_platform("aarch64", fx->root),
			    "linux-sbsa");
}

/* The files of a Jetson mean nothing on another machine. */
static void test_sys_other_machines_ignore_tegra_files(void **state)
{
	struct fixture *fx = *state;

	fx_write(fx, "etc/nv_tegra_release", "# R35 (release)\n");
	assert_string_equal(plat_sys_linux_platform("x86_64", fx->root),
			    "linux-x86_64");
	assert_string_equal(plat_sys_linux_platform("ppc64le", fx->root),
			    "linux-ppc64le");
}

/* This machine's answer is the rule's over "/". */
static void test_sys_platform_is_the_rule_over_root(void **state)
{
	struct utsname u;

	(void)state;
	assert_int_equal(uname(&u), 0);
	assert_string_equal(plat_sys_platform(),
			    plat_sys_linux_platform(u.machine, "/"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    FS_TEST(test_create_excl_write_read_pread),
	    FS_TEST(test_append_and_trunc),
	    FS_TEST(test_stat_matches_the_system),
	    FS_TEST(test_links_are_refused_not_followed),
	    FS_TEST(test_at_operations_are_relative_to_the_folder),
	    FS_TEST(test_rename_replaces_and_hard_links_share_the_file),
	    FS_TEST(test_readdir_lists_every_name_once),
	    FS_TEST(test_mkstemp_map_and_free_space),
	    FS_TEST(test_nonblock_fifo_open_does_not_wait),
	    FS_TEST(test_more_calls_for_store),
	    FS_TEST(test_locks_belong_to_the_open_file),
	    FS_TEST(test_install_pipeline_calls),
	    FS_TEST(test_glob_sorted_hidden_left_out),
	    cmocka_unit_test(test_sys_facts),
	    FS_TEST(test_sys_aarch64_server_is_sbsa),
	    FS_TEST(test_sys_aarch64_l4t_release_is_jetson),
	    FS_TEST(test_sys_aarch64_tegra_device_tree_is_jetson),
	    FS_TEST(test_sys_aarch64_jetpack7_and_thor_are_sbsa),
	    FS_TEST(test_sys_other_machines_ignore_tegra_files),
	    cmocka_unit_test(test_sys_platform_is_the_rule_over_root),
	    cmocka_unit_test(test_sys_clock_ms_is_monotonic),
	    cmocka_unit_test(test_sys_exe_path_is_this_program),
	    cmocka_unit_test(test_sys_system_dir_is_none),
	    cmocka_unit_test(test_sys_parent_name_is_the_parent),
	    cmocka_unit_test(test_sys_stderr_tty_and_width),
	    FS_TEST(test_getcwd_is_the_current_folder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
