/*
 * plan_index.c: install --for from the framework's wheel on the package
 * index (see plan_index.h).
 */
#include <string.h>

#include "needs/needs.h"
#include "install/plan.h"
#include "install/plan_index.h"
#include "base/version.h"
#include "needs/wheel.h"

int plan_index_framework(const char *for_spec, const char *index,
			 const struct fetch_opts *fo, const struct catalog *cat,
			 struct framework_builds *out, struct buf *why,
			 struct buf *said)
{
	struct needs_scan s;
	struct wheel_requirement r;
	struct buf req = BUF_INIT;
	struct cuenv_err own = CUENV_ERR_INIT;
	struct fetch_opts ifo = *fo;
	const char *eq = strstr(for_spec, "==");
	int rc;

	needs_scan_init(&s);
	memset(&r, 0, sizeof(r));
	if (!eq || !version_is_valid(eq + 2)) {
		rc = CUENV_NO; /* the table's check words the error */
		goto out;
	}
	buf_add(&req, for_spec, (size_t)(eq - for_spec));
	if (!strcmp(req.data, "pytorch"))
		buf_sets(&req, "torch");
	buf_printf(&req, "%s", eq);
	ifo.allow_http |= !strncmp(index, "http://", 7);
	ifo.allow_file |= !strncmp(index, "file://", 7);
	ifo.retries = 0;
	rc = wheel_requirement_scan(&s, req.data, index, NULL, &ifo, &r, &own);
	if (rc) {
		buf_printf(why, "%s", own.msg.data);
		rc = CUENV_NO;
		goto out;
	}
	rc = plan_framework_from_wheel(&s, r.project, r.version, r.wheel, cat,
				       out, why);
	if (!rc) {
		const char *dnn = needs_newest_report(&s, NULL, 1);

		buf_printf(said,
			   "%s %s was built with CUDA %s%s%s%s (its wheel %s "
			   "on %s)",
			   r.project, r.version, out->v[0].cuda,
			   dnn ? " and cuDNN " : "", dnn ? dnn : "",
			   dnn && strchr(dnn, '.') ? " or later" : "", r.wheel,
			   index);
	}
out:
	needs_scan_release(&s);
	wheel_requirement_release(&r);
	buf_release(&req);
	err_release(&own);
	return rc;
}

int plan_index_for(const char *for_spec, const char *index,
		   const struct fetch_opts *fo, const struct catalog *cat,
		   struct framework_builds *out, struct buf *said)
{
	struct buf why = BUF_INIT;
	int rc =
		plan_index_framework(for_spec, index, fo, cat, out, &why, said);

	if (rc == CUENV_NO && why.len)
		buf_printf(said, "%s; the shipped framework table answers",
			   why.data);
	buf_release(&why);
	return rc;
}
