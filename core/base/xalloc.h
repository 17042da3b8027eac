/*
 * xalloc.h: allocation that cannot fail, and BUG() for broken invariants.
 *
 * cuenv treats running out of memory as fatal: every x* allocator aborts
 * with a message instead of returning NULL, so callers never check.
 */
#ifndef CUENV_XALLOC_H
#define CUENV_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/*
 * Call f(list, n) on the pointers given after T, as an array of T * and
 * its length: what lets FREE_EACH and the *_RELEASE_EACH macros take a
 * plain list. The arguments are evaluated once.
 */
#define CALL_EACH(f, T, ...)                                                   \
	f((T *[]){ __VA_ARGS__ }, sizeof((T *[]){ __VA_ARGS__ }) / sizeof(T *))

/*
 * Free each of the n pointers at p (NULL ones too). A struct's release
 * frees what it owns in one statement:
 *
 *	FREE_EACH(r->name, r->version, r->url);
 */
void free_each(void *const *p, size_t n);
#define FREE_EACH(...) CALL_EACH(free_each, void, __VA_ARGS__)

/* Abort with file and line: for states the code believes impossible. */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* In test builds CUENV_STATIC helpers are visible to the unit tests. */
#ifdef CUENV_TESTING
#define CUENV_STATIC
#else
#define CUENV_STATIC static
#endif

#endif
