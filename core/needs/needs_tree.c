/*
 * needs_tree.c: one reader for every tree `cuenv needs` reads (a folder
 * here; a wheel, in place or on an index, in core/needs/wheel.c), and the
 * streaming scan of one binary (see needs.h). Part of the needs module,
 * tested by tests/unit/test_needs.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/file.h"
#include "plat/plat_path.h"
#include "needs/needs.h"
#include "artifact/pe.h"
#include "plat/plat_fs.h"
#include "base/xalloc.h"

/* Folders nested deeper than this are not entered (a loop guard). */
#define WALK_DEPTH 64
/* A metadata file larger than this is not metadata. */
#define METADATA_MAX (4u << 20)
/* A PE file is parsed in memory, up to this size. */
#define PE_MAX (32u << 20)
/* What one read of a file asks for. */
#define CHUNK (1u << 20)

static char *msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *msgf(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

/* What needs_scan_tree does with a member of this name. */
static enum needs_member_kind needs_member_kind(const char *name)
{
	const char *base = strrchr(name, '/'), *so;
	size_t n;

	base = base ? base + 1 : name;
	if (needs_metadata_name(name))
		return NEEDS_MEMBER_METADATA;
	/* "x.so" or "x.so.12.1", not "x.sorted" */
	for (so = strstr(base, ".so"); so; so = strstr(so + 1, ".so"))
		if (!so[3] || so[3] == '.')
			return NEEDS_MEMBER_BINARY;
	n = strlen(base);
	if (n > 4 && (!strcasecmp(base + n - 4, ".dll") ||
		      !strcasecmp(base + n - 4, ".pyd") ||
		      !strcasecmp(base + n - 4, ".exe")))
		return NEEDS_MEMBER_BINARY;
	return NEEDS_MEMBER_SKIP;
}

int needs_member_cmp(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a,
			    *y = *(const unsigned char *const *)b;

	for (; *x && *x == *y; x++, y++)
		;
	if (*x == *y)
		return 0;
	if (*x == '/' || !*y)
		return *y ? -1 : 1;
	if (*y == '/')
		return 1;
	return *x < *y ? -1 : 1;
}

/* ---- one binary ---------------------------------------------------------- */

/* A member read apart from the scan, added to it later (needs.h). */
struct needs_read {
	enum needs_member_kind kind;
	char *path;
	char *warning;	 /* why it was skipped, or NULL */
	struct buf text; /* NEEDS_MEMBER_METADATA */
	bool elf, pe;	 /* which of the two below was read */
	struct elf_info e;
	struct pe_info pi;
};

static int read_elf(struct needs_read *r, const void *p, size_t n,
		    needs_read_fn *read, void *ctx, struct cuenv_err *err)
{
	struct elf_stream *st = elf_stream_new(r->path);
	ssize_t got = (ssize_t)n;
	int rc = CUENV_OK;

	while (!rc && got > 0) {
		rc = elf_stream_feed(st, p, (size_t)got, err);
		if (!rc) {
			got = read(ctx, &p, err);
			if (got < 0)
				rc = err->rc ? err->rc : CUENV_E_STORE;
		}
	}
	if (!rc)
		rc = elf_stream_finish(st, &r->e, err);
	r->elf = !rc;
	elf_stream_free(st);
	return rc;
}

static int read_pe(struct needs_read *r, const void *p, size_t n,
		   needs_read_fn *read, void *ctx, struct cuenv_err *err)
{
	struct buf all = BUF_INIT;
	ssize_t got = (ssize_t)n;
	int rc = CUENV_OK;

	while (got > 0) {
		if (all.len + (size_t)got > PE_MAX) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"'%s': a PE file larger than %u MiB is "
					"not read",
					r->path, PE_MAX >> 20);
			goto out;
		}
		buf_add(&all, p, (size_t)got);
		got = read(ctx, &p, err);
	}
	if (got < 0) {
		rc = err->rc ? err->rc : CUENV_E_STORE;
		goto out;
	}
	rc = pe_parse(all.data, all.len, r->path, &r->pi, err);
	r->pe = !rc;
