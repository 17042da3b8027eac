/*
 * plat_fs_posix.c: plat_fs.h on Linux: the system calls the modules made
 * themselves, unchanged (O_CLOEXEC on every open, O_NOFOLLOW, *at()).
 */
#include "plat/plat_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/xalloc.h"

static int open_flags(unsigned f)
{
	static const struct {
		unsigned plat;
		int posix;
	} map[] = {
		{ PLAT_O_CREATE, O_CREAT },	 { PLAT_O_EXCL, O_EXCL },
		{ PLAT_O_TRUNC, O_TRUNC },	 { PLAT_O_APPEND, O_APPEND },
		{ PLAT_O_NOFOLLOW, O_NOFOLLOW }, { PLAT_O_DIR, O_DIRECTORY },
		{ PLAT_O_NONBLOCK, O_NONBLOCK },
	};
	int o = O_CLOEXEC | O_NOCTTY;

	o |= f & PLAT_O_WRITE ? O_RDWR : O_RDONLY;
	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
		if (f & map[i].plat)
			o |= map[i].posix;
	return o;
}

int plat_open(const char *path, unsigned flags, unsigned perm)
{
	return open(path, open_flags(flags), (mode_t)perm);
}

int plat_open_at(int dir, const char *name, unsigned flags, unsigned perm)
{
	return openat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name,
		      open_flags(flags), (mode_t)perm);
}

int plat_close(int fd)
{
	return close(fd);
}

ssize_t plat_read(int fd, void *buf, size_t n)
{
	return read(fd, buf, n);
}

ssize_t plat_pread(int fd, void *buf, size_t n, int64_t off)
{
	return pread(fd, buf, n, (off_t)off);
}

ssize_t plat_write(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n);
}

ssize_t plat_pwrite(int fd, const void *buf, size_t n, int64_t off)
{
	return pwrite(fd, buf, n, (off_t)off);
}

int plat_ftruncate(int fd, uint64_t len)
{
	return ftruncate(fd, (off_t)len);
}

int plat_fsync(int fd)
{
	return fsync(fd);
}

int plat_sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return 0;
	if (fsync(fd) && errno != EINVAL)
		rc = -1;
	close(fd);
	return rc;
}

static void from_stat(const struct stat *s, struct plat_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->type = S_ISREG(s->st_mode)	 ? PLAT_F_REG
		   : S_ISDIR(s->st_mode) ? PLAT_F_DIR
		   : S_ISLNK(s->st_mode) ? PLAT_F_LINK
					 : PLAT_F_OTHER;
	st->size = (uint64_t)s->st_size;
	st->mtime = (int64_t)s->st_mtim.tv_sec;
	st->mtime_ns = s->st_mtim.tv_nsec;
	st->id.dev = (uint64_t)s->st_dev;
	st->id.ino = (uint64_t)s->st_ino;
	st->perm = (unsigned)(s->st_mode & 07777);
	st->nlink = (uint64_t)s->st_nlink;
}

int plat_stat_at(int dir, const char *name, int nofollow, struct plat_stat *st)
{
	struct stat s;

	if (fstatat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name, &s,
		    nofollow ? AT_SYMLINK_NOFOLLOW : 0))
		return -1;
	from_stat(&s, st);
	return 0;
}

int plat_stat(const char *path, struct plat_stat *st)
{
	return plat_stat_at(PLAT_AT_CWD, path, 0, st);
}

int plat_lstat(const char *path, struct plat_stat *st)
{
	return plat_stat_at(PLAT_AT_CWD, path, 1, st);
}

int plat_fstat(int fd, struct plat_stat *st)
{
	struct stat s;

	if (fstat(fd, &s))
		return -1;
	from_stat(&s, st);
	return 0;
}

int plat_fchmod(int fd, unsigned perm)
{
	return fchmod(fd, (mode_t)perm);
}

int plat_chmod(const char *path, unsigned perm)
{
	return chmod(path, (mode_t)perm);
}

int plat_chmod_at(int dir, const char *name, unsigned perm)
{
	return fchmodat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name, (mode_t)perm,
			0);
}

ssize_t plat_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int plat_mkstemps(char *tmpl, size_t suffix)
{
	return mkostemps(tmpl, (int)suffix, O_CLOEXEC);
}

int plat_set_times(int fd, int64_t sec, long nsec)
{
	struct timespec ts[2];

	ts[0].tv_sec = (time_t)sec;
	ts[0].tv_nsec = nsec;
	ts[1] = ts[0];
	return futimens(fd, ts);
}

int plat_rename(const char *from, const char *to)
{
	return rename(from, to);
}

