#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_BLOCK 4096

/* read, or pread at off when off >= 0, until n bytes or the end. */
static ssize_t read_full_at(int fd, void *buf, size_t n, off_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r =
			off < 0 ? read(fd, p + got, n - got)
				: pread(fd, p + got, n - got, off + (off_t)got);

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
		ssize_t w = write(fd, p, n);

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
		n = read(fd, out->data + out->len, READ_BLOCK);
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

int file_read(const char *path, size_t max, unsigned flags, struct buf *out,
	      struct cuenv_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int optional = !!(flags & FILE_MAY_BE_MISSING);
	struct stat st;
	int rc = CUENV_OK;

	buf_reset(out);
	if (fd < 0) {
		if (optional && (errno == ENOENT || errno == ENOTDIR))
			return CUENV_NO;
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	}
	if (fstat(fd, &st)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				path, strerror(errno));
	} else if (S_ISDIR(st.st_mode) && optional) {
		rc = CUENV_NO; /* a folder (~/.cuenv is cuenv's root) */
	} else if (!S_ISREG(st.st_mode)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "'%s' is not a file", path);
	} else if (file_read_fd(fd, max, out)) {
		if (errno == EFBIG)
			rc = cuenv_fail(err, CUENV_E_STORE,
					"'%s' is larger than %zu bytes", path,
					max);
		else
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", path,
					strerror(errno));
	}
	close(fd);
	return rc;
}

/*
 * A path that is a symbolic link is never written or removed through: the
 * caller meant this name, not the link's target (a file shared between
 * projects, or one another user planted). rename and unlink act on the
 * link itself, never its target, should it turn into one after this check.
 */
static int refuse_link(const char *path, struct cuenv_err *err)
{
	struct buf target = BUF_INIT;
	struct stat st;
	ssize_t n;
	int rc;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return CUENV_OK;
	buf_grow(&target, (size_t)st.st_size + 1);
	n = readlink(path, target.data, (size_t)st.st_size + 1);
	if (n >= 0 && (size_t)n <= (size_t)st.st_size) {
		target.len = (size_t)n;
		target.data[n] = '\0';
	}
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
	const char *slash = strrchr(path, '/');
	struct buf dir = BUF_INIT;
	int fd, rc = 0;

	if (!slash)
		buf_adds(&dir, ".");
	else if (slash == path)
		buf_adds(&dir, "/");
	else
		buf_add(&dir, path, (size_t)(slash - path));
	fd = open(dir.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	buf_release(&dir);
	if (fd < 0)
		return 0;
	if (fsync(fd) && errno != EINVAL)
		rc = -1;
	close(fd);
	return rc;
}

int file_write(const char *path, const void *data, size_t len, int mode,
	       struct cuenv_err *err)
{
	struct buf tmp = BUF_INIT;
	struct stat st;
	int fd = -1, rc = refuse_link(path, err);

	if (rc)
		return rc;
	if (mode == FILE_MODE_KEEP)
		mode = stat(path, &st) ? 0644 : (int)(st.st_mode & 07777);
	buf_printf(&tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp.data);
	if (fd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				path, strerror(errno));
		goto out;
	}
	if (fchmod(fd, (mode_t)mode) || file_write_full(fd, data, len) ||
	    fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp.data, path))
		goto fail;
	if (sync_folder(path))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				path, strerror(errno));
	goto out;
fail:
	rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s", path,
			strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp.data);
out:
	buf_release(&tmp);
	return rc;
}

int file_remove(const char *path, struct cuenv_err *err)
{
	int rc = refuse_link(path, err);

	if (!rc && unlink(path) && errno != ENOENT)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove '%s': %s",
				path, strerror(errno));
	return rc;
}

int file_map(const char *path, size_t min, struct file_map *m,
	     struct cuenv_err *err)
{
	struct stat st;
	int fd, rc = CUENV_OK;

	memset(m, 0, sizeof(*m));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	if (fstat(fd, &st))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				path, strerror(errno));
	else if (!(m->regular = S_ISREG(st.st_mode)) ||
		 (size_t)st.st_size < min)
		rc = CUENV_NO;
	if (!rc) {
		m->data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			       fd, 0);
		if (m->data == MAP_FAILED) {
			m->data = NULL;
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot map '%s': %s", path,
					strerror(errno));
		} else {
			m->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return rc;
}

void file_unmap(struct file_map *m)
{
	if (m->data)
		munmap(m->data, m->len);
	m->data = NULL;
	m->len = 0;
}
