#include "needs/wheel.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "net/digest.h"
#include "nvidia/pypi.h"
#include "base/pep440.h"
#include "base/version.h"
#include "net/workers.h"
#include "base/xalloc.h"

/* The end record is 22 bytes plus a comment of at most 65535. */
#define TAIL_MAX (22 + 65535)
/* A central directory larger than this is refused (TensorFlow's: 2 MB). */
#define CD_MAX (256u << 20)
/* What a member's local extra field may add beyond the directory's. */
#define LOCAL_SLACK 1024

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int wheel_zip_end_parse(const void *tail, size_t len, uint64_t size,
			struct wheel_zip_end *end, struct cuenv_err *err)
{
	const unsigned char *t = tail, *e = NULL;

	for (size_t i = len >= 22 ? len - 22 + 1 : 0; i-- > 0;) {
		if (le32(t + i) == 0x06054b50) {
			e = t + i;
			break;
		}
	}
	if (!e)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "not a zip: no end of central directory");
	end->entries = le16(e + 10);
	end->cd_size = le32(e + 12);
	end->cd_offset = le32(e + 16);
	if ((end->entries == 0xFFFF || end->cd_size == 0xFFFFFFFF ||
	     end->cd_offset == 0xFFFFFFFF) &&
	    e - t >= 20 && le32(e - 20) == 0x07064b50) {
		uint64_t at = le64(e - 20 + 8), start = size - len;

		if (at < start || at - start > len || len - (at - start) < 56 ||
		    le32(t + (at - start)) != 0x06064b50)
			return cuenv_fail(err, CUENV_E_UNPACK,
					  "zip64 end record out of reach");
		end->entries = le64(t + (at - start) + 32);
		end->cd_size = le64(t + (at - start) + 40);
		end->cd_offset = le64(t + (at - start) + 48);
	}
	if (end->cd_offset > size || end->cd_size > size - end->cd_offset ||
	    end->cd_size > CD_MAX)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: central directory at %llu "
				  "(%llu bytes) in %llu bytes",
				  (unsigned long long)end->cd_offset,
				  (unsigned long long)end->cd_size,
				  (unsigned long long)size);
	return CUENV_OK;
}

void wheel_zip_members_free(struct wheel_zip_member *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* zip64 sizes and offset, from the extra field, where the 32-bit
 * fields say 0xFFFFFFFF. */
static void zip64_extra(const unsigned char *x, size_t len,
			struct wheel_zip_member *m, uint32_t c, uint32_t u,
			uint32_t o)
{
	while (len >= 4) {
		uint16_t id = le16(x), sz = le16(x + 2);
		const unsigned char *p = x + 4, *lim = x + 4 + sz;

		if (4u + sz > len)
			return;
		if (id == 1) {
			if (u == 0xFFFFFFFF && p + 8 <= lim) {
				m->usize = le64(p);
				p += 8;
			}
			if (c == 0xFFFFFFFF && p + 8 <= lim) {
				m->csize = le64(p);
				p += 8;
			}
			if (o == 0xFFFFFFFF && p + 8 <= lim)
				m->offset = le64(p);
			return;
		}
		x += 4 + sz;
		len -= 4u + sz;
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two members of one name are refused (sorted once: n log n). */
static int members_unique(const struct wheel_zip_member *v, size_t n,
			  struct cuenv_err *err)
{
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	int rc = CUENV_OK;

	for (size_t i = 0; i < n; i++)
		names[i] = v[i].name;
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 1; i < n && !rc; i++)
		if (!strcmp(names[i - 1], names[i]))
			rc = cuenv_fail(err, CUENV_E_UNPACK,
					"corrupt zip: two members named '%s'",
					names[i]);
	free(names);
	return rc;
}

int wheel_zip_directory(const void *cd, size_t len, struct wheel_zip_member **v,
			size_t *n, struct cuenv_err *err)
{
	const unsigned char *p = cd, *end = p + len;

	*v = NULL;
	*n = 0;
	while (p + 46 <= end && le32(p) == 0x02014b50) {
		size_t nlen = le16(p + 28), xlen = le16(p + 30),
		       clen = le16(p + 32);
		struct wheel_zip_member m;

		if ((size_t)(end - p) < 46 + nlen + xlen + clen)
			break;
		m.method = le16(p + 10);
		m.crc = le32(p + 16);
		m.csize = le32(p + 20);
		m.usize = le32(p + 24);
		m.offset = le32(p + 42);
		zip64_extra(p + 46 + nlen, xlen, &m, le32(p + 20), le32(p + 24),
			    le32(p + 42));
		m.name = xstrndup((const char *)p + 46, nlen);
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = m;
		p += 46 + nlen + xlen + clen;
	}
	if (p != end) {
		wheel_zip_members_free(*v, *n);
		*v = NULL;
		*n = 0;
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: central directory entry at "
				  "byte %zu",
				  (size_t)(p - (const unsigned char *)cd));
	}
	if (members_unique(*v, *n, err)) {
		wheel_zip_members_free(*v, *n);
		*v = NULL;
		*n = 0;
		return CUENV_E_UNPACK;
	}
	return CUENV_OK;
}

/*
 * The most compressed bytes n bytes may take: deflate's stored blocks add
 * 5 bytes to each 64 KiB, and a stored member takes n.
 */
static uint64_t deflated_max(uint64_t n)
{
	return n + (n >> 10) + 64;
}

int wheel_zip_member_span(const struct wheel_zip_member *m, uint64_t end,
			  size_t max, uint64_t *len, struct cuenv_err *err)
{
	uint64_t head = 30 + strlen(m->name);

	*len = 0;
	if (m->usize > max || m->csize > deflated_max(max))
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "zip member '%s' is larger than %zu bytes "
				  "(%llu, %llu compressed)",
				  m->name, max, (unsigned long long)m->usize,
				  (unsigned long long)m->csize);
	if (m->offset > end || head + m->csize > end - m->offset)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: member '%s' at byte %llu "
				  "(%llu bytes) runs past byte %llu",
				  m->name, (unsigned long long)m->offset,
				  (unsigned long long)m->csize,
				  (unsigned long long)end);
	*len = head + LOCAL_SLACK + m->csize;
	if (*len > end - m->offset)
		*len = end - m->offset;
	return CUENV_OK;
}

/* The local header at p (30 bytes): its length with its name and extra
 * field, where the member's data starts. */
static size_t local_len(const unsigned char *p)
{
	return 30u + le16(p + 26) + le16(p + 28);
}

/*
 * Does the local header at p (len bytes, its name within them) agree with
 * m, the directory's? Its name must be m's; without a data descriptor
 * (flag bit 3), the CRC and sizes it gives must be m's (0 is "not
 * given", as some writers leave them; 0xFFFFFFFF is zip64's).
 */
