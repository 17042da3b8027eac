/*
 * pysrc.c: values read from Python source and JSON without running
 * anything (see pysrc.h).
 */
#include "artifact/pysrc.h"

#include <ctype.h>
#include <string.h>

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_quote(char c)
{
	return c == '\'' || c == '"';
}

/*
 * After a key (at q, past it): past a closing ']' and the separator
 * before its value: ':' (after an identifier, an annotation: on to its
 * '='), '=' (not '=='), or ',' in a pair. NULL where none follows.
 */
static const char *separator(const char *q, const char *end, bool quoted,
			     bool pair)
{
	while (q < end && (*q == ']' || blank(*q)))
		q++;
	if (q < end && *q == ':') {
		for (q++; q < end && blank(*q); q++)
			;
		if (!quoted && q < end && !is_quote(*q)) {
			/* an annotation: on to its '=' */
			while (q < end && *q != '=' && *q != '\n')
				q++;
			if (q == end || *q != '=')
				return NULL;
			q++;
		}
		return q;
	}
	if (q < end && *q == '=' && (q + 1 == end || q[1] != '='))
		return q + 1;
	if (q < end && *q == ',' && pair)
		return q + 1;
	return NULL;
}

/* The quoted string at q, on one line: its text in [*v, *ve); past it. */
static const char *string_at(const char *q, const char *end, const char **v,
			     const char **ve)
{
	char quote = *q++;

	for (*v = q; q < end && *q != quote && *q != '\n'; q++)
		;
	if (q == end || *q != quote)
		return NULL;
	*ve = q;
	return q + 1;
}

/* Past the triple-quoted string at p (a docstring): its text is no code. */
static const char *long_string_end(const char *p, const char *end)
{
	char q = *p;

	for (p += 3; end - p >= 3; p++) {
		if (*p == '\\')
			p++;
		else if (p[0] == q && p[1] == q && p[2] == q)
			return p + 3;
	}
	return end;
}

/*
 * Does a module's statement begin at p: at the start of its line, not
 * indented (a name assigned in a function or a branch is no constant:
 * cupyx/tools/install_library.py's "cuda = '11'")?
 */
static bool line_start(const char *text, const char *p)
{
	return p == text || p[-1] == '\n';
}

/*
 * Does a ('key', v) pair end at q: ')' next, so that it has two items (a
 * call's arguments are not one: triton's GPUTarget("cuda", 100, 32))?
 */
static bool pair_ends(const char *q, const char *end)
{
	while (q < end && blank(*q))
		q++;
	return q < end && *q == ')';
}

void pysrc_each(const char *text, size_t len, pysrc_pair_fn *fn, void *ctx)
{
	const char *end = text + len, *p = text;

	while (p < end) {
		const char *k, *ke, *q, *v, *ve;
		bool quoted = is_quote(*p), pair;

		if (*p == '#') { /* a comment, to the end of its line */
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (quoted && end - p >= 3 && p[1] == *p && p[2] == *p) {
			p = long_string_end(p, end);
			continue;
		}
		if (quoted) {
			q = string_at(p, end, &k, &ke);
			if (!q) {
				p++;
				continue;
			}
		} else if ((isalpha((unsigned char)*p) || *p == '_') &&
			   line_start(text, p)) {
			for (k = p, q = p; q < end && ident_char(*q); q++)
				;
			ke = q;
		} else {
			p++;
			continue;
		}
		/* ('key', 'v'), not a list ['key', 'other'] */
		pair = quoted && p > text && p[-1] == '(';
		p = q;
		q = separator(q, end, quoted, pair);
		if (!q)
			continue;
		while (q < end && blank(*q))
			q++;
		if (q < end && is_quote(*q)) {
			const char *after = string_at(q, end, &v, &ve);

			if (!after)
				continue;
			if (!pair || pair_ends(after, end))
				fn(k, (size_t)(ke - k), v, (size_t)(ve - v),
				   true, ctx);
			p = after;
		} else if (q < end && isdigit((unsigned char)*q)) {
			for (v = q; q < end && (ident_char(*q) || *q == '.');
			     q++)
				;
			if (!pair || pair_ends(q, end))
				fn(k, (size_t)(ke - k), v, (size_t)(q - v),
				   false, ctx);
			p = q;
		}
	}
}

struct first {
	const char *key;
	struct buf *out;
	bool found;
};

static void take_first(const char *k, size_t kl, const char *v, size_t vl,
		       bool quoted, void *ctx)
{
	struct first *f = ctx;

	if (f->found || !quoted || strlen(f->key) != kl ||
	    memcmp(k, f->key, kl))
		return;
	buf_reset(f->out);
	buf_add(f->out, v, vl);
	f->found = true;
}

/* See pysrc.h. */
bool pysrc_value(const char *text, size_t len, const char *key, struct buf *out)
{
	struct first f = { key, out, false };

	pysrc_each(text, len, take_first, &f);
	return f.found;
}
