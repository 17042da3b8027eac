#include "base/err.h"

#undef cuenv_fail /* err.h's analyzer-only macro: this is the function */

void err_init(struct cuenv_err *err)
{
	err->rc = CUENV_OK;
	buf_init(&err->msg);
	buf_init(&err->hint);
}

void err_release(struct cuenv_err *err)
{
	buf_release(&err->msg);
	buf_release(&err->hint);
	err->rc = CUENV_OK;
}

int cuenv_fail(struct cuenv_err *err, int rc, const char *fmt, ...)
{
	va_list ap;

	err->rc = rc;
	buf_reset(&err->msg);
	buf_reset(&err->hint);
	va_start(ap, fmt);
	buf_vprintf(&err->msg, fmt, ap);
	va_end(ap);
	return rc;
}

int cuenv_fail_shown(struct cuenv_err *err, int rc, const char *value,
		     size_t max, const char *fmt)
{
	struct buf shown = BUF_INIT;

	buf_add_display(&shown, value, max);
	cuenv_fail(err, rc, fmt, shown.data);
	buf_release(&shown);
	return rc;
}

int cuenv_hint(struct cuenv_err *err, const char *fmt, ...)
{
	va_list ap;

	buf_reset(&err->hint);
	va_start(ap, fmt);
	buf_vprintf(&err->hint, fmt, ap);
	va_end(ap);
	return err->rc;
}

void err_render(const struct cuenv_err *err, struct buf *out)
{
	buf_printf(out, "cuenv: error: %s\n", err->msg.data);
	if (err->hint.len)
		buf_printf(out, "hint: %s\n", err->hint.data);
}
