/*
 * wheel_local.c: a wheel on disk read in place for `cuenv needs` (see
 * wheel_local.h).
 */
#include <string.h>
#include <strings.h>

#include "unpack.h"
#include "wheel_local.h"

struct wheel_read {
	struct needs_scan *s;
	const char *shown; /* the wheel, as reports name it */
	int elf;	   /* this pass reads ELF members */
	struct buf path;
};

static bool want_member(void *ctx, const char *name)
{
	struct wheel_read *w = ctx;
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	if (!w->elf)
		return needs_metadata_name(name);
	if (strstr(base, ".so"))
		return true;
	/* Windows wheels: DLLs, extension modules, programs */
	n = strlen(base);
	return n > 4 && (!strcasecmp(base + n - 4, ".dll") ||
			 !strcasecmp(base + n - 4, ".pyd") ||
			 !strcasecmp(base + n - 4, ".exe"));
}

static int got_member(void *ctx, const char *name, const void *data, size_t len,
		      struct cuenv_err *err)
{
	struct wheel_read *w = ctx;
	struct cuenv_err own = CUENV_ERR_INIT;
	int rc;

	(void)err;
	buf_reset(&w->path);
	buf_printf(&w->path, "%s/%s", w->shown, name);
	if (!w->elf) {
		needs_read_metadata(w->s, w->path.data, data, len);
		return CUENV_OK;
	}
	rc = needs_scan_binary(w->s, w->path.data, data, len, &own);
	if (rc && rc != CUENV_NO) /* corrupt: said, and passed over */
		strv_push(&w->s->warnings, own.msg.data);
	err_release(&own);
	return CUENV_OK;
}

int wheel_local_scan(struct needs_scan *s, const char *path,
		     struct cuenv_err *err)
{
	struct wheel_read w = { s, path, 0, BUF_INIT };
	struct unpack_zip_reader r = { want_member, got_member, &w,
				       WHEEL_METADATA_MAX };
	size_t before = s->nrep;
	int rc = unpack_zip_each(path, &r, err);

	if (!rc && s->nrep == before) {
		w.elf = 1;
		r.max = WHEEL_LOCAL_MEMBER_MAX;
		rc = unpack_zip_each(path, &r, err);
	}
	buf_release(&w.path);
	return rc;
}
