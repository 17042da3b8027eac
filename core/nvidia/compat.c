#include "nvidia/compat.h"

#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "base/buf.h"
#include "plat/file.h"
#include "base/version.h"
#include "base/xalloc.h"

#define TABLE_MAX (4 << 20)

void driver_req_release(struct driver_req *r)
{
	FREE_EACH(r->release, r->compat, r->row);
	r->release = r->compat = r->row = NULL;
}

/*
 * Driver versions ("460.32.03") are numbers and dots like CUDA's, but
 * with leading zeros: parsed here, not by version_parse().
 */
static int driver_parse(const char *s, unsigned long part[4], unsigned *n)
{
	*n = 0;
	for (;;) {
		char *end;

		if (*n == 4 || *s < '0' || *s > '9' ||
		    strspn(s, "0123456789") > 9)
			return -1;
		part[(*n)++] = strtoul(s, &end, 10);
		if (!*end)
			return 0;
		if (*end != '.')
			return -1;
		s = end + 1;
	}
}

int compat_driver_cmp(const char *a, const char *b)
{
	unsigned long pa[4], pb[4];
	unsigned na, nb;

	if (driver_parse(a, pa, &na) || driver_parse(b, pb, &nb))
		return -2;
	for (unsigned i = 0; i < na || i < nb; i++) {
		unsigned long x = i < na ? pa[i] : 0, y = i < nb ? pb[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Read dir/name into lines of tab-separated fields (skipping the header). */
static int read_table(const char *dir, const char *name, struct strv *lines,
		      struct buf *path, struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc;

	buf_reset(path);
	buf_path(path, dir, name);
	rc = file_read(path->data, TABLE_MAX, FILE_MAY_BE_MISSING, &text, err);
	if (rc == CUENV_NO)
		rc = cuenv_fail(err, CUENV_E_MANIFEST, "no table '%s'",
				path->data);
	else if (rc)
		err->rc = rc = CUENV_E_MANIFEST;
	if (!rc) {
		strv_split(lines, text.data, '\n');
		if (lines->n)
			strv_remove(lines, 0);
	}
	buf_release(&text);
	return rc;
}

int compat_row_field(const char *line, size_t i, struct buf *out)
{
	const char *p = line, *tab;

	for (; i; i--) {
		p = strchr(p, '\t');
		if (!p)
			return 0;
		p++;
	}
	tab = strchr(p, '\t');
	buf_reset(out);
	buf_add(out, p, tab ? (size_t)(tab - p) : strlen(p));
	return 1;
}

int compat_row_add(struct buf *table, const char *const *fields, size_t n,
		   const char *table_name, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;
	int rc;

	for (size_t i = 0; i < n; i++) {
		for (const char *p = fields[i]; *p; p++) {
			if ((unsigned char)*p >= 0x20 && *p != 0x7f)
				continue;
			buf_add_display(&shown, fields[i], 300);
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"cannot write '%s' into %s: it holds a "
					"tab, a newline or another control "
					"character",
					shown.data, table_name);
			buf_release(&shown);
			return rc;
		}
	}
	for (size_t i = 0; i < n; i++)
		buf_printf(table, "%s%s", i ? "\t" : "", fields[i]);
	buf_addc(table, '\n');
	return CUENV_OK;
}

/* ">=550.54.15" -> "550.54.15"; NULL when not a version. */
static char *driver_of(const char *s)
{
	unsigned long part[4];
	unsigned n;

	while (*s == '>' || *s == '=' || *s == ' ')
		s++;
	return driver_parse(s, part, &n) ? NULL : xstrdup(s);
}

int compat_driver(const char *dir, const char *cuda, struct driver_req *out,
		  struct cuenv_err *err)
{
	return compat_driver_os(dir, cuda, 0, out, err);
}

int compat_driver_os(const char *dir, const char *cuda, int windows,
		     struct driver_req *out, struct cuenv_err *err)
{
	struct strv lines = STRV_INIT;
	struct buf path = BUF_INIT, ver = BUF_INIT, drv = BUF_INIT,
		   kind = BUF_INIT, majx = BUF_INIT;
	struct version want, have, best = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (version_parse(cuda, &want))
		return cuenv_fail(err, CUENV_E_USAGE,
				  "invalid CUDA version '%s'", cuda);
	rc = read_table(dir, "cuda-driver.tsv", &lines, &path, err);
	if (rc)
		goto out;
	buf_printf(&majx, "%lu.x", want.part[0]);
	for (size_t i = 0; i < lines.n; i++) {
		const char *l = lines.v[i];

		if (!*l)
			continue;
		if (!compat_row_field(l, 0, &ver) ||
		    !compat_row_field(l, windows ? 2 : 1, &drv) ||
		    !compat_row_field(l, 3, &kind)) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad table '%s': line %zu", path.data,
					i + 2);
			goto out;
		}
		if (!strcmp(kind.data, "minor_version_compat_min") &&
		    !strcmp(ver.data, majx.data)) {
			free(out->compat);
			out->compat = driver_of(drv.data);
			continue;
		}
		if (strcmp(kind.data, "toolkit_release_min_driver") ||
		    version_parse(ver.data, &have) || have.n < 2 ||
		    have.part[0] != want.part[0] ||
		    (want.n >= 2 && have.part[1] != want.part[1]) ||
		    (want.n >= 3 && version_cmp(&have, &want) > 0))
			continue;
		/* the newest row of this major.minor, not past the release */
		if (!out->row || version_cmp(&have, &best) > 0) {
			char *d = driver_of(drv.data);

			if (!d)
				continue;
			free(out->release);
			free(out->row);
			out->release = d;
			out->row = xstrdup(ver.data);
			best = have;
		}
	}
out:
	strv_release(&lines);
	BUF_RELEASE_EACH(&path, &ver, &drv, &kind, &majx);
	return rc;
}