out:
	buf_release(&all);
	return rc;
}

/* A binary from read into r (r->path names it): ELF or PE. */
static int read_binary(struct needs_read *r, needs_read_fn *read, void *ctx,
		       struct cuenv_err *err)
{
	struct buf first = BUF_INIT;
	const void *p = NULL;
	ssize_t got;
	int rc;

	/* enough of its start to tell ELF from PE */
	do {
		got = read(ctx, &p, err);
		if (got > 0 && (first.len || got < 4))
			buf_add(&first, p, (size_t)got);
	} while (got > 0 && first.len && first.len < 4);
	if (got < 0) {
		rc = err->rc ? err->rc : CUENV_E_STORE;
	} else if (first.len) {
		/* a start in pieces: fed as one, then the rest */
		rc = elf_has_magic(first.data, first.len)
			     ? read_elf(r, first.data, first.len, read, ctx,
					err)
		     : pe_has_magic(first.data, first.len)
			     ? read_pe(r, first.data, first.len, read, ctx, err)
			     : CUENV_NO;
	} else if (got > 0) {
		rc = elf_has_magic(p, (size_t)got)
			     ? read_elf(r, p, (size_t)got, read, ctx, err)
		     : pe_has_magic(p, (size_t)got)
			     ? read_pe(r, p, (size_t)got, read, ctx, err)
			     : CUENV_NO;
	} else {
		rc = CUENV_NO;
	}
	if (rc == CUENV_NO)
		cuenv_fail(err, CUENV_NO,
			   "'%s' is not an ELF file, nor a "
			   "Windows PE file",
			   r->path);
	buf_release(&first);
	return rc;
}

static struct needs_read *read_new(const char *path)
{
	struct needs_read *r = xcalloc(1, sizeof(*r));

	r->path = xstrdup(path);
	buf_init(&r->text);
	elf_info_init(&r->e);
	pe_info_init(&r->pi);
	return r;
}

static void read_free(struct needs_read *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->warning);
	buf_release(&r->text);
	elf_info_release(&r->e);
	pe_info_release(&r->pi);
	free(r);
}

/* r's findings into s; r is freed. */
static void read_add(struct needs_scan *s, struct needs_read *r)
{
	if (r->elf)
		needs_scan_add(s, r->path, &r->e);
	if (r->pe)
		needs_scan_add_pe(s, r->path, &r->pi);
	read_free(r);
}

/*
 * Read one binary, named path in reports, from read: ELF streamed
 * (elf_stream), PE held in memory up to 32 MiB. Returns CUENV_OK;
 * CUENV_NO when it is neither (err says so); CUENV_E_MANIFEST when
 * corrupt or a PE file too large; the reader's failure.
 */
static int needs_scan_stream(struct needs_scan *s, const char *path,
			     needs_read_fn *read, void *ctx,
			     struct cuenv_err *err)
{
	struct needs_read *r = read_new(path);
	int rc = read_binary(r, read, ctx, err);

	read_add(s, r);
	return rc;
}

/* ---- any tree ------------------------------------------------------------ */

struct tree_scan {
	struct needs_scan *s;
	const struct needs_tree *t;
};

static int read_text(const struct needs_member *m, struct buf *out,
		     struct cuenv_err *err)
{
	const void *p;
	ssize_t got;

	while ((got = m->read(m->ctx, &p, err)) > 0) {
		if (out->len + (size_t)got > METADATA_MAX)
			return cuenv_fail(err, CUENV_E_MANIFEST,
					  "larger than %u MiB",
					  METADATA_MAX >> 20);
		buf_add(out, p, (size_t)got);
	}
	return got < 0 ? (err->rc ? err->rc : CUENV_E_STORE) : CUENV_OK;
}

