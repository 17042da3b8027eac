#include "plat/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/plat_sys.h"

#define READ_BLOCK 4096

/* read, or pread at off when off >= 0, until n bytes or the end. */
static ssize_t read_full_at(int fd, void *buf, size_t n, off_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = off < 0 ? plat_read(fd, p + got, n - got)
				    : plat_pread(fd, p + got, n - got,
						 (int64_t)off + (int64_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t file_read_full(int fd, void *buf, size_t n)
{
	return read_full_at(fd, buf, n, -1);
}

ssize_t file_pread_full(int fd, void *buf, size_t n, off_t off)
{
	if (off < 0) {
		errno = EINVAL;
		return -1;
	}
	return read_full_at(fd, buf, n, off);
}

int file_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = plat_write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int file_read_fd(int fd, size_t max, struct buf *out)
{
	size_t start = out->len;

	for (;;) {
		ssize_t n;

		buf_grow(out, READ_BLOCK);
		n = plat_read(fd, out->data + out->len, READ_BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		out->len += (size_t)n;
		out->data[out->len] = '\0';
		if (out->len - start > max) {
			errno = EFBIG;
			return -1;
		}
	}
}

int file_open_read(int dir, const char *name, unsigned flags,
		   struct plat_stat *st)
{
	unsigned how = PLAT_O_READ | PLAT_O_NONBLOCK;
	struct plat_stat own;
	int fd;

	if (flags & FILE_NOFOLLOW)
		how |= PLAT_O_NOFOLLOW;
	if (!st)
		st = &own;
	fd = plat_open_at(dir, name, how, 0);
	if (fd < 0)
		return -1;
	if (plat_fstat(fd, st)) {
		int e = errno;

		plat_close(fd);
		errno = e;
		return -1;
	}
	if (st->type != PLAT_F_REG) {
		plat_close(fd);
		return FILE_NOT_REGULAR;
	}
	return fd;
}

const char *file_type_name(enum plat_ftype type)
{
	switch (type) {
	case PLAT_F_REG:
		return "a file";
	case PLAT_F_DIR:
		return "a folder";
	case PLAT_F_LINK:
		return "a symbolic link";
	default:
		return "a FIFO, device or socket";
	}
}

int file_read(const char *path, size_t max, unsigned flags, struct buf *out,
	      struct cuenv_err *err)
{
	int optional = !!(flags & FILE_MAY_BE_MISSING);
	struct plat_stat st;
	int fd, rc = CUENV_OK;

	buf_reset(out);
	fd = file_open_read(PLAT_AT_CWD, path, 0, &st);
	if (fd == FILE_NOT_REGULAR) {
		/* a folder (~/.cuenv is cuenv's root) */
		if (st.type == PLAT_F_DIR && optional)
			return CUENV_NO;
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  path, file_type_name(st.type));
	}
	if (fd < 0) {
		if (optional && (errno == ENOENT || errno == ENOTDIR))
			return CUENV_NO;
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	}
	if (file_read_fd(fd, max, out)) {
		if (errno == EFBIG)
			rc = cuenv_fail(err, CUENV_E_STORE,
					"'%s' is larger than %zu bytes", path,
					max);
		else
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", path,
					strerror(errno));
	}
	plat_close(fd);
	return rc;
}

/*
 * A path that is a symbolic link is never written or removed through: the
 * caller meant this name, not the link's target (a file shared between
 * projects, or one another user planted). rename and unlink act on the
 * link itself, never its target, should it turn into one after this check.
 */
static int refuse_link(int dir, const char *name, const char *path,
		       struct cuenv_err *err)
{
	struct buf target = BUF_INIT;
	struct plat_stat st;
	ssize_t n;
	int rc;

	if (plat_stat_at(dir, name, 1, &st) || st.type != PLAT_F_LINK)
		return CUENV_OK;
	buf_grow(&target, (size_t)st.size + 2);
	n = plat_readlink_at(dir, name, target.data, (size_t)st.size + 2);
	if (n >= 0 && (size_t)n <= (size_t)st.size)
		target.len = (size_t)n;
	else
		target.data[0] = '\0';
	rc = cuenv_fail(err, CUENV_E_STORE,
			"'%s' is a symbolic link to '%s': cuenv does "
			"not write or remove through it",
			path, target.data);
	cuenv_hint(err,
		   "edit '%s' yourself, or remove the link (rm "
		   "'%s') and run this again",
		   target.data, path);
	buf_release(&target);
	return rc;
}

/*
 * Make a rename in path's folder durable. A folder cuenv may write in but
 * not open for reading is left to the file system; one that cannot sync
 * folders says EINVAL.
 */
static int sync_folder(const char *path)
{
	char *parent = plat_path_parent(plat_path_native(), path);
	struct buf dir = BUF_INIT;
	int rc;

	buf_adds(&dir, parent ? parent : ".");
	free(parent);
	rc = plat_sync_dir(dir.data);
	buf_release(&dir);
	return rc;
}

int file_write(const char *path, const void *data, size_t len, int mode,
	       struct cuenv_err *err)
{
	int rc = file_write_at(PLAT_AT_CWD, path, path, data, len, mode, err);

	if (!rc && sync_folder(path))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				path, strerror(errno));
	return rc;
}

int file_write_at(int dir, const char *name, const char *shown,
		  const void *data, size_t len, int mode, struct cuenv_err *err)
{
	const unsigned how =
		PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL | PLAT_O_NOFOLLOW;
	struct buf tmp = BUF_INIT;
	struct timespec now;
	struct plat_stat st;
	int fd = -1, rc = refuse_link(dir, name, shown, err);

	if (rc)
		return rc;
	if (mode == FILE_MODE_KEEP)
		mode = plat_stat_at(dir, name, 1, &st) ? 0644 : (int)st.perm;
	/* mkstemp beneath a descriptor: names tried until one is new. */
	clock_gettime(CLOCK_REALTIME, &now);
	for (unsigned i = 0; fd < 0 && i < 100; i++) {
		buf_reset(&tmp);
		buf_printf(&tmp, "%s.tmp%lx%x", name,
			   (unsigned long)now.tv_nsec ^
				   (unsigned long)plat_sys_pid(),
			   i);
		fd = plat_open_at(dir, tmp.data, how, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		buf_reset(&tmp);
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				shown, strerror(errno));
		goto out;
	}
	if (plat_fchmod(fd, (unsigned)mode) || file_write_full(fd, data, len) ||
	    plat_fsync(fd))
		goto fail;
	if (plat_close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (plat_rename_at(dir, tmp.data, dir, name))
		goto fail;
	buf_reset(&tmp);
	/* A folder that cannot be synced (EINVAL) is left to the system. */
	if (dir != PLAT_AT_CWD && plat_fsync(dir) && errno != EINVAL)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				shown, strerror(errno));
	goto out;
fail:
	rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s", shown,
			strerror(errno));
	if (fd >= 0)
		plat_close(fd);
	plat_unlink_at(dir, tmp.data);
out:
	buf_release(&tmp);
	return rc;
}