static int local_agrees(const unsigned char *p, size_t len,
			const struct wheel_zip_member *m, struct cuenv_err *err)
{
	size_t nlen;
	uint32_t crc, c, u;

	if (len < 30 || le32(p) != 0x04034b50)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: no local header for member "
				  "'%s' at byte %llu",
				  m->name, (unsigned long long)m->offset);
	nlen = le16(p + 26);
	if (len - 30 < nlen)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: member '%s' runs past the %zu "
				  "bytes of its local header and data",
				  m->name, len);
	if (nlen != strlen(m->name) || memcmp(p + 30, m->name, nlen)) {
		struct buf shown = BUF_INIT;
		char *local = xstrndup((const char *)p + 30, nlen);

		buf_add_display(&shown, local, 200);
		cuenv_fail(err, CUENV_E_UNPACK,
			   "corrupt zip: member '%s' is named '%s' in its "
			   "local header",
			   m->name, shown.data);
		buf_release(&shown);
		free(local);
		return CUENV_E_UNPACK;
	}
	crc = le32(p + 14);
	c = le32(p + 18);
	u = le32(p + 22);
	if (!(le16(p + 6) & 8) && ((crc && crc != m->crc) ||
				   (c && c != 0xFFFFFFFF && c != m->csize) ||
				   (u && u != 0xFFFFFFFF && u != m->usize)))
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: member '%s': its local "
				  "header's CRC or sizes are not its "
				  "directory's",
				  m->name);
	return CUENV_OK;
}

/*
 * Does the data descriptor at d (len bytes of it) give m's CRC and sizes?
 * It may start with its signature, and its sizes are 4 bytes, or 8 in a
 * zip64 member: any of those layouts that fits within len may say so.
 */
static bool descriptor_agrees(const unsigned char *d, size_t len,
			      const struct wheel_zip_member *m)
{
	for (size_t sig = 0; sig <= 4; sig += 4) {
		if (sig && (len < 4 || le32(d) != 0x08074b50))
			continue;
		for (size_t w = 4; w <= 8; w += 4) {
			const unsigned char *f = d + sig + 4;

			if (len < sig + 4 + 2 * w || le32(d + sig) != m->crc)
				continue;
			if (w == 4 && le32(f) == m->csize &&
			    le32(f + 4) == m->usize)
				return true;
			if (w == 8 && le64(f) == m->csize &&
			    le64(f + 8) == m->usize)
				return true;
		}
	}
	return false;
}

static int descriptor_differs(const struct wheel_zip_member *m,
			      struct cuenv_err *err)
{
	return cuenv_fail(err, CUENV_E_UNPACK,
			  "corrupt zip: member '%s': its data descriptor's "
			  "CRC or sizes are not its directory's",
			  m->name);
}

int wheel_zip_local_check(const void *local, size_t len,
			  const struct wheel_zip_member *m, size_t max,
			  struct cuenv_err *err)
{
	const unsigned char *p = local;
	uint64_t c, u, d;

	if (len < 30 || le32(p) != 0x04034b50)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: no local header for member "
				  "'%s' at byte %llu",
				  m->name, (unsigned long long)m->offset);
	if (30u + le16(p + 26) + le16(p + 28) + m->csize > len)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: member '%s' runs past the %zu "
				  "bytes of its local header and data",
				  m->name, len);
	/* sizes the header gives (not in a data descriptor, not zip64's) */
	c = le32(p + 18);
	u = le32(p + 22);
	if (!(le16(p + 6) & 8) && ((u != 0xFFFFFFFF && u > max) ||
				   (c != 0xFFFFFFFF && c > deflated_max(max))))
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "zip member '%s' is larger than %zu bytes "
				  "(its local header: %llu, %llu compressed)",
				  m->name, max, (unsigned long long)u,
				  (unsigned long long)c);
	if (local_agrees(p, len, m, err))
		return CUENV_E_UNPACK;
	/* the descriptor, when all of its longest form was fetched */
	d = local_len(p) + m->csize;
	if ((le16(p + 6) & 8) && len - d >= 24 &&
	    !descriptor_agrees(p + d, len - d, m))
		return descriptor_differs(m, err);
	return CUENV_OK;
}

static int inflated_differs(const struct wheel_zip_member *m, uint64_t n,
			    struct cuenv_err *err)
{
	return cuenv_fail(err, CUENV_E_UNPACK,
			  "zip member '%s' inflates to %llu bytes, its "
			  "directory says %llu",
			  m->name, (unsigned long long)n,
			  (unsigned long long)m->usize);
}

/* len bytes of url from off into out (reset first); size: the file's. */
static int fetch_range(const char *url, uint64_t off, uint64_t len,
		       uint64_t size, const struct fetch_opts *fo,
		       struct buf *out, struct wheel_remote_stats *st,
		       struct cuenv_err *err)
{
	struct fetch *f = fetch_open_range(url, off, off + len, size, fo);
	const void *p;
	ssize_t n;
	int rc = CUENV_OK;

	buf_reset(out);
	st->requests++;
	while (out->len < len) {
		n = fetch_read(f, &p, err);
		if (n < 0) {
			rc = err->rc;
			break;
		}
		if (n == 0)
			break;
		st->bytes += (uint64_t)n;
		buf_add(out, p,
			(size_t)n < len - out->len ? (size_t)n
						   : (size_t)(len - out->len));
		if (!st->size && fetch_size(f))
			st->size = fetch_size(f);
	}
	fetch_close(f);
	if (!rc && out->len < len)
		rc = cuenv_fail(err, CUENV_E_FETCH,
				"'%s' ended at byte %llu, before %llu", url,
				(unsigned long long)(off + out->len),
				(unsigned long long)(off + len));
	return rc;
}

int wheel_remote_each(const char *url, uint64_t size,
		      const struct fetch_opts *fo,
		      const struct unpack_zip_reader *r,
		      struct wheel_remote_stats *st, struct cuenv_err *err)
{
	struct buf tail = BUF_INIT, cd = BUF_INIT, local = BUF_INIT,
		   data = BUF_INIT;
	struct wheel_zip_member *m = NULL;
	struct wheel_zip_end end;
	size_t nm = 0;
	uint64_t tail_len;
	int rc;