struct needs_read *needs_read_member(const char *shown,
				     const struct needs_member *m)
{
	struct cuenv_err own = CUENV_ERR_INIT;
	enum needs_member_kind kind = needs_member_kind(m->name);
	struct buf path = BUF_INIT;
	struct needs_read *r;
	int rc;

	if (kind == NEEDS_MEMBER_SKIP)
		return NULL;
	buf_printf(&path, "%s/%s", shown, m->name);
	r = read_new(path.data);
	buf_release(&path);
	r->kind = kind;
	if (kind == NEEDS_MEMBER_METADATA) {
		rc = read_text(m, &r->text, &own);
		if (rc)
			r->warning =
				msgf("skipped '%s': %s", r->path, own.msg.data);
	} else {
		rc = read_binary(r, m->read, m->ctx, &own);
		/* corrupt, unreadable: said, and passed over */
		if (rc && rc != CUENV_NO)
			r->warning = msgf("skipped: %s", own.msg.data);
	}
	err_release(&own);
	return r;
}

void needs_read_add(struct needs_scan *s, struct needs_read *r)
{
	if (!r)
		return;
	if (r->warning) {
		strv_push_take(&s->warnings, r->warning);
		strv_push(&s->unread, r->path);
	} else if (r->kind == NEEDS_MEMBER_METADATA)
		needs_read_metadata(s, r->path, r->text.data, r->text.len);
	r->warning = NULL;
	read_add(s, r);
}

static int visit_member(void *arg, const struct needs_member *m,
			struct cuenv_err *err)
{
	struct tree_scan *ts = arg;

	(void)err;
	needs_read_add(ts->s, needs_read_member(ts->t->shown, m));
	return CUENV_OK;
}

int needs_scan_tree(struct needs_scan *s, const struct needs_tree *t,
		    struct cuenv_err *err)
{
	struct tree_scan ts = { s, t };

	return t->each(t->ctx, visit_member, &ts, err);
}

/* ---- a file, read in chunks ---------------------------------------------- */

struct chunk_reader {
	const char *path;
	int fd; /* -1: not opened yet */
	bool failed;
	char *chunk;
};

static ssize_t chunk_read(void *ctx, const void **p, struct cuenv_err *err)
{
	struct chunk_reader *f = ctx;
	ssize_t n;

	if (f->fd < 0 && !f->failed) {
		f->fd = file_open_read(PLAT_AT_CWD, f->path, 0, NULL);
		if (f->fd < 0) {
			f->failed = true;
			cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				   f->path,
				   f->fd == FILE_NOT_REGULAR
					   ? "not a regular file"
					   : strerror(errno));
			f->fd = -1;
			return -1;
		}
	}
	if (f->failed)
		return -1;
	if (!f->chunk)
		f->chunk = xmalloc(CHUNK);
	do
		n = plat_read(f->fd, f->chunk, CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s", f->path,
			   strerror(errno));
		return -1;
	}
	*p = f->chunk;
	return n;
}

static void chunk_reader_close(struct chunk_reader *f)
{
	if (f->fd >= 0)
		plat_close(f->fd);
	free(f->chunk);
	f->fd = -1;
	f->chunk = NULL;
}

/* ---- a folder ------------------------------------------------------------ */

struct folder {
	struct needs_scan *s; /* its warnings */
	struct buf path;      /* the folder, then the member being read */
	size_t root;	      /* path's length at the folder itself */
};

/* What cannot be read at fo->path: a warning, and it is unread. */
static void folder_skip(struct folder *fo, const char *why)
{
	strv_push_take(&fo->s->warnings,
		       msgf("skipped '%s': %s", fo->path.data, why));
	strv_push(&fo->s->unread, fo->path.data);
}

/*
 * A FIFO, device or socket at fo->path: unread when its name is a
 * binary's or metadata's (a FIFO named x.so), else passed over quietly
 * as any other file the scan does not read.
 */