int file_remove(const char *path, struct cuenv_err *err)
{
	int rc = refuse_link(PLAT_AT_CWD, path, path, err);

	if (!rc && plat_unlink(path) && errno != ENOENT)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove '%s': %s",
				path, strerror(errno));
	return rc;
}

int file_map(const char *path, size_t min, struct file_map *m,
	     struct cuenv_err *err)
{
	struct plat_stat st;
	int fd, rc = CUENV_OK;

	memset(m, 0, sizeof(*m));
	fd = file_open_read(PLAT_AT_CWD, path, 0, &st);
	if (fd == FILE_NOT_REGULAR)
		return CUENV_NO;
	if (fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	m->regular = 1;
	if (st.size < min)
		rc = CUENV_NO;
	if (!rc) {
		m->data = plat_map(fd, (size_t)st.size);
		if (!m->data) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot map '%s': %s", path,
					strerror(errno));
		} else {
			m->len = (size_t)st.size;
		}
	}
	plat_close(fd);
	return rc;
}

void file_unmap(struct file_map *m)
{
	plat_unmap(m->data, m->len);
	m->data = NULL;
	m->len = 0;
}

int file_corrupt(struct cuenv_err *err, const char *kind, const char *name,
		 const char *what)
{
	struct buf shown = BUF_INIT;
	int rc;

	buf_add_display(&shown, name, 200);
	rc = cuenv_fail(err, CUENV_E_MANIFEST, "corrupt %s file '%s': %s", kind,
			shown.data, what);
	buf_release(&shown);
	return rc;
}