	memset(st, 0, sizeof(*st));
	st->size = size;
	if (!st->size) {
		/* the size, from the first bytes' answer */
		rc = fetch_range(url, 0, 1, 0, fo, &tail, st, err);
		if (rc)
			goto out;
		if (!st->size) {
			rc = cuenv_fail(err, CUENV_E_FETCH,
					"'%s': the server does not say its "
					"size",
					url);
			goto out;
		}
	}
	size = st->size;
	tail_len = size < TAIL_MAX ? size : TAIL_MAX;
	rc = fetch_range(url, size - tail_len, tail_len, size, fo, &tail, st,
			 err);
	if (!rc)
		rc = wheel_zip_end_parse(tail.data, tail.len, size, &end, err);
	if (rc)
		goto out;
	if (end.cd_offset >= size - tail_len) {
		buf_add(&cd, tail.data + (end.cd_offset - (size - tail_len)),
			(size_t)end.cd_size);
	} else {
		rc = fetch_range(url, end.cd_offset, end.cd_size, size, fo, &cd,
				 st, err);
		if (rc)
			goto out;
	}
	rc = wheel_zip_directory(cd.data, cd.len, &m, &nm, err);
	for (size_t i = 0; !rc && i < nm; i++) {
		uint64_t want;

		if (!r->want(r->ctx, m[i].name))
			continue;
		/* what the directory claims, bounded before a byte of it
		 * is fetched; what the local header claims, before it is
		 * inflated (at most r->max bytes, whatever it claims) */
		rc = wheel_zip_member_span(&m[i], end.cd_offset, r->max, &want,
					   err);
		if (!rc)
			rc = fetch_range(url, m[i].offset, want, size, fo,
					 &local, st, err);
		if (!rc)
			rc = wheel_zip_local_check(local.data, local.len, &m[i],
						   r->max, err);
		if (!rc)
			rc = unpack_zip_member(local.data, local.len, r->max,
					       &data, err);
		if (!rc && data.len != m[i].usize)
			rc = inflated_differs(&m[i], data.len, err);
		if (!rc)
			rc = r->got(r->ctx, m[i].name, data.data, data.len,
				    err);
	}
out:
	wheel_zip_members_free(m, nm);
	buf_release(&tail);
	buf_release(&cd);
	buf_release(&local);
	buf_release(&data);
	return rc;
}

/* ---- a wheel as a tree --------------------------------------------------- */

/* A member larger than this is refused unread (no wheel comes near). */
#define MEMBER_MAX                                                             \
	((size_t)1 << 40 < SIZE_MAX >> 11 ? (size_t)1 << 40 : SIZE_MAX >> 11)

/* [off, off + len) of src into out. */
static int source_range(const struct wheel_source *src, uint64_t off,
			uint64_t len, struct buf *out, struct cuenv_err *err)
{
	void *h = src->open(src->ctx, off, len);
	const void *p;
	ssize_t n = 0;
	int rc = CUENV_OK;

	buf_reset(out);
	while (out->len < len && (n = src->next(h, &p, err)) > 0)
		buf_add(out, p,
			(size_t)n < len - out->len ? (size_t)n
						   : (size_t)(len - out->len));
	src->close(h);
	if (n < 0)
		rc = err->rc ? err->rc : CUENV_E_FETCH;
	else if (out->len < len)
		rc = cuenv_fail(err, CUENV_E_UNPACK,
				"'%s' ended at byte %llu, before %llu",
				src->shown,
				(unsigned long long)(off + out->len),
				(unsigned long long)(off + len));
	return rc;
}

/*
 * One member being read: its raw bytes from src, inflated. The raw bytes
 * are watched as they go by: the local header, checked against the
 * directory as soon as it is whole, and the data descriptor's bytes,
 * checked at the end.
 */
struct member_read {
	const struct wheel_source *src;
	const struct wheel_zip_member *m;
	uint64_t end; /* the central directory's offset */
	void *h;
	struct unpack_member *um;
	uint64_t out;	  /* bytes handed out */
	uint64_t raw;	  /* raw bytes seen */
	struct buf head;  /* the local header, as it arrives */
	bool head_done;	  /* ... whole, and agreeing */
	bool descriptor;  /* flag bit 3: a data descriptor follows */
	uint64_t desc_at; /* where, from the local header */
	unsigned char desc[24];
	size_t ndesc; /* its bytes seen, from desc_at */
};

/* The raw bytes [p, p + n) of r's member have arrived. */
static int raw_seen(struct member_read *r, const unsigned char *p, size_t n,
		    struct cuenv_err *err)
{
	uint64_t at = r->raw, lo, hi;
	size_t used = 0;

	r->raw += n;
	while (!r->head_done) {
		size_t need = r->head.len < 30
				      ? 30
				      : local_len((const void *)r->head.data);
		size_t take = n - used;

		if (r->head.len >= need && r->head.len >= 30) {
			if (local_agrees((const void *)r->head.data,
					 r->head.len, r->m, err))
				return -1;
			r->head_done = true;
			r->descriptor =
				le16((const void *)(r->head.data + 6)) & 8;
			r->desc_at = need + r->m->csize;
			break;
		}
		if (!take)
			break;
		if (take > need - r->head.len)
			take = need - r->head.len;
		buf_add(&r->head, p + used, take);
		used += take;
	}
	if (!r->descriptor)
		return 0;
	lo = at > r->desc_at ? at : r->desc_at;
	hi = at + n < r->desc_at + sizeof(r->desc)
		     ? at + n
		     : r->desc_at + sizeof(r->desc);
	if (lo < hi) {
		memcpy(r->desc + (lo - r->desc_at), p + (lo - at),
		       (size_t)(hi - lo));
		if (hi - r->desc_at > r->ndesc)
			r->ndesc = (size_t)(hi - r->desc_at);
	}
	return 0;
}

static ssize_t member_raw(void *ctx, const void **p, struct cuenv_err *err)
{
	struct member_read *r = ctx;
	ssize_t n = r->src->next(r->h, p, err);

	if (n > 0 && raw_seen(r, *p, (size_t)n, err))
		return -1;
	return n;
}

/* At the member's end: what was inflated is what the directory says. */
static int member_end(const struct member_read *r, struct cuenv_err *err)
{
	if (r->out != r->m->usize)
		return inflated_differs(r->m, r->out, err);
	if (r->descriptor && !descriptor_agrees(r->desc, r->ndesc, r->m))
		return descriptor_differs(r->m, err);
	return CUENV_OK;
}

static ssize_t member_next(void *ctx, const void **p, struct cuenv_err *err)
{
	struct member_read *r = ctx;
	ssize_t n;

	if (!r->um) {
		uint64_t len, more;

		/* what the directory claims, bounded before a byte of it
		 * is read */
		if (wheel_zip_member_span(r->m, r->end, MEMBER_MAX, &len, err))
			return -1;
		/* libarchive reads 24 bytes at a data descriptor, which is
		 * 16 before the directory: the directory's first bytes */
		more = r->src->size - r->m->offset - len;
		r->h = r->src->open(r->src->ctx, r->m->offset,
				    len + (more < 24 ? more : 24));
		r->um = unpack_member_open(member_raw, r, r->m->name);
	}
	n = unpack_member_read(r->um, p, err);
	if (n == 0 && member_end(r, err))
		return -1;
	if (n > 0 && (uint64_t)n > r->m->usize - r->out) {
		cuenv_fail(err, CUENV_E_UNPACK,
			   "zip member '%s' inflates past the %llu bytes its "
			   "directory says",
			   r->m->name, (unsigned long long)r->m->usize);
		return -1;
	}
	if (n > 0)
		r->out += (uint64_t)n;
	return n;
}

