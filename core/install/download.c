#include "install/download.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "plat/file.h"
#include "plat/plat_fs.h"

#define FILE_BLOCK (1 << 20)

void download_init(struct download *d, const char *url, const char *sha256,
		   uint64_t size, const struct fetch_opts *fetch)
{
	*d = (struct download){
		.url = url,
		.name = url,
		.sha256 = sha256,
		.size = size,
		.fetch = fetch,
		.sha = digest_new(),
		.file = -1,
		.part = -1,
	};
}

void download_release(struct download *d)
{
	if (d->file >= 0 && d->file != d->part)
		plat_close(d->file);
	if (d->part >= 0)
		plat_close(d->part);
	d->file = d->part = -1;
	fetch_close(d->net);
	d->net = NULL;
	digest_free(d->sha);
	d->sha = NULL;
	free(d->buf);
	d->buf = NULL;
}

void download_from_fd_take(struct download *d, int fd, const char *shown)
{
	d->file = fd;
	d->file_shown = shown;
	d->file_is_part = 0;
}

/* Open the .part for appending: a regular file, *size its length. */
static int open_part(struct download *d, int dir, const char *name,
		     const char *shown, unsigned flags, uint64_t *size,
		     struct cuenv_err *err)
{
	struct plat_stat st;

	d->part_dir = dir;
	d->part_name = name;
	d->part_shown = shown;
	d->part = plat_open_at(dir, name, PLAT_O_WRITE | PLAT_O_CREATE | flags,
			       0644);
	if (d->part < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  shown, strerror(errno));
	if (plat_fstat(d->part, &st))
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  shown, strerror(errno));
	if (st.type != PLAT_F_REG)
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  shown, file_type_name(st.type));
	*size = st.size;
	return CUENV_OK;
}

int download_resume(struct download *d, int dir, const char *name,
		    const char *shown, unsigned flags, struct cuenv_err *err)
{
	uint64_t have;
	int rc;

	rc = open_part(d, dir, name, shown, flags | PLAT_O_APPEND, &have, err);
	if (rc)
		return rc;
	if (d->size && have > d->size) {
		/* Longer than the file can be: nothing in it to keep. */
		if (plat_ftruncate(d->part, 0))
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot write '%s': %s", shown,
					  strerror(errno));
		have = 0;
	}
	if (have > 0) {
		/* Read back from the start (O_APPEND moves only the
		 * writes), hashed, before the rest is asked for. */
		d->file = d->part;
		d->file_shown = shown;
		d->file_is_part = 1;
	}
	return CUENV_OK;
}

int download_restart(struct download *d, int dir, const char *name,
		     const char *shown, unsigned flags, struct cuenv_err *err)
{
	uint64_t have;

	return open_part(d, dir, name, shown, flags | PLAT_O_TRUNC, &have, err);
}

/* Hand on n bytes at p: hashed, counted, and new ones kept in the .part. */
static ssize_t hand_on(struct download *d, const void *p, ssize_t n, int keep,
		       struct cuenv_err *err)
{
	/* Hashed is consumed: a failed write below leaves pos true. */
	digest_update(d->sha, p, (size_t)n);
	d->pos += (uint64_t)n;
	if (d->progress)
		d->progress(d->ctx, d->pos);
	if (keep && d->part >= 0 && file_write_full(d->part, p, (size_t)n))
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  d->part_shown, strerror(errno)),
		       -1;
	return n;
}

ssize_t download_read(struct download *d, const void **out,
		      struct cuenv_err *err)
{
	ssize_t n;

	if (d->eof)
		return 0;
	if (d->file >= 0) {
		if (!d->buf)
			d->buf = xmalloc(FILE_BLOCK);
		n = file_read_full(d->file, d->buf, FILE_BLOCK);
		if (n < 0)
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot read '%s': %s", d->file_shown,
					  strerror(errno)),
			       -1;
		if (n > 0) {
			*out = d->buf;
			return hand_on(d, d->buf, n, d->file != d->part, err);
		}
		if (d->file != d->part)
			plat_close(d->file);
		d->file = -1;
		/* A .part as long as the file is whole: no request. */
		if (!d->file_is_part || (d->size && d->pos >= d->size)) {
			d->eof = 1;
			return 0;
		}
		/* The rest of a partial download comes from the network. */
	}
	if (!d->net)
		d->net = fetch_open(d->url, d->pos, d->size, d->fetch);
	n = fetch_read(d->net, out, err);
	if (n == 0)
		d->eof = 1;
	if (n <= 0)
		return n;
	d->fetched += (uint64_t)n;
	return hand_on(d, *out, n, 1, err);
}

int download_verify(struct download *d, struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];
	const void *p;
	ssize_t n;

	while ((n = download_read(d, &p, err)) > 0)
		;
	if (n < 0)
		return err->rc;
	digest_final(d->sha, hex);
	if (d->size && d->pos != d->size)
		return cuenv_fail(err, CUENV_E_INTEGRITY,
				  "size mismatch for '%s': expected %llu bytes, "
				  "got %llu",
				  d->name, (unsigned long long)d->size,
				  (unsigned long long)d->pos);
	if (strcmp(hex, d->sha256))
		return cuenv_fail(
			err, CUENV_E_INTEGRITY,
			"sha256 mismatch for '%s': expected %s, got %s",
			d->name, d->sha256, hex);
	return CUENV_OK;
}

int download_drop_part(struct download *d)
{
	if (d->part < 0)
		return 0;
	/* Still read back, when it is: closed at its end. */
	if (d->file != d->part)
		plat_close(d->part);
	d->part = -1;
	return 1;
}

int download_close_part(struct download *d, struct cuenv_err *err)
{
	int fd = d->part;

	if (fd < 0)
		return CUENV_OK;
	d->part = -1;
	if (d->file == fd)
		d->file = -1;
	if (plat_fsync(fd)) {
		int e = errno;

		plat_close(fd);
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  d->part_shown, strerror(e));
	}
	if (plat_close(fd))
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  d->part_shown, strerror(errno));
	return CUENV_OK;
}

int download_keep(struct download *d, int dir, const char *name,
		  const char *shown, struct cuenv_err *err)
{
	int rc;

	if (d->part < 0)
		return CUENV_OK;
	rc = download_close_part(d, err);
	if (rc)
		return rc;
	if (plat_rename_at(d->part_dir, d->part_name, dir, name))
		return cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				  shown, strerror(errno));
	return CUENV_OK;
}

int download_resumable(const struct download *d, int rc)
{
	return rc == CUENV_E_FETCH && !fetch_too_long(d->net);
}
