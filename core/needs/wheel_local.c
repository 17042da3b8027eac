/*
 * wheel_local.c: a wheel on disk read in place for `cuenv needs` (see
 * wheel.h): a byte source over the file, read as a tree by
 * core/wheel's wheel_scan_source, as a wheel on an index is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plat/file.h"
#include "plat/plat_fs.h"
#include "needs/wheel.h"
#include "base/xalloc.h"

/* What one read of the file asks for. */
#define CHUNK (1u << 20)

struct file_source {
	int fd;
	const char *path;
};

/* One range: ranges are read on several threads at once (pread). */
struct file_range {
	struct file_source *f;
	uint64_t off, left;
	char *chunk;
};

static void *file_open(void *ctx, uint64_t off, uint64_t len)
{
	struct file_range *r = xcalloc(1, sizeof(*r));

	r->f = ctx;
	r->off = off;
	r->left = len;
	return r;
}

static ssize_t file_next(void *h, const void **p, struct cuenv_err *err)
{
	struct file_range *r = h;
	size_t want = r->left < CHUNK ? (size_t)r->left : CHUNK;
	ssize_t n;

	if (!want)
		return 0;
	if (!r->chunk)
		r->chunk = xmalloc(CHUNK);
	n = plat_pread(r->f->fd, r->chunk, want, (int64_t)r->off);
	if (n < 0) {
		cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
			   r->f->path, strerror(errno));
		return -1;
	}
	if (n == 0) {
		cuenv_fail(err, CUENV_E_UNPACK,
			   "'%s' ended at byte %llu, %llu bytes short",
			   r->f->path, (unsigned long long)r->off,
			   (unsigned long long)r->left);
		return -1;
	}
	r->off += (uint64_t)n;
	r->left -= (uint64_t)n;
	*p = r->chunk;
	return n;
}

static void file_close(void *h)
{
	struct file_range *r = h;

	free(r->chunk);
	free(r);
}

/* The file at path as a source (its size set), *fd open: close it. */
static int open_source(const char *path, struct file_source *f,
		       struct wheel_source *src, struct cuenv_err *err)
{
	struct plat_stat st;

	/* A FIFO named x.whl is refused, never waited on. */
	f->fd = file_open_read(PLAT_AT_CWD, path, 0, &st);
	f->path = path;
	*src = (struct wheel_source){ path,	  0, file_open, file_next,
				      file_close, f, 0 };
	if (f->fd == FILE_NOT_REGULAR)
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  path, file_type_name(st.type));
	if (f->fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	src->size = st.size;
	return CUENV_OK;
}

int wheel_local_scan(struct needs_scan *s, const char *path, unsigned threads,
		     struct cuenv_err *err)
{
	struct file_source f;
	struct wheel_source src;
	int rc = open_source(path, &f, &src, err);

	if (rc)
		return rc;
	src.threads = threads;
	rc = wheel_scan_source(s, &src, err);
	plat_close(f.fd);
	return rc;
}

int wheel_local_check(const char *path, struct cuenv_err *err)
{
	struct file_source f;
	struct wheel_source src;
	int rc = open_source(path, &f, &src, err);

	if (rc)
		return rc;
	rc = wheel_check_source(&src, err);
	plat_close(f.fd);
	return rc;
}