struct zip_tree {
	const struct wheel_source *src;
	struct wheel_zip_member *m;
	size_t n;
	uint64_t end;
};

static int cmp_member(const void *a, const void *b)
{
	const struct wheel_zip_member *x = a, *y = b;

	return needs_member_cmp(&x->name, &y->name);
}

/*
 * The members read on up to threads threads, each on its own (its own
 * range of the source, its own inflater): needs_scan_tree's visit in its
 * two steps, what was found added in the members' order, so the answer
 * is the same for any number of threads.
 */
struct zip_jobs {
	struct zip_tree *z;
	struct needs_read **found;
};

static int zip_job(void *ctx, size_t i)
{
	struct zip_jobs *j = ctx;
	const struct wheel_zip_member *m = &j->z->m[i];
	size_t len = strlen(m->name);
	struct member_read r = { .src = j->z->src, .m = m, .end = j->z->end };
	struct needs_member nm = { m->name, m->usize, member_next, &r };

	if (!len || m->name[len - 1] == '/')
		return 0; /* a folder */
	buf_init(&r.head);
	j->found[i] = needs_read_member(j->z->src->shown, &nm);
	unpack_member_close(r.um);
	if (r.h)
		j->z->src->close(r.h);
	buf_release(&r.head);
	return 0;
}

static int zip_read_at_once(struct needs_scan *s, struct zip_tree *z,
			    unsigned threads)
{
	struct zip_jobs j = { z, xcalloc(z->n ? z->n : 1, sizeof(*j.found)) };
	struct workers w;

	workers_init(&w);
	w.n = z->n;
	w.run = zip_job;
	w.ctx = &j;
	workers_run(&w, threads);
	workers_destroy(&w);
	for (size_t i = 0; i < z->n; i++)
		needs_read_add(s, j.found[i]);
	free(j.found);
	return CUENV_OK;
}

/* src's end record and central directory into z (src set). */
static int read_directory(struct zip_tree *z, struct cuenv_err *err)
{
	const struct wheel_source *src = z->src;
	struct buf tail = BUF_INIT, cd = BUF_INIT;
	struct wheel_zip_end end;
	uint64_t tail_len = src->size < TAIL_MAX ? src->size : TAIL_MAX;
	int rc;

	rc = source_range(src, src->size - tail_len, tail_len, &tail, err);
	if (!rc)
		rc = wheel_zip_end_parse(tail.data, tail.len, src->size, &end,
					 err);
	if (rc)
		goto out;
	if (end.cd_offset >= src->size - tail_len)
		buf_add(&cd,
			tail.data + (end.cd_offset - (src->size - tail_len)),
			(size_t)end.cd_size);
	else
		rc = source_range(src, end.cd_offset, end.cd_size, &cd, err);
	if (!rc)
		rc = wheel_zip_directory(cd.data, cd.len, &z->m, &z->n, err);
	z->end = end.cd_offset;
out:
	buf_release(&tail);
	buf_release(&cd);
	return rc;
}

int wheel_scan_source(struct needs_scan *s, const struct wheel_source *src,
		      struct cuenv_err *err)
{
	struct zip_tree z = { src, NULL, 0, 0 };
	int rc = read_directory(&z, err);

	if (!rc && z.n)
		qsort(z.m, z.n, sizeof(*z.m), cmp_member);
	if (!rc)
		rc = zip_read_at_once(s, &z, src->threads);
	wheel_zip_members_free(z.m, z.n);
	return rc;
}

/* Member m's local header (with its name and extra field) and data
 * descriptor agree with the directory (the zip's members end at end). */
static int check_member(const struct wheel_source *src,
			const struct wheel_zip_member *m, uint64_t end,
			struct buf *b, struct cuenv_err *err)
{
	uint64_t span, head, at;
	int rc = wheel_zip_member_span(m, end, MEMBER_MAX, &span, err);

	if (!rc)
		rc = source_range(src, m->offset, 30, b, err);
	if (rc)
		return rc;
	head = local_len((const void *)b->data);
	if (head + m->csize > end - m->offset)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "corrupt zip: member '%s' at byte %llu "
				  "runs past byte %llu",
				  m->name, (unsigned long long)m->offset,
				  (unsigned long long)end);
	rc = source_range(src, m->offset, head, b, err);
	if (!rc)
		rc = local_agrees((const void *)b->data, b->len, m, err);
	if (rc || !(le16((const void *)(b->data + 6)) & 8))
		return rc;
	at = m->offset + head + m->csize;
	rc = source_range(src, at, end - at < 24 ? end - at : 24, b, err);
	if (!rc && !descriptor_agrees((const void *)b->data, b->len, m))
		rc = descriptor_differs(m, err);
	return rc;
}

int wheel_check_source(const struct wheel_source *src, struct cuenv_err *err)
{
	struct zip_tree z = { src, NULL, 0, 0 };
	struct buf b = BUF_INIT;
	int rc = read_directory(&z, err);

	for (size_t i = 0; !rc && i < z.n; i++)
		rc = check_member(src, &z.m[i], z.end, &b, err);
	wheel_zip_members_free(z.m, z.n);
	buf_release(&b);
	return rc;
}

/* ---- a URL, by range requests -------------------------------------------- */

struct url_source {
	const char *url;
	const struct fetch_opts *fo;
	uint64_t size;
	struct wheel_remote_stats *st;
};

/*
 * A member is read in windows that grow fourfold, each its own bounded
 * request: a reader that stops early (a header, a lying size) has
 * fetched at most one small window more than it read, whatever the
 * member claims; a whole library takes a handful of requests.
 */
#define WINDOW_FIRST ((uint64_t)64 << 10)
#define WINDOW_MAX ((uint64_t)64 << 20)

struct url_range {
	struct url_source *u;
	struct fetch *f;
	uint64_t off, left; /* the next byte to hand out; bytes after it */
	uint64_t from, end; /* the open window */
	uint64_t window;    /* the next window's length */
};

static void *url_open(void *ctx, uint64_t off, uint64_t len)
{
	struct url_range *r = xcalloc(1, sizeof(*r));

	r->u = ctx;
	r->off = off;
	r->left = len;
	r->window = WINDOW_FIRST;
	return r;
}

