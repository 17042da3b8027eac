/*
 * buf.h: growable strings and string vectors.
 *
 * A struct buf's data is never NULL and always NUL-terminated, so it can be
 * handed to any C string function at any time; an empty buf points at a
 * shared static "" and owns no memory until something is added. buf_detach
 * hands the memory to the caller. A struct strv owns copies of its strings.
 *
 *	struct buf b = BUF_INIT;
 *	buf_printf(&b, "%s/versions", root);
 *	use(b.data);
 *	buf_release(&b);
 */
#ifndef CUENV_BUF_H
#define CUENV_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/xalloc.h"

extern char buf_empty[];

struct buf {
	char *data;
	size_t len;
	size_t cap; /* 0 while data is buf_empty */
};

#define BUF_INIT                                                               \
	{                                                                      \
		buf_empty, 0, 0                                                \
	}

void buf_init(struct buf *b);
void buf_release(struct buf *b);
/* buf_release each of the n buffers at b; BUF_RELEASE_EACH(&a, &b) */
void buf_release_each(struct buf *const *b, size_t n);
#define BUF_RELEASE_EACH(...)                                                  \
	CALL_EACH(buf_release_each, struct buf, __VA_ARGS__)
/* Keep the memory, forget the contents. */
void buf_reset(struct buf *b);
/* Make room for n more bytes (plus the NUL). */
void buf_grow(struct buf *b, size_t n);
void buf_add(struct buf *b, const void *data, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_setlen(struct buf *b, size_t len);
/* Replace the contents with s. */
void buf_sets(struct buf *b, const char *s);
/* Return the heap string (never NULL) and re-init b; the caller frees it. */
char *buf_detach(struct buf *b);
/*
 * Append s for display in a one-line message: control characters,
 * non-ASCII bytes and '\\' become \xNN (on Windows '\\', the path
 * separator, stays), and more than max bytes are cut with "...". Used for
 * untrusted values (file contents, paths) echoed in errors.
 */
void buf_add_display(struct buf *b, const char *s, size_t max);


/*
 * The first n-byte needle in the hay bytes (memmem), and the first
 * needle in s regardless of ASCII case (strcasestr): both are GNU
 * extensions that Windows' C runtime lacks. NULL where there is none;
 * an empty needle is found at the start.
 */
const void *mem_find(const void *hay, size_t hay_len, const void *needle,
		     size_t n);
const char *str_find_nocase(const char *s, const char *needle);

/*
 * The index of s among the n names (a NULL one matches nothing), or -1:
 * an enum's parse, from the table of names its *_name reads.
 */
long str_index(const char *const *names, size_t n, const char *s);

struct strv {
	char **v;
	size_t n;
	size_t cap;
};

#define STRV_INIT                                                              \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

void strv_push(struct strv *sv, const char *s);
/* Takes ownership of s (heap string). */
void strv_push_take(struct strv *sv, char *s);
void strv_insert(struct strv *sv, size_t at, const char *s);
void strv_remove(struct strv *sv, size_t at);
/* Index of the first s, or -1. */
long strv_find(const struct strv *sv, const char *s);
void strv_release(struct strv *sv);
/* strv_release each of the n lists at sv; STRV_RELEASE_EACH(&a, &b) */
void strv_release_each(struct strv *const *sv, size_t n);
#define STRV_RELEASE_EACH(...)                                                 \
	CALL_EACH(strv_release_each, struct strv, __VA_ARGS__)
/* Split s on sep (empty fields kept, as PATH semantics need). */
void strv_split(struct strv *sv, const char *s, char sep);
/* Sort into byte order (strcmp). */
void strv_sort(struct strv *sv);
/* Join into b (which is reset first). */
void strv_join(const struct strv *sv, char sep, struct buf *b);

#endif
