#include "select/dotfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/file.h"
#include "base/version.h"
#include "base/xalloc.h"

void dotfile_init(struct dotfile *df)
{
	df->cuda = df->cudnn = df->cupti = df->source = NULL;
	df->isolate = -1;
}

void dotfile_release(struct dotfile *df)
{
	FREE_EACH(df->cuda, df->cudnn, df->cupti, df->source);
	dotfile_init(df);
}

int dotfile_is_empty(const struct dotfile *df)
{
	return !df->cuda && !df->cudnn && !df->cupti && df->isolate < 0 &&
	       !df->source;
}

/* ---- parsing ------------------------------------------------------------ */

static const char *const keys[] = { "cuda", "cudnn", "cupti", "isolate",
				    "source" };
enum { K_CUDA, K_CUDNN, K_CUPTI, K_ISOLATE, K_SOURCE, K_COUNT };

/* One of DOTFILE_SOURCES? */
static int source_ok(const char *v)
{
	return !strcmp(v, "redist") || !strcmp(v, "runfile") ||
	       !strcmp(v, "pypi");
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Trim [*s, *e) of blanks. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

static int bad(struct cuenv_err *err, const char *name, unsigned line,
	       const char *what, const char *s, const char *e)
{
	struct buf shown = BUF_INIT;
	char *tmp = xstrndup(s, (size_t)(e - s));

	buf_add_display(&shown, tmp, 64);
	cuenv_fail(err, CUENV_E_MANIFEST, "%s:%u: %s '%s'", name, line, what,
		   shown.data);
	free(tmp);
	buf_release(&shown);
	return err->rc;
}

static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i]))
			return *out = 1, 0;
		if (!strcmp(v, no[i]))
			return *out = 0, 0;
	}
	return -1;
}

/* One parse: the file's name, the line it is on, what it has seen. */
struct parse {
	const char *name;
	struct cuenv_err *err;
	unsigned line, bare_line, key_lines;
	unsigned seen[K_COUNT]; /* the line of each key, or 0 */
	struct dotfile df;
};

/*
 * The line at *p (before end): its text in [*s, *e), without its CR, its
 * comment and the blanks around; *p moves past it. A NUL byte is an error.
 */
static int next_line(struct parse *ps, const char **p, const char *end,
		     const char **s, const char **e)
{
	const char *eol = memchr(*p, '\n', (size_t)(end - *p)), *hash;

	*s = *p;
	*e = eol ? eol : end;
	*p = eol ? eol + 1 : end;
	ps->line++;
	if (memchr(*s, '\0', (size_t)(*e - *s)))
		return cuenv_fail(ps->err, CUENV_E_MANIFEST,
				  "%s:%u: binary data (a NUL byte)", ps->name,
				  ps->line);
	if (*e > *s && (*e)[-1] == '\r')
		(*e)--;
	hash = memchr(*s, '#', (size_t)(*e - *s));
	if (hash)
		*e = hash;
	trim(s, e);
	return CUENV_OK;
}

/* A bare version, pyenv style: only alone. */
static int bare_version(struct parse *ps, const char *s, const char *e)
{
	char *value;

	if (ps->bare_line || ps->key_lines)
		return bad(ps->err, ps->name, ps->line,
			   "expected 'key = value', found", s, e);
	value = xstrndup(s, (size_t)(e - s));
	if (strcmp(value, DOTFILE_SYSTEM) && !version_is_valid(value)) {
		free(value);
		return bad(ps->err, ps->name, ps->line, "invalid version", s,
			   e);
	}
	ps->bare_line = ps->line;
	ps->df.cuda = value;
	return CUENV_OK;
}

/* The value of key k, in [vs, ve) and not empty, checked and kept. */
static int key_value(struct parse *ps, size_t k, const char *vs, const char *ve)
{
	char *value = xstrndup(vs, (size_t)(ve - vs)), **slot;
	int rc = CUENV_OK;

	if (k == K_ISOLATE) {
		if (parse_bool(value, &ps->df.isolate))
			rc = bad(ps->err, ps->name, ps->line,
				 "isolate must be true or false, not", vs, ve);
		free(value);
		return rc;
	}
	if (k == K_SOURCE) {
		if (!source_ok(value)) {
			rc = bad(ps->err, ps->name, ps->line, "unknown source",
				 vs, ve);
			cuenv_hint(ps->err, "sources are " DOTFILE_SOURCES);
			free(value);
			return rc;
		}
		ps->df.source = value;
		return CUENV_OK;
	}
	if (!(k == K_CUDA && !strcmp(value, DOTFILE_SYSTEM)) &&
	    !version_is_valid(value)) {
		free(value);
		rc = bad(ps->err, ps->name, ps->line, "invalid version", vs,
			 ve);
		cuenv_hint(ps->err, "a version is numbers and dots, "
				    "such as 12.4 or 12.4.1");
		return rc;
	}
	slot = k == K_CUDA    ? &ps->df.cuda
	       : k == K_CUDNN ? &ps->df.cudnn
			      : &ps->df.cupti;
	*slot = value;
	return CUENV_OK;
}

