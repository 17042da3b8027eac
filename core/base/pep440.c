#include "base/pep440.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* At p, digits (at most 9): their value, p moved past them; -1 if none. */
static long number(const char **p)
{
	long x = 0;
	unsigned n = 0;

	while (isdigit((unsigned char)**p)) {
		if (++n > 9)
			return -2;
		x = x * 10 + (**p - '0');
		(*p)++;
	}
	return n ? x : -1;
}

static bool sep(char c)
{
	return c == '.' || c == '-' || c == '_';
}

/* Does p start with word (case-insensitive)? p moved past it. */
static bool word(const char **p, const char *w)
{
	size_t n = strlen(w);

	if (strncasecmp(*p, w, n))
		return false;
	*p += n;
	return true;
}

/* An optional separator, then one of words: its index, or -1 (p kept). */
static int keyword(const char **p, const char *const *words, size_t n)
{
	const char *q = *p + (sep(**p) ? 1 : 0);

	for (size_t i = 0; i < n; i++)
		if (word(&q, words[i])) {
			*p = q;
			return (int)i;
		}
	return -1;
}

/* The number after a keyword: an optional separator, then digits (0
 * when none). -2 on too many digits. */
static long kw_number(const char **p)
{
	const char *q = *p + (sep(**p) ? 1 : 0);
	long x = number(&q);

	if (x == -2)
		return -2;
	if (x < 0)
		return 0;
	*p = q;
	return x;
}

int pep440_parse(const char *s, struct pep440 *v)
{
	static const char *const pres[] = { "preview", "alpha", "beta", "pre",
					    "rc",      "a",	"b",	"c" };
	static const int pre_kind[] = { 2, 0, 1, 2, 2, 0, 1, 2 };
	static const char *const posts[] = { "post", "rev", "r" };
	static const char *const devs[] = { "dev" };
	const char *p = s;
	long x;
	int k;

	memset(v, 0, sizeof(*v));
	v->pre = -1;
	v->post = v->dev = -1;
	if (*p == 'v' || *p == 'V')
		p++;
	if ((x = number(&p)) < 0)
		return -1;
	if (*p == '!') {
		v->epoch = (unsigned long)x;
		p++;
		if ((x = number(&p)) < 0)
			return -1;
	}
	v->release[v->nrelease++] = (unsigned long)x;
	while (*p == '.' && isdigit((unsigned char)p[1])) {
		p++;
		if (v->nrelease == PEP440_RELEASE_MAX || (x = number(&p)) < 0)
			return -1;
		v->release[v->nrelease++] = (unsigned long)x;
	}
	if ((k = keyword(&p, pres, sizeof(pres) / sizeof(*pres))) >= 0) {
		v->pre = pre_kind[k];
		if ((x = kw_number(&p)) < 0)
			return -1;
		v->pre_n = (unsigned long)x;
	}
	if (*p == '-' && isdigit((unsigned char)p[1])) { /* 1.0-1 */
		p++;
		if ((v->post = number(&p)) < 0)
			return -1;
	} else if (keyword(&p, posts, sizeof(posts) / sizeof(*posts)) >= 0) {
		if ((v->post = kw_number(&p)) < 0)
			return -1;
	}
	if (keyword(&p, devs, 1) >= 0 && (v->dev = kw_number(&p)) < 0)
		return -1;
	if (*p == '+') {
		size_t n = 0;

		for (p++; *p; p++) {
			char c = (char)tolower((unsigned char)*p);

			if (sep(c))
				c = '.';
			else if (!isalnum((unsigned char)c))
				return -1;
			/* no empty segment: not first, last or doubled */
			if (c == '.' && (!n || v->local[n - 1] == '.'))
				return -1;
			if (n + 1 == PEP440_LOCAL_MAX)
				return -1;
			v->local[n++] = c;
		}
		if (!n || v->local[n - 1] == '.')
			return -1;
	}
	return *p ? -1 : 0;
}

bool pep440_valid(const char *s)
{
	struct pep440 v;

	return !pep440_parse(s, &v);
}

static int cmp_ul(unsigned long a, unsigned long b)
{
	return (a > b) - (a < b);
}

/* Local labels: segment by segment, numbers by value and after words. */
static int cmp_local(const char *a, const char *b)
{
	while (*a && *b) {
		size_t na = strcspn(a, "."), nb = strcspn(b, ".");
		bool da = strspn(a, "0123456789") == na,
		     db = strspn(b, "0123456789") == nb;
		int c;

		if (da && db)
			c = cmp_ul(strtoul(a, NULL, 10), strtoul(b, NULL, 10));
		else if (da != db)
			c = da ? 1 : -1;
		else {
			c = strncmp(a, b, na < nb ? na : nb);
			if (!c)
				c = (na > nb) - (na < nb);
		}
		if (c)
			return c;
		a += na + (a[na] == '.');
		b += nb + (b[nb] == '.');
	}
	return (*a != 0) - (*b != 0);
}

/* The pre-release key: a dev release of a final sorts before every
 * pre-release, a final after them. */
static long long pre_key(const struct pep440 *v)
{
	if (v->pre < 0)
		return v->post < 0 && v->dev >= 0 ? -1 : 1LL << 40;
	return (long long)v->pre << 32 | (long long)v->pre_n;
}

int pep440_cmp(const struct pep440 *a, const struct pep440 *b)
{
	unsigned n = a->nrelease > b->nrelease ? a->nrelease : b->nrelease;
	int c = cmp_ul(a->epoch, b->epoch);

	for (unsigned i = 0; !c && i < n; i++)
		c = cmp_ul(i < a->nrelease ? a->release[i] : 0,
			   i < b->nrelease ? b->release[i] : 0);
	if (!c)
		c = (pre_key(a) > pre_key(b)) - (pre_key(a) < pre_key(b));
	if (!c)
		c = (a->post > b->post) - (a->post < b->post);
	if (!c) { /* no dev release after every dev release */
		long da = a->dev < 0 ? LONG_MAX : a->dev,
		     db = b->dev < 0 ? LONG_MAX : b->dev;

		c = (da > db) - (da < db);
	}
	if (!c)
		c = cmp_local(a->local, b->local);
	return c;
}

bool pep440_equal_spec(const char *v, const char *spec)
{
	struct pep440 a, b;

	if (pep440_parse(v, &a) || pep440_parse(spec, &b))
		return false;
	if (!b.local[0])
		a.local[0] = '\0';
	return !pep440_cmp(&a, &b);
}

int pep440_cmp_str(const char *a, const char *b)
{
	struct pep440 x, y;
	int bad_a = pep440_parse(a, &x), bad_b = pep440_parse(b, &y);

	if (bad_a || bad_b)
		return (bad_b != 0) - (bad_a != 0);
	return pep440_cmp(&x, &y);
}
