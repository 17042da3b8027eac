#include "base/version.h"

#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/xalloc.h"

int version_parse(const char *s, struct version *v)
{
	const char *p = s;

	v->n = 0;
	for (;;) {
		unsigned long x = 0;
		unsigned digits = 0;

		if (v->n == VERSION_MAX_PARTS)
			return -1;
		if (*p == '0' && p[1] >= '0' && p[1] <= '9')
			return -1; /* leading zero */
		while (*p >= '0' && *p <= '9') {
			if (++digits > 9)
				return -1;
			x = x * 10 + (unsigned long)(*p++ - '0');
		}
		if (!digits)
			return -1;
		v->part[v->n++] = x;
		if (*p == '\0')
			return 0;
		if (*p++ != '.')
			return -1;
	}
}

bool version_is_valid(const char *s)
{
	struct version v;

	return version_parse(s, &v) == 0;
}

int version_cmp(const struct version *a, const struct version *b)
{
	for (unsigned i = 0; i < a->n && i < b->n; i++) {
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i] ? -1 : 1;
	}
	return (a->n > b->n) - (a->n < b->n);
}

unsigned long version_major(const char *s)
{
	struct version v;

	return version_parse(s, &v) ? 0 : v.part[0];
}

int version_cmp_str(const char *a, const char *b)
{
	struct version va, vb;

	if (version_parse(a, &va) || version_parse(b, &vb))
		BUG("comparing invalid versions '%s' and '%s'", a, b);
	return version_cmp(&va, &vb);
}

int version_cmp_build(const char *a, unsigned a_major, const char *b,
		      unsigned b_major)
{
	int c = version_cmp_str(a, b);

	return c ? c : (a_major > b_major) - (a_major < b_major);
}

bool version_matches(const struct version *v, const struct version *spec)
{
	if (spec->n > v->n)
		return false;
	for (unsigned i = 0; i < spec->n; i++)
		if (v->part[i] != spec->part[i])
			return false;
	return true;
}

bool version_matches_str(const char *v, const char *spec)
{
	struct version vv, vs;

	if (version_parse(v, &vv) || version_parse(spec, &vs))
		return false;
	return version_matches(&vv, &vs);
}

void version_major_minor(const char *s, struct buf *out)
{
	struct version v;

	if (version_parse(s, &v))
		buf_adds(out, s);
	else if (v.n == 1)
		buf_printf(out, "%lu", v.part[0]);
	else
		buf_printf(out, "%lu.%lu", v.part[0], v.part[1]);
}

int version_check(const char *what, const char *v, int allow_system,
		  struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	if (version_is_valid(v) || (allow_system && !strcmp(v, "system")))
		return CUENV_OK;
	buf_add_display(&shown, v, 64);
	cuenv_fail(err, CUENV_E_USAGE, "invalid %s version '%s'", what,
		   shown.data);
	buf_release(&shown);
	return cuenv_hint(err, "a version is numbers and dots, such as 12.4 "
			       "or 12.4.1");
}