static void folder_other(struct folder *fo, enum plat_ftype type)
{
	struct buf why = BUF_INIT;

	if (needs_member_kind(fo->path.data + fo->root + 1) ==
	    NEEDS_MEMBER_SKIP)
		return;
	buf_printf(&why, "%s, not a file", file_type_name(type));
	folder_skip(fo, why.data);
	buf_release(&why);
}

static int walk(struct folder *fo, unsigned depth, needs_visit_fn *visit,
		void *arg, struct cuenv_err *err)
{
	struct strv names = STRV_INIT;
	const char *ent;
	struct plat_dir *d = plat_opendir(fo->path.data);
	int rc = CUENV_OK;

	if (!d) {
		folder_skip(fo, strerror(errno));
		return CUENV_OK;
	}
	while ((ent = plat_readdir(d)))
		strv_push(&names, ent);
	plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; !rc && i < names.n; i++) {
		size_t keep = fo->path.len;
		struct plat_stat st;

		buf_path(&fo->path, fo->path.data, names.v[i]);
		if (plat_lstat(fo->path.data, &st)) {
			folder_skip(fo, strerror(errno));
		} else if (st.type == PLAT_F_DIR) {
			if (depth < WALK_DEPTH)
				rc = walk(fo, depth + 1, visit, arg, err);
			else
				folder_skip(fo, "nested too deep");
		} else if (st.type == PLAT_F_OTHER) {
			folder_other(fo, st.type);
		} else if (st.type == PLAT_F_REG) {
			struct chunk_reader f = { fo->path.data, -1, false,
						  NULL };
			struct needs_member m = { fo->path.data + fo->root + 1,
						  (uint64_t)st.size, chunk_read,
						  &f };

			rc = visit(arg, &m, err);
			chunk_reader_close(&f);
		}
		buf_setlen(&fo->path, keep);
	}
	strv_release(&names);
	return rc;
}

static int folder_each(void *ctx, needs_visit_fn *visit, void *arg,
		       struct cuenv_err *err)
{
	return walk(ctx, 0, visit, arg, err);
}

/*
 * Scan path: a folder as a tree, a metadata file as text, any other file
 * as a binary (needs_scan_stream).
 */
int needs_scan_path(struct needs_scan *s, const char *path,
		    struct cuenv_err *err)
{
	struct plat_stat st;
	struct buf shown = BUF_INIT, text = BUF_INIT;
	struct cuenv_err own = CUENV_ERR_INIT;
	int rc = CUENV_OK;

	buf_add_display(&shown, path, 200);
	if (plat_stat(path, &st)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				shown.data, strerror(errno));
	} else if (st.type == PLAT_F_DIR) {
		struct folder fo = { s, BUF_INIT, 0 };
		struct needs_tree t = { path, folder_each, &fo };

		buf_adds(&fo.path, path);
		fo.root = fo.path.len;
		rc = needs_scan_tree(s, &t, err);
		buf_release(&fo.path);
	} else if (st.type == PLAT_F_REG) {
		struct chunk_reader f = { path, -1, false, NULL };
		const char *base = strrchr(path, '/');

		/* a version file given alone is read wherever it lies */
		if (needs_metadata_name(path) ||
		    needs_metadata_name(base ? base + 1 : path)) {
			struct needs_member m = { path, (uint64_t)st.size,
						  chunk_read, &f };

			rc = read_text(&m, &text, err);
			if (!rc)
				needs_read_metadata(s, path, text.data,
						    text.len);
		} else {
			rc = needs_scan_stream(s, path, chunk_read, &f, &own);
			if (rc == CUENV_NO)
				rc = cuenv_fail(err, CUENV_E_USAGE, "%s",
						own.msg.data);
			else if (rc)
				cuenv_fail(err, rc, "%s", own.msg.data);
		}
		chunk_reader_close(&f);
	} else {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"'%s' is not a file or a folder", shown.data);
	}
	err_release(&own);
	BUF_RELEASE_EACH(&shown, &text);
	return rc;
}
