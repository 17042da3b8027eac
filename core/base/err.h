/*
 * err.h: how core reports failure.
 *
 * Fallible functions take a struct cuenv_err * last and return an
 * enum cuenv_rc. cuenv_fail() records the message and returns the code, so
 * a failure is one statement:
 *
 *	if (fd < 0)
 *		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
 *				  path, strerror(errno));
 *
 * Messages are lowercase, name the failure first and quote the subject, and
 * have no final full stop. An optional hint says what to run next. Only
 * cmd/main.c prints them.
 */
#ifndef CUENV_ERR_H
#define CUENV_ERR_H

#include "base/buf.h"
#include "base/rc.h"

struct cuenv_err {
	int rc;
	struct buf msg;
	struct buf hint;
};

#define CUENV_ERR_INIT                                                         \
	{                                                                      \
		CUENV_OK, BUF_INIT, BUF_INIT                                   \
	}

void err_init(struct cuenv_err *err);
void err_release(struct cuenv_err *err);
/* Record a failure (replacing any earlier one) and return rc. */
int cuenv_fail(struct cuenv_err *err, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * cuenv_fail for a message about a value that came from outside: fmt's
 * one %s is value as buf_add_display shows it (at most max bytes, its
 * control characters escaped).
 */
int cuenv_fail_shown(struct cuenv_err *err, int rc, const char *value,
		     size_t max, const char *fmt)
	__attribute__((format(printf, 5, 0)));
/* Set the hint line of the recorded failure; returns err->rc. */
int cuenv_hint(struct cuenv_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Append err as the user sees it: "cuenv: error: MSG\n", then "hint:
 * HINT\n" when there is a hint.
 */
void err_render(const struct cuenv_err *err, struct buf *out);

/*
 * clang-tidy's analyzer reads one file at a time and so cannot see that
 * cuenv_fail returns its rc: it would follow `return cuenv_fail(...)` as
 * a success, with the outputs unset. The same value, in the open.
 */
#ifdef __clang_analyzer__
#define cuenv_fail(err, rc, ...) (cuenv_fail((err), (rc), __VA_ARGS__), (rc))
#endif

#endif