static void build_release(struct framework_build *b)
{
	FREE_EACH(b->framework, b->version, b->cuda, b->cudnn, b->notes);
}

void framework_builds_release(struct framework_builds *b)
{
	for (size_t i = 0; i < b->n; i++)
		build_release(&b->v[i]);
	free(b->v);
	b->v = NULL;
	b->n = 0;
}

int compat_frameworks(const char *dir, const char *framework, const char *spec,
		      struct framework_builds *out, struct cuenv_err *err)
{
	struct strv lines = STRV_INIT;
	struct buf path = BUF_INIT, f = BUF_INIT, v = BUF_INIT, cu = BUF_INIT,
		   dn = BUF_INIT, notes = BUF_INIT;
	int rc;

	if (!strcmp(framework, "torch"))
		framework = "pytorch";
	rc = read_table(dir, "frameworks.tsv", &lines, &path, err);
	for (size_t i = 0; !rc && i < lines.n; i++) {
		const char *l = lines.v[i], *ver, *dash;

		if (!*l || !compat_row_field(l, 0, &f) ||
		    strcmp(f.data, framework) || !compat_row_field(l, 1, &v) ||
		    !compat_row_field(l, 2, &cu) ||
		    !compat_row_field(l, 3, &dn))
			continue;
		compat_row_field(l, 5, &notes);
		/* "tensorflow_gpu-2.6.0" -> "2.6.0" */
		dash = strrchr(v.data, '-');
		ver = dash ? dash + 1 : v.data;
		if (!version_is_valid(ver) || !version_is_valid(cu.data) ||
		    (spec && !version_matches_str(ver, spec)))
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n].framework = xstrdup(framework);
		out->v[out->n].version = xstrdup(ver);
		out->v[out->n].cuda = xstrdup(cu.data);
		out->v[out->n].cudnn =
			version_is_valid(dn.data) ? xstrdup(dn.data) : NULL;
		out->v[out->n].notes = xstrdup(notes.data);
		out->n++;
	}
	strv_release(&lines);
	BUF_RELEASE_EACH(&path, &f, &v, &cu, &dn, &notes);
	return rc;
}

/* ---- preference ---------------------------------------------------------- */

/* Rows for another operating system ("os windows"). */
static int other_os(const struct framework_build *b)
{
	return !strncmp(b->notes, "os ", 3) && strncmp(b->notes, "os linux", 8);
}

/* How much a row is preferred among those of one framework release. */
static int row_rank(const struct framework_build *b)
{
	/* the wheel pip installs, read from the index, before all */
	return (!strcmp(b->framework, "pytorch") &&
				strstr(b->notes, "PyPI default wheel")
			? 4
			: 0) +
	       (!strcmp(b->framework, "pytorch") && strstr(b->notes, "stable")
			? 2
			: 0) +
	       (b->cudnn ? 1 : 0);
}

/* qsort over pointers into one array: the preferred row first. */
static int by_preference(const void *pa, const void *pb)
{
	const struct framework_build *a =
		*(const struct framework_build *const *)pa;
	const struct framework_build *b =
		*(const struct framework_build *const *)pb;
	int c = version_cmp_str(b->version, a->version);

	if (!c)
		c = row_rank(b) - row_rank(a);
	if (!c)
		c = version_cmp_str(b->cuda, a->cuda);
	if (!c)
		c = (a > b) - (a < b); /* the table's order */
	return c;
}

void compat_frameworks_order(struct framework_builds *rows)
{
	size_t n = rows->n ? rows->n : 1, kept = 0;
	struct framework_build **p = xcalloc(n, sizeof(*p));
	struct framework_build *v = xcalloc(n, sizeof(*v));

	for (size_t i = 0; i < rows->n; i++) {
		if (other_os(&rows->v[i]))
			build_release(&rows->v[i]);
		else
			p[kept++] = &rows->v[i];
	}
	qsort(p, kept, sizeof(*p), by_preference);
	for (size_t i = 0; i < kept; i++)
		v[i] = *p[i];
	free(p);
	free(rows->v);
	rows->v = v;
	rows->n = kept;
}