/* Close the open window, counting what came over the wire for it. */
static void url_window_close(struct url_range *r)
{
	if (!r->f)
		return;
	/* members are read on several threads (wheel_scan_source) */
	__atomic_fetch_add(&r->u->st->bytes, fetch_offset(r->f) - r->from,
			   __ATOMIC_RELAXED);
	fetch_close(r->f);
	r->f = NULL;
}

static ssize_t url_next(void *h, const void **p, struct cuenv_err *err)
{
	struct url_range *r = h;
	ssize_t n;

	if (!r->left)
		return 0;
	if (r->f && r->off == r->end)
		url_window_close(r);
	if (!r->f) {
		r->from = r->off;
		r->end = r->off + (r->left < r->window ? r->left : r->window);
		r->f = fetch_open_range(r->u->url, r->from, r->end, r->u->size,
					r->u->fo);
		__atomic_fetch_add(&r->u->st->requests, 1, __ATOMIC_RELAXED);
		if (r->window < WINDOW_MAX)
			r->window *= 4;
	}
	n = fetch_read(r->f, p, err);
	if (n == 0) {
		cuenv_fail(err, CUENV_E_FETCH,
			   "'%s' ended at byte %llu, %llu bytes short",
			   r->u->url, (unsigned long long)fetch_offset(r->f),
			   (unsigned long long)r->left);
		return -1;
	}
	if (n < 0)
		return -1;
	if ((uint64_t)n > r->end - r->off)
		n = (ssize_t)(r->end - r->off);
	r->off += (uint64_t)n;
	r->left -= (uint64_t)n;
	return n;
}

static void url_close(void *h)
{
	url_window_close(h);
	free(h);
}

/* ---- a requirement on the index ------------------------------------------ */

void wheel_requirement_release(struct wheel_requirement *r)
{
	FREE_EACH(r->project, r->version, r->wheel, r->url);
	memset(r, 0, sizeof(*r));
}

/* PEP 503's normal form: lower case, runs of -_. as one '-'. */
static char *normal_name(const char *p, size_t n)
{
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (c == '_' || c == '.' || c == '-') {
			if (!b.len || b.data[b.len - 1] != '-')
				buf_adds(&b, "-");
			continue;
		}
		c = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		buf_add(&b, &c, 1);
	}
	return buf_detach(&b);
}

/* The version field of a wheel file name, or NULL. */
static char *wheel_version(const char *name)
{
	const char *d1 = strchr(name, '-'), *d2;
	size_t n = strlen(name);

	if (n < 5 || strcmp(name + n - 4, ".whl") || !d1)
		return NULL;
	d2 = strchr(d1 + 1, '-');
	return d2 ? xstrndup(d1 + 1, (size_t)(d2 - d1 - 1)) : NULL;
}

/* ---- which wheel, like pip ---------------------------------------------- */

/* The glibc minor of this machine (36 for 2.36), or 0 when not glibc. */
static unsigned glibc_minor(void)
{
#ifdef _CS_GNU_LIBC_VERSION
	char v[64];
	const char *dot;

	if (confstr(_CS_GNU_LIBC_VERSION, v, sizeof(v)) == 0 ||
	    strncmp(v, "glibc 2.", 8))
		return 0;
	dot = v + 8;
	return (unsigned)strtoul(dot, NULL, 10);
#else
	return 0;
#endif
}

/*
 * The field k (0-based, from the end: 0 platform, 1 abi, 2 python) of a
 * wheel file name, into out.
 */
static bool wheel_tag(const char *name, unsigned k, struct buf *out)
{
	size_t n = strlen(name);
	const char *end = name + n - 4, *p = end;

	buf_reset(out);
	if (n < 5 || strcmp(end, ".whl"))
		return false;
	for (unsigned i = 0; i <= k; i++) {
		end = p;
		while (p > name && p[-1] != '-')
			p--;
		if (p == name)
			return false;
		if (i < k)
			p--;
	}
	buf_add(out, p, (size_t)(end - p));
	return true;
}

/* Does the '.'-separated tag set hold tag? */
static bool tag_has(const char *set, const char *tag)
{
	size_t n = strlen(tag);

	for (const char *p = set; p; p = strchr(p, '.'), p = p ? p + 1 : p)
		if (!strncmp(p, tag, n) && (!p[n] || p[n] == '.'))
			return true;
	return false;
}

/*
 * Does set ("py39", "py38.py39") hold a pyXY tag that CPython py
 * ("cp311") runs: the same major, a minor up to its own (pip takes
 * xformers 0.0.35's py39-none-manylinux_2_28 wheel for cp311)?
 */
static bool py_minor_runs(const char *set, const char *py)
{
	unsigned long here, built;

	if (strncmp(py, "cp3", 3) || !isdigit((unsigned char)py[3]))
		return false;
	here = strtoul(py + 3, NULL, 10);
	for (const char *p = set; p; p = strchr(p, '.'), p = p ? p + 1 : p) {
		char *end;

		if (strncmp(p, "py3", 3) || !isdigit((unsigned char)p[3]))
			continue;
		built = strtoul(p + 3, &end, 10);
		if ((!*end || *end == '.') && built <= here)
			return true;
	}
	return false;
}

/*
 * pip's order for the interpreter tag py ("cp311"; NULL: any): its own
 * ABI; then abi3 of the newest CPython it runs (cp311, cp310, ... cp32);
 * then none; pure-Python wheels last. 0: not for it.
 */
int wheel_python_rank(const char *name, const char *py)
{
	struct buf pt = BUF_INIT, abi = BUF_INIT;
	int sc = 0;

	if (!wheel_tag(name, 2, &pt) || !wheel_tag(name, 1, &abi))
		goto out;
	if (!py) {
		sc = 1;
	} else if (tag_has(pt.data, py)) {
		sc = tag_has(abi.data, py)	 ? 300
		     : !strcmp(abi.data, "none") ? 3
						 : 0;
	} else if (!strcmp(abi.data, "abi3") && !strncmp(pt.data, "cp3", 3) &&
		   !strncmp(py, "cp3", 3)) {
		unsigned long built = strtoul(pt.data + 3, NULL, 10),
			      here = strtoul(py + 3, NULL, 10);

		/* an abi3 wheel runs on its CPython and every later one */
		if (built <= here && here < 100)
			sc = 100 + (int)built;
	} else if (!strcmp(abi.data, "none") &&
		   (tag_has(pt.data, "py3") || tag_has(pt.data, "py2.py3") ||
		    py_minor_runs(pt.data, py))) {
		sc = 2;
	}
out:
	BUF_RELEASE_EACH(&pt, &abi);
	return sc;
}

/* The machine's architecture as Linux wheels' platform tags end. */
#if defined(__aarch64__)
#define WHEEL_ARCH "_aarch64"
#elif defined(__powerpc64__)
#define WHEEL_ARCH "_ppc64le"
#else
#define WHEEL_ARCH "_x86_64"
#endif

