/*
 * pysrc.c: values read from Python source without running it (see
 * pysrc.h).
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
 * After a key (at q): past its closing quote or ']' and the separator
 * before its value: ':' (with an annotation, on to its '='), '=', or ','
 * in a pair. NULL where none follows.
 */
static const char *py_separator(const char *q, const char *end, bool pair)
{
	while (q < end && (is_quote(*q) || *q == ']' || blank(*q)))
		q++;
	if (q < end && *q == ':') {
		for (q++; q < end && blank(*q); q++)
			;
		if (q < end && !is_quote(*q)) {
			/* an annotation: on to its '=' */
			while (q < end && *q != '=' && *q != '\n')
				q++;
			if (q == end || *q != '=')
				return NULL;
			q++;
		}
		return q;
	}
	if (q < end && (*q == '=' || (*q == ',' && pair)))
		return q + 1;
	return NULL;
}

/* The quoted string at q, after blanks and on one line, into out. */
static bool py_string(const char *q, const char *end, struct buf *out)
{
	const char *v;
	char quote;

	while (q < end && blank(*q))
		q++;
	if (q == end || !is_quote(*q))
		return false;
	quote = *q++;
	for (v = q; q < end && *q != quote && *q != '\n'; q++)
		;
	if (q == end || *q != quote)
		return false;
	buf_reset(out);
	buf_add(out, v, (size_t)(q - v));
	return true;
}

/* See pysrc.h. */
bool pysrc_value(const char *text, size_t len, const char *key, struct buf *out)
{
	const char *end = text + len, *p = text;
	size_t kl = strlen(key);

	while ((p = mem_find(p, (size_t)(end - p), key, kl))) {
		const char *q = p + kl;
		/* ('key', 'v'), not a list ['key', 'other'] */
		bool pair = p - text >= 2 && is_quote(p[-1]) && p[-2] == '(';

		p = q;
		if ((q - kl > text && ident_char(q[-kl - 1])) ||
		    (q < end && ident_char(*q)))
			continue;
		q = py_separator(q, end, pair);
		if (q && py_string(q, end, out))
			return true;
	}
	return false;
}