/* key = value in [s, e), with eq at its '='. */
static int key_line(struct parse *ps, const char *s, const char *eq,
		    const char *e)
{
	const char *ks = s, *ke = eq, *vs = eq + 1, *ve = e;
	size_t k;

	if (ps->bare_line)
		return cuenv_fail(ps->err, CUENV_E_MANIFEST,
				  "%s:%u: a bare version (line %u) must "
				  "be the only line",
				  ps->name, ps->line, ps->bare_line);
	ps->key_lines++;
	trim(&ks, &ke);
	trim(&vs, &ve);
	for (k = 0; k < K_COUNT; k++)
		if ((size_t)(ke - ks) == strlen(keys[k]) &&
		    !memcmp(ks, keys[k], (size_t)(ke - ks)))
			break;
	if (k == K_COUNT) {
		int rc =
			bad(ps->err, ps->name, ps->line, "unknown key", ks, ke);

		cuenv_hint(ps->err,
			   "keys are cuda, cudnn, cupti, isolate, source");
		return rc;
	}
	if (ps->seen[k])
		return cuenv_fail(ps->err, CUENV_E_MANIFEST,
				  "%s:%u: duplicate key '%s' (first on "
				  "line %u)",
				  ps->name, ps->line, keys[k], ps->seen[k]);
	ps->seen[k] = ps->line;
	if (vs == ve)
		return cuenv_fail(ps->err, CUENV_E_MANIFEST,
				  "%s:%u: no value for '%s'", ps->name,
				  ps->line, keys[k]);
	return key_value(ps, k, vs, ve);
}

int dotfile_parse(const char *name, const char *text, size_t len,
		  struct dotfile *df, struct cuenv_err *err)
{
	struct parse ps = { .name = name, .err = err };
	const char *p = text, *end = text + len, *s, *e, *eq;
	int rc = CUENV_OK;

	dotfile_init(&ps.df);
	while (!rc && p < end) {
		rc = next_line(&ps, &p, end, &s, &e);
		if (rc || s == e)
			continue;
		eq = memchr(s, '=', (size_t)(e - s));
		rc = eq ? key_line(&ps, s, eq, e) : bare_version(&ps, s, e);
	}
	if (!rc && !ps.df.cuda && !dotfile_is_empty(&ps.df))
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"%s: no 'cuda' key (cudnn, cupti, isolate and "
				"source go with one)",
				name);
	if (!rc) {
		*df = ps.df;
		dotfile_init(&ps.df);
	}
	dotfile_release(&ps.df);
	return rc;
}

int dotfile_read(const char *path, struct dotfile *df, struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc = file_read(path, DOTFILE_MAX_BYTES, FILE_MAY_BE_MISSING, &text,
			   err);

	if (rc == CUENV_OK)
		rc = dotfile_parse(path, text.data, text.len, df, err);
	buf_release(&text);
	return rc;
}

/* ---- rewriting ---------------------------------------------------------- */

static const char *value_of(const struct dotfile *df, size_t k)
{
	switch (k) {
	case K_CUDA:
		return df->cuda;
	case K_CUDNN:
		return df->cudnn;
	case K_CUPTI:
		return df->cupti;
	case K_SOURCE:
		return df->source;
	default:
		if (df->isolate < 0)
			return NULL;
		return df->isolate ? "true" : "false";
	}
}

/*
 * Which cuenv key the line [s, e) (no '\n', no '\r') sets, or -1 (comment,
 * blank, other). For a bare version line, [*bs, *be) is the version. *cs
 * is where the line's inline comment starts, with the blanks before it
 * (e when there is none), so that a rewritten line can keep it.
 */
static int line_key(const char *s, const char *e, const char **bs,
		    const char **be, const char **cs)
{
	const char *hash = memchr(s, '#', (size_t)(e - s));
	const char *eq;

	*bs = *be = NULL;
	*cs = e;
	if (hash) {
		*cs = hash;
		while (*cs > s && is_blank((*cs)[-1]))
			(*cs)--;
		e = hash;
	}
	trim(&s, &e);
	if (s == e)
		return -1;
	eq = memchr(s, '=', (size_t)(e - s));
	if (!eq) {
		*bs = s;
		*be = e;
		return K_CUDA;
	}
	const char *ke = eq;
	trim(&s, &ke);
	for (size_t k = 0; k < K_COUNT; k++)
		if ((size_t)(ke - s) == strlen(keys[k]) &&
		    !memcmp(s, keys[k], (size_t)(ke - s)))
			return (int)k;
	return -1;
}

void dotfile_rewrite(const char *old, size_t len, const struct dotfile *set,
		     int unset, struct buf *out)
{
	int done[K_COUNT] = { 0 };
	const char *p = old, *end = old + len;
	const char *first_nl = memchr(old, '\n', len);
	/* Keep the file's line endings (a .cuenv edited on Windows). */
	const char *nl = first_nl && first_nl > old && first_nl[-1] == '\r'
				 ? "\r\n"
				 : "\n";
	int keys_left = 0;

	buf_reset(out);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *s = p, *e = eol ? eol : end;
		const char *bs, *be, *cs;
		int k;
		const char *v;

		p = eol ? eol + 1 : end;
		if (e > s && e[-1] == '\r')
			e--;
		k = line_key(s, e, &bs, &be, &cs);
		v = k < 0 ? NULL : value_of(set, (size_t)k);
		if (k >= 0 && unset)
			continue;
		if (k >= 0)
			keys_left = 1;
		if (k >= 0 && v) {
			if (done[k])
				continue;
			done[k] = 1;
			buf_printf(out, "%s = %s", keys[k], v);
			buf_add(out, cs, (size_t)(e - cs));
		} else if (k >= 0 && bs) {
			buf_adds(out, "cuda = ");
			buf_add(out, bs, (size_t)(be - bs));
			buf_add(out, cs, (size_t)(e - cs));
		} else {
			buf_add(out, s, (size_t)(e - s));
		}
		buf_adds(out, nl);
	}
	for (size_t k = 0; !unset && k < K_COUNT; k++) {
		const char *v = value_of(set, k);

		if (v && !done[k]) {
			buf_printf(out, "%s = %s%s", keys[k], v, nl);
			keys_left = 1;
		}
	}
	/* A file left with nothing but blank lines goes away. */
	if (!keys_left && strspn(out->data, " \t\r\n") == out->len)
		buf_reset(out);
}
