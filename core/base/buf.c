#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"

char buf_empty[1];

void buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->cap = 0;
}

void buf_release(struct buf *b)
{
	if (b->cap)
		free(b->data);
	buf_init(b);
}

void buf_release_each(struct buf *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_release(b[i]);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->data[0] = '\0';
}

void buf_grow(struct buf *b, size_t n)
{
	size_t want = b->len + n + 1;

	if (want <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap *= 2;
	if (b->cap) {
		b->data = xrealloc(b->data, cap);
	} else {
		b->data = xmalloc(cap);
		b->data[0] = '\0';
	}
	b->cap = cap;
}

void buf_add(struct buf *b, const void *data, size_t n)
{
	if (!n)
		return;
	buf_grow(b, n);
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->data + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	if (b->len + (size_t)n + 1 > b->cap) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_setlen(struct buf *b, size_t len)
{
	if (len > b->len)
		BUG("buf_setlen beyond length");
	b->len = len;
	if (b->cap)
		b->data[len] = '\0';
}

void buf_sets(struct buf *b, const char *s)
{
	buf_reset(b);
	buf_adds(b, s);
}

char *buf_detach(struct buf *b)
{
	char *p = b->cap ? b->data : xstrdup("");

	buf_init(b);
	return p;
}

void buf_add_display(struct buf *b, const char *s, size_t max)
{
	/* Windows' separator is shown as it is: paths are full of it. */
#ifdef _WIN32
	int keep_backslash = 1;
#else
	int keep_backslash = 0;
#endif
	size_t i;

	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i >= max) {
			buf_adds(b, "...");
			return;
		}
		if (c < 0x20 || c >= 0x7f || (c == '\\' && !keep_backslash))
			buf_printf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
}

/* ---- string vectors ---------------------------------------------------- */

static void strv_reserve(struct strv *sv, size_t n)
{
	if (sv->n + n + 1 <= sv->cap)
		return;
	size_t cap = sv->cap ? sv->cap : 8;
	while (cap < sv->n + n + 1)
		cap *= 2;
	sv->v = xrealloc(sv->v, cap * sizeof(*sv->v));
	sv->cap = cap;
}

void strv_push_take(struct strv *sv, char *s)
{
	strv_reserve(sv, 1);
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strv_push(struct strv *sv, const char *s)
{
	strv_push_take(sv, xstrdup(s));
}

void strv_insert(struct strv *sv, size_t at, const char *s)
{
	if (at > sv->n)
		at = sv->n;
	strv_reserve(sv, 1);
	memmove(sv->v + at + 1, sv->v + at, (sv->n - at) * sizeof(*sv->v));
	sv->v[at] = xstrdup(s);
	sv->n++;
	sv->v[sv->n] = NULL;
}

void strv_remove(struct strv *sv, size_t at)
{
	if (at >= sv->n)
		BUG("strv_remove out of range");
	free(sv->v[at]);
	memmove(sv->v + at, sv->v + at + 1, (sv->n - at - 1) * sizeof(*sv->v));
	sv->n--;
	sv->v[sv->n] = NULL;
}

long strv_find(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return (long)i;
	return -1;
}

void strv_release(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

void strv_release_each(struct strv *const *sv, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strv_release(sv[i]);
}

void strv_split(struct strv *sv, const char *s, char sep)
{
	const char *p;

	while ((p = strchr(s, sep))) {
		strv_push_take(sv, xstrndup(s, (size_t)(p - s)));
		s = p + 1;
	}
	strv_push(sv, s);
}

const void *mem_find(const void *hay, size_t hay_len, const void *needle,
		     size_t n)
{
	const unsigned char *h = hay, *first = needle;

	if (!n)
		return hay;
	for (size_t i = 0; i + n <= hay_len; i++) {
		const unsigned char *p =
			memchr(h + i, *first, hay_len - n + 1 - i);

		if (!p)
			return NULL;
		i = (size_t)(p - h);
		if (!memcmp(p, needle, n))
			return p;
	}
	return NULL;
}

const char *str_find_nocase(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, n))
			return s;
	return n ? NULL : s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long str_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (long)i;
	return -1;
}

void strv_sort(struct strv *sv)
{
	if (sv->n)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

void strv_join(const struct strv *sv, char sep, struct buf *b)
{
	buf_reset(b);
	for (size_t i = 0; i < sv->n; i++) {
		if (i)
			buf_addc(b, sep);
		buf_adds(b, sv->v[i]);
	}
}