/* The architecture NULL platforms mean, wheel_for_platform's. */
static const char *wheel_arch = WHEEL_ARCH;

void wheel_for_platform(const char *platform)
{
	const char *m = catalog_platform_machine(platform);

	wheel_arch = !strcmp(m, "aarch64")   ? "_aarch64"
		     : !strcmp(m, "ppc64le") ? "_ppc64le"
					     : "_x86_64";
}

/*
 * How well the platform tags fit: with platform, a tag holding it; else
 * Linux on this machine's architecture as pip ranks it for glibc 2.glibc
 * (0: any): the newest manylinux_2_Y it can run (manylinux1 is 2_5, 2010
 * 2_12, 2014 2_17), then linux_ARCH, then "any". 0: not at all.
 */
int wheel_platform_rank(const char *name, const char *platform, unsigned glibc)
{
	struct buf pl = BUF_INIT;
	int best = 0;

	if (!wheel_tag(name, 0, &pl))
		goto out;
	if (platform) {
		best = strstr(pl.data, platform) ? 2 : 0;
		goto out;
	}
	for (const char *p = pl.data; p && *p;) {
		const char *e = strchr(p, '.');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		size_t an = strlen(wheel_arch);
		int y = -1;

		if (n > an && !strncmp(p + n - an, wheel_arch, an)) {
			if (!strncmp(p, "manylinux1_", 11))
				y = 5;
			else if (!strncmp(p, "manylinux2010_", 14))
				y = 12;
			else if (!strncmp(p, "manylinux2014_", 14))
				y = 17;
			else if (!strncmp(p, "manylinux_2_", 12))
				y = (int)strtoul(p + 12, NULL, 10);
			else if (!strncmp(p, "linux_", 6))
				y = 0;
		}
		if (y >= 0 && (!glibc || (unsigned)y <= glibc) && y + 3 > best)
			best = y + 3;
		if (n == 3 && !strncmp(p, "any", 3) && best < 1)
			best = 1;
		p = e ? e + 1 : NULL;
	}
out:
	buf_release(&pl);
	return best;
}

struct meta_read {
	struct needs_scan *s;
	const char *wheel;
	struct buf path;
	bool have_metadata; /* METADATA was read from the PEP 658 file */
};

static bool want_metadata(void *ctx, const char *name)
{
	struct meta_read *m = ctx;
	size_t n = strlen(name);

	if (m->have_metadata && n >= 9 && !strcmp(name + n - 9, "/METADATA"))
		return false;
	return needs_metadata_name(name);
}

static int got_metadata(void *ctx, const char *name, const void *data,
			size_t len, struct cuenv_err *err)
{
	struct meta_read *m = ctx;

	(void)err;
	buf_reset(&m->path);
	buf_printf(&m->path, "%s/%s", m->wheel, name);
	needs_read_metadata(m->s, m->path.data, data, len);
	return CUENV_OK;
}

/*
 * Does a report from before on say a CUDA major.minor? TensorFlow's never
 * does: its nvidia-* pins are an extra (tensorflow[and-cuda]), and the
 * build_info.py in its wheel says what it was built with.
 */
static bool metadata_enough(const struct needs_scan *s, size_t before)
{
	for (size_t i = before; i < s->nrep; i++)
		if (s->rep[i].cuda && strchr(s->rep[i].cuda, '.') &&
		    strncmp(s->rep[i].framework, "tensorflow", 10) &&
		    strncmp(s->rep[i].framework, "tf-", 3))
			return true;
	return false;
}

/*
 * Read the wheel's core metadata from the file the index serves beside
 * it (PEP 658: url + ".metadata"), checked against the index's sha256
 * when it gave one, into s. Returns true when it was read; false (with a
 * line in s->warnings) when it could not be, or did not match: the
 * wheel's own METADATA is read instead.
 */
static bool read_core_metadata(struct needs_scan *s, const struct index_file *f,
			       const struct fetch_opts *fo,
			       struct wheel_requirement *r)
{
	struct buf url = BUF_INIT, body = BUF_INIT, why = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	bool ok = false;

	buf_printf(&url, "%s.metadata", f->url);
	r->st.requests++;
	if (fetch_to_buf(url.data, fo, WHEEL_METADATA_MAX, &body, &e)) {
		buf_printf(&why, "%s", e.msg.data);
	} else if (f->metadata_sha256) {
		struct digest *d = digest_new();
		char hex[DIGEST_HEX_LEN + 1];

		digest_update(d, body.data, body.len);
		digest_final(d, hex);
		digest_free(d);
		if (strcmp(hex, f->metadata_sha256))
			buf_printf(&why,
				   "'%s' has sha256 %s, the index says "
				   "%s",
				   url.data, hex, f->metadata_sha256);
	}
	r->st.bytes += body.len;
	if (why.len) {
		buf_reset(&body);
		buf_printf(&body,
			   "skipped: the index's metadata file of %s: "
			   "%s; read from the wheel instead",
			   f->name, why.data);
		strv_push(&s->warnings, body.data);
	} else {
		buf_reset(&url);
		buf_printf(&url, "%s.metadata", f->name);
		needs_read_metadata(s, url.data, body.data, body.len);
		r->st.metadata = true;
		ok = true;
	}
	err_release(&e);
	BUF_RELEASE_EACH(&url, &body, &why);
	return ok;
}

/* A release a page has, parsed once for sorting. */
struct had {
	struct pep440 v;
	const char *s;
};

static int cmp_had(const void *a, const void *b)
{
	const struct had *x = a, *y = b;
	int c = pep440_cmp(&x->v, &y->v);

	return c ? c : strcmp(x->s, y->s);
}

/* The most releases a hint lists: the newest of them. */
#define HAD_MAX 32

/*
 * "it has 2.6.5, 2.9.1, 2.10.0" for the releases seen (in any order,
 * repeated), each once and in PEP 440's order (2.9 before 2.10,
 * 0.0.16rc424 before 0.0.16, 0.0.22 before 0.0.22.post7; one that is
 * not a version is left out); past HAD_MAX, the count and the newest. Sorted once: n log n
 * for a page of n files (a list kept in order as it grew was n * n: 39 s
 * for 50k releases).
 */