int plat_rename_at(int from_dir, const char *from, int to_dir, const char *to)
{
	return renameat(from_dir == PLAT_AT_CWD ? AT_FDCWD : from_dir, from,
			to_dir == PLAT_AT_CWD ? AT_FDCWD : to_dir, to);
}

int plat_rename_exchange(const char *a, const char *b)
{
#ifdef RENAME_EXCHANGE
	return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
	(void)a;
	(void)b;
	errno = ENOSYS;
	return -1;
#endif
}

int plat_unlink(const char *path)
{
	return unlink(path);
}

int plat_unlink_at(int dir, const char *name)
{
	return unlinkat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name, 0);
}

int plat_mkdir(const char *path, unsigned perm)
{
	return mkdir(path, (mode_t)perm);
}

int plat_mkdir_at(int dir, const char *name, unsigned perm)
{
	return mkdirat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name, (mode_t)perm);
}

int plat_rmdir(const char *path)
{
	return rmdir(path);
}

int plat_rmdir_at(int dir, const char *name)
{
	return unlinkat(dir == PLAT_AT_CWD ? AT_FDCWD : dir, name,
			AT_REMOVEDIR);
}

char *plat_mkdtemp(char *tmpl)
{
	return mkdtemp(tmpl);
}

int plat_symlink(const char *target, const char *path)
{
	return symlink(target, path);
}

static int at_dir(int dir)
{
	return dir == PLAT_AT_CWD ? AT_FDCWD : dir;
}

int plat_link_at(int from_dir, const char *from, int to_dir, const char *to)
{
	return linkat(at_dir(from_dir), from, at_dir(to_dir), to, 0);
}

int plat_symlink_at(const char *target, int dir, const char *name)
{
	return symlinkat(target, at_dir(dir), name);
}

ssize_t plat_readlink_at(int dir, const char *name, char *buf, size_t size)
{
	ssize_t n;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	n = readlinkat(at_dir(dir), name, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int plat_disk_space(const char *path, uint64_t *avail, uint64_t *total)
{
	struct statvfs vfs;

	if (statvfs(path, &vfs))
		return -1;
	*avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
	*total = (uint64_t)vfs.f_blocks * (uint64_t)vfs.f_frsize;
	return 0;
}

void *plat_map(int fd, size_t len)
{
	void *p;

	if (!len) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

void plat_unmap(void *data, size_t len)
{
	if (data)
		munmap(data, len);
}

struct plat_dir {
	DIR *dir;
	int is_dir; /* the last name's d_type was DT_DIR */
};

struct plat_dir *plat_fdopendir(int fd)
{
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = dfd < 0 ? NULL : fdopendir(dfd);
	struct plat_dir *d;

	if (!dir) {
		int e = errno;

		if (dfd >= 0)
			close(dfd);
		errno = e;
		return NULL;
	}
	d = xmalloc(sizeof(*d));
	d->dir = dir;
	d->is_dir = 0;
	return d;
}

int plat_readdir_is_dir(const struct plat_dir *d)
{
	return d->is_dir;
}

struct plat_dir *plat_opendir(const char *path)
{
	DIR *dir = opendir(path);
	struct plat_dir *d;

	if (!dir)
		return NULL;
	d = xmalloc(sizeof(*d));
	d->dir = dir;
	d->is_dir = 0;
	return d;
}

const char *plat_readdir(struct plat_dir *d)
{
	struct dirent *e;

	for (;;) {
		errno = 0;
		e = readdir(d->dir);
		if (!e)
			return NULL;
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			d->is_dir = e->d_type == DT_DIR;
			return e->d_name;
		}
	}
}

void plat_closedir(struct plat_dir *d)
{
	if (!d)
		return;
	closedir(d->dir);
	free(d);
}

char *plat_realpath(const char *path)
{
	return realpath(path, NULL);
}

int plat_can_exec(const char *path)
{
	return !access(path, X_OK);
}

int plat_seek(int fd, uint64_t off)
{
	if (off > (uint64_t)INT64_MAX) {
		errno = EINVAL;
		return -1;
	}
	return lseek(fd, (off_t)off, SEEK_SET) < 0 ? -1 : 0;
}

int plat_wide_names(void)
{
	return 0;
}

wchar_t *plat_to_wide(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return NULL;
}

char *plat_from_wide(const wchar_t *name)
{
	(void)name;
	errno = ENOSYS;
	return NULL;
}

void plat_glob(const char *pattern, struct strv *out)
{
	glob_t g;

	if (!glob(pattern, 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++)
			strv_push(out, g.gl_pathv[i]);
	globfree(&g);
}

void plat_map_sequential(void *data, size_t len)
{
	madvise(data, len, MADV_SEQUENTIAL);
}

char *plat_getcwd(void)
{
	return getcwd(NULL, 0);
}