static void had_list(const struct strv *seen, struct buf *out)
{
	struct had *h = xcalloc(seen->n ? seen->n : 1, sizeof(*h));
	size_t n = 0, from;

	size_t m = 0;

	for (size_t i = 0; i < seen->n; i++)
		if (!pep440_parse(seen->v[i], &h[m].v))
			h[m++].s = seen->v[i];
	if (m)
		qsort(h, m, sizeof(*h), cmp_had);
	for (size_t i = 0; i < m; i++)
		if (!n || strcmp(h[n - 1].s, h[i].s))
			h[n++] = h[i];
	from = n > HAD_MAX ? n - HAD_MAX : 0;
	if (from)
		buf_printf(out, "it has %zu releases, the newest ", n);
	else if (n)
		buf_adds(out, "it has ");
	for (size_t i = from; i < n; i++)
		buf_printf(out, "%s%s", i > from ? ", " : "", h[i].s);
	free(h);
}

/*
 * Does a release v answer ==spec? Numbers alone as CUDA's versions do
 * (2.16 takes the newest 2.16.x) unless exact (spec_is_release); anything
 * else as PEP 440 says (0.0.28.post3, 2.1.2+cu121; a spec without a
 * local label takes any).
 */
static bool spec_matches(const char *v, const char *spec, bool exact)
{
	if (!exact && version_is_valid(spec) && version_is_valid(v))
		return version_matches_str(v, spec);
	return pep440_equal_spec(v, spec);
}

/*
 * Is spec a release of files itself (0.12.0 beside 0.12.0.1)? Then ==spec
 * is that release, as pip's is, not the newest it is a prefix of.
 */
static bool spec_is_release(const struct index_file *files, size_t n,
			    const char *spec)
{
	bool yes = false;

	for (size_t i = 0; spec && !yes && i < n; i++) {
		char *v = wheel_version(files[i].name);

		yes = v && !strcmp(v, spec);
		free(v);
	}
	return yes;
}

/*
 * No wheel of the release for py: the one for the nearest CPython
 * instead (cp39 for cp311 when cp37 to cp39 are all there is), of the
 * newest release spec names (NAME alone: final releases), for this
 * platform; into *pick and r->version, nothing when none.
 */
static void nearest_python(const struct index_file *files, size_t nfiles,
			   const char *spec, bool exact, const char *platform,
			   unsigned glibc, const char *py,
			   struct wheel_requirement *r,
			   const struct index_file **pick)
{
	struct buf pt = BUF_INIT;
	unsigned long here =
		strncmp(py, "cp3", 3) ? 0 : strtoul(py + 3, NULL, 10);
	long best_d = -1;
	struct pep440 pv, picked;

	for (size_t i = 0; here && i < nfiles; i++) {
		const struct index_file *f = &files[i];
		char *v = wheel_version(f->name);
		unsigned long x;
		long d;
		int c;

		if (!v || pep440_parse(v, &pv) ||
		    (spec && !spec_matches(v, spec, exact)) ||
		    (!spec && (pv.pre >= 0 || pv.dev >= 0)) ||
		    !wheel_platform_rank(f->name, platform, glibc) ||
		    !wheel_tag(f->name, 2, &pt) || strncmp(pt.data, "cp3", 3)) {
			free(v);
			continue;
		}
		x = strtoul(pt.data + 3, NULL, 10);
		d = (long)(x > here ? x - here : here - x);
		c = *pick ? pep440_cmp(&pv, &picked) : 1;
		/* the newest release; of it, the nearest Python, the newer
		 * of two as near */
		if (c > 0 ||
		    (!c && (d < best_d || (d == best_d && x > here)))) {
			free(r->version);
			r->version = v;
			picked = pv;
			best_d = d;
			*pick = f;
		} else {
			free(v);
		}
	}
	buf_release(&pt);
}

/*
 * The wheel of req (NAME==VERSION, or NAME alone: its newest release) on
 * index that pip would install here (see wheel_requirement_scan; py: the
 * interpreter's tag, "cp311", or NULL), into r (project, version, wheel,
 * url, size) and *pick (into files). Why it was chosen goes into why
 * when not NULL. A release the index lacks is CUENV_E_UNKNOWN, its hint
 * every release it has for this machine, in version order (past 32, the
 * newest).
 */
static int choose_wheel(const char *req, const char *index,
			const char *platform, const char *py,
			const struct fetch_opts *fo,
			struct wheel_requirement *r, struct index_file **files,
			size_t *nfiles, const struct index_file **pick,
			struct buf *why, struct cuenv_err *err)
{
	struct buf page = BUF_INIT, had = BUF_INIT, t = BUF_INIT;
	struct strv seen = STRV_INIT, elsewhere = STRV_INIT;
	const char *eq = strstr(req, "=="), *spec = eq ? eq + 2 : NULL;
	unsigned glibc = platform ? 0 : glibc_minor();
	int rc, best[3] = { 0, 0, 0 };
	struct pep440 pv, picked; /* a candidate's version, the pick's */
	bool exact;

	memset(r, 0, sizeof(*r));
	*pick = NULL;
	if (eq ? eq == req || !pep440_valid(spec) : !needs_is_name(req))
		return cuenv_fail(err, CUENV_E_USAGE,
				  "'%s' is not NAME==VERSION", req);
	r->project = normal_name(req, eq ? (size_t)(eq - req) : strlen(req));
	rc = pypi_index_files(index, r->project, fo, &page, files, nfiles, err);
	r->st.requests++;
	r->st.bytes += page.len; /* the index's page counts too */
	if (rc)
		goto out;
	exact = spec_is_release(*files, *nfiles, spec);
	/*
	 * The newest release that spec names, then of its files the one
	 * pip ranks first: the interpreter's tags, the newest manylinux
	 * this glibc runs, then (a GPU build beside a CPU one) the larger
	 */
	for (size_t i = 0; i < *nfiles; i++) {
		const struct index_file *f = &(*files)[i];
		char *v = wheel_version(f->name);
		int ps = wheel_python_rank(f->name, py),
		    sc = wheel_platform_rank(f->name, platform, glibc), newer,
		    same, c;

		if (!v || pep440_parse(v, &pv)) {
			free(v);
			continue;
		}
		if (sc && ps)
			strv_push(&seen, v);
		/* the release asked for, on another platform: the hint's */
		if (!sc && ps && (!spec || spec_matches(v, spec, exact)) &&
		    wheel_tag(f->name, 0, &t)) {
			t.len = strcspn(t.data, "."); /* its first tag */
			t.data[t.len] = '\0';
			if (strv_find(&elsewhere, t.data) < 0)
				strv_push(&elsewhere, t.data);
		}
		/* NAME alone: the newest final release, as pip takes */
		if (!sc || !ps || (spec && !spec_matches(v, spec, exact)) ||
		    (!spec && (pv.pre >= 0 || pv.dev >= 0))) {
			free(v);
			continue;
		}
		c = r->version ? pep440_cmp(&pv, &picked) : 1;
		newer = c > 0;
		same = !c;
		if (newer ||
		    (same && (ps > best[0] || (ps == best[0] && sc > best[1]) ||
			      (ps == best[0] && sc == best[1] &&
			       f->size > (*pick)->size)))) {
			free(r->version);
			r->version = v;
			picked = pv;
			best[0] = ps;
			best[1] = sc;
			*pick = f;
		} else {
			free(v);
		}
	}
	if (!*pick && py)
		nearest_python(*files, *nfiles, spec, exact, platform, glibc,
			       py, r, pick);
	if (!*pick) {
		/* the index answered: not there is "not in the index" */
		rc = cuenv_fail(err, CUENV_E_UNKNOWN,
				"no %s%s%s wheel for %s%s%s on '%s'",
				r->project, spec ? " " : "", spec ? spec : "",
				platform ? platform : "this machine",
				py ? " and " : "", py ? py : "", page.data);
		had_list(&seen, &had);
		if (elsewhere.n) {
			strv_sort(&elsewhere);
			buf_reset(&t);
			for (size_t i = 0; i < elsewhere.n; i++)
				buf_printf(&t, "%s%s", i ? ", " : "",
					   elsewhere.v[i]);
			cuenv_hint(err,
				   "%s%sit has wheels for %s: --platform %s",
				   had.data, had.len ? "; " : "", t.data,
				   elsewhere.v[0]);
		} else if (had.len)
			cuenv_hint(err, "%s", had.data);
		goto out;
	}
	r->wheel = xstrdup((*pick)->name);
	r->url = xstrdup((*pick)->url);
	r->st.size = (*pick)->size;
	if (why) {
		wheel_tag(r->wheel, 2, &t);
		if (py && !tag_has(t.data, py) &&
		    wheel_python_rank(r->wheel, py) == 0)
			buf_printf(why,
				   "%s: the nearest Python's, with no %s wheel "
				   "of the release (the CUDA it needs is the "
				   "build's, not the Python's), ",
				   r->wheel, py);
		else
			buf_printf(why, "%s for %s, ", r->wheel,
				   py ? py : "any Python");
		if (platform)
			buf_adds(why, platform);
		else if (glibc)
			buf_printf(why, "glibc 2.%u here", glibc);
		else
			buf_printf(why, "Linux %s", wheel_arch + 1);
	}
out:
	BUF_RELEASE_EACH(&page, &had, &t);
	STRV_RELEASE_EACH(&seen, &elsewhere);
	return rc;
}

int wheel_requirement_scan(struct needs_scan *s, const char *req,
			   const char *index, const char *platform,
			   const struct fetch_opts *fo,
			   struct wheel_requirement *r, struct cuenv_err *err)
{
	struct index_file *files = NULL;
	const struct index_file *pick = NULL;
	size_t nfiles = 0;
	int rc = choose_wheel(req, index, platform, NULL, fo, r, &files,
			      &nfiles, &pick, NULL, err);

	if (rc)
		goto out;
	{
		struct meta_read m = { s, r->wheel, BUF_INIT, false };
		struct unpack_zip_reader rd = { want_metadata, got_metadata, &m,
						WHEEL_METADATA_MAX };
		struct wheel_remote_stats st;
		size_t before = s->nrep;

		/* PEP 658: the metadata alone, when the index serves it
		 * and it says the CUDA release; else into the wheel */
		if (pick->metadata)
			m.have_metadata = read_core_metadata(s, pick, fo, r);
		if (m.have_metadata && metadata_enough(s, before))
			goto out;
		rc = wheel_remote_each(r->url, pick->size, fo, &rd, &st, err);
		r->st.size = st.size;
		r->st.bytes += st.bytes;
		r->st.requests += st.requests;
		buf_release(&m.path);
	}
out:
	pypi_index_files_free(files, nfiles);
	return rc;
}

/*
 * For `cuenv needs NAME==VERSION`: the wheel of req chosen as pip would
 * for the interpreter tag py ("cp311"; NULL: any) and this machine
 * (platform NULL: the newest manylinux its glibc runs; of equal tags the
 * larger file, a GPU build beside a CPU one), why it was chosen into why
 * ("WHEEL for cp311, glibc 2.36 here"), then read whole as a tree
 * (wheel_scan_source) by range requests: exactly the members the wheel
 * read in place gives. r->st counts every byte fetched, the index's page
 * included. Returns as wheel_requirement_scan. Network I/O.
 */
static int wheel_requirement_tree(struct needs_scan *s, const char *req,
				  const char *index, const char *platform,
				  const char *py, const struct fetch_opts *fo,
				  struct wheel_requirement *r, struct buf *why,
				  struct cuenv_err *err)
{
	struct index_file *files = NULL;
	const struct index_file *pick = NULL;
	size_t nfiles = 0;
	int rc = choose_wheel(req, index, platform, py, fo, r, &files, &nfiles,
			      &pick, why, err);

	if (!rc && !r->st.size) {
		/* the size, from the first byte's answer */
		struct fetch *f = fetch_open(r->url, 0, 0, fo);
		const void *p;
		ssize_t n = fetch_read(f, &p, err);

		r->st.requests++;
		r->st.bytes += fetch_offset(f);
		r->st.size = fetch_size(f);
		fetch_close(f);
		if (n < 0)
			rc = err->rc;
		else if (!r->st.size)
			rc = cuenv_fail(err, CUENV_E_FETCH,
					"'%s': the server does not say its "
					"size",
					r->url);
	}
	if (!rc) {
		struct url_source u = { r->url, fo, r->st.size, &r->st };
		struct wheel_source src = { r->wheel, r->st.size, url_open,
					    url_next, url_close,  &u,
					    0 };

		rc = wheel_scan_source(s, &src, err);
	}
	pypi_index_files_free(files, nfiles);
	return rc;
}

int wheel_needs_scan(struct needs_scan *s, const char *arg, const char *index,
		     const char *platform, const char *py,
		     const struct fetch_opts *fetch, struct needs_fetches *fs,
		     struct cuenv_err *err)
{
	struct fetch_opts fo = *fetch;
	struct wheel_requirement rm;
	struct buf why = BUF_INIT;
	int rc;

	if (needs_arg_kind(arg) == NEEDS_ARG_WHEEL)
		return wheel_local_scan(s, arg, 0, err);
	fo.allow_http |= !strncmp(index, "http://", 7); /* the user asked */
	fo.allow_file |= !strncmp(index, "file://", 7);
	rc = wheel_requirement_tree(s, arg, index, platform, py, &fo, &rm, &why,
				    err);
	if (rm.wheel) {
		struct needs_fetched x = {
			.size = rm.st.size,
			.bytes = rm.st.bytes,
			.requests = rm.st.requests,
			.metadata = rm.st.metadata,
			.why = why.data,
		};

		needs_fetches_add(fs, rm.wheel, index, &x);
	}
	wheel_requirement_release(&rm);
	buf_release(&why);
	return rc;
}
