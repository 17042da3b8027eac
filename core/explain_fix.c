/*
 * explain_fix.c: `cuenv explain`'s fix (what to run, decided from the
 * store's and the catalogue's answers) and its JSON report.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "explain.h"
#include "json_util.h"

void explain_fix_init(struct explain_fix *fx)
{
	memset(fx, 0, sizeof(*fx));
	needs_scan_init(&fx->s);
	needs_installed_init(&fx->in);
	needs_offer_init(&fx->o);
}

void explain_fix_release(struct explain_fix *fx)
{
	needs_scan_release(&fx->s);
	needs_installed_release(&fx->in);
	needs_offer_release(&fx->o);
	strv_release(&fx->lines);
	free(fx->state);
	explain_fix_init(fx);
}

/* "cuenv local 11.2.2 --cudnn 8.1.1.33" for combo c. */
static void local_line(const struct needs_combo *c, struct buf *b)
{
	buf_printf(b, "cuenv local %s", c->cuda->version);
	if (c->cudnn)
		buf_printf(b, " --cudnn %s", c->cudnn->version);
	if (c->cupti)
		buf_printf(b, " --cupti %s", c->cupti->version);
}

void explain_fix_decide(struct explain_fix *fx, const struct catalog *cat)
{
	struct buf b = BUF_INIT;

	if (!needs_asked(&fx->s, NULL))
		goto out;
	if (fx->in.pick.cuda) {
		needs_combo_describe(&fx->in.pick, &b);
		if (fx->in.active) {
			buf_adds(&b, ", the selection in force here, gives it");
			fx->state = buf_detach(&b);
			strv_push(&fx->lines, "cuenv exec -- PROGRAM");
		} else {
			buf_adds(&b, " (installed) gives it");
			fx->state = buf_detach(&b);
			local_line(&fx->in.pick, &b);
			strv_push(&fx->lines, b.data);
		}
		goto out;
	}
	needs_find_offer(cat, &fx->s, NULL, &fx->o);
	if (fx->o.line) {
		buf_printf(&b, "%s, then cuenv local %s", fx->o.line,
			   fx->o.line + strlen("cuenv install "));
		strv_push(&fx->lines, b.data);
	}
out:
	buf_release(&b);
}

/* ---- JSON ------------------------------------------------------------------ */

static const char *const kind_names[] = {
	[EXPLAIN_LIBRARY] = "library",
	[EXPLAIN_NO_RELEASE] = "no-release",
	[EXPLAIN_DRIVER] = "driver",
	[EXPLAIN_CUDNN_MISMATCH] = "cudnn-mismatch",
	[EXPLAIN_CUPTI_PRIVILEGES] = "cupti-privileges",
	[EXPLAIN_CUPTI_LOAD] = "cupti-load",
};

json_t *explain_json(const struct explain *ex, const struct explain_fix *fx)
{
	json_t *j = json_object(), *a = json_array();

	for (size_t i = 0; i < ex->n; i++) {
		const struct explain_finding *f = &ex->v[i];
		json_t *x = json_object(), *rows = json_array();

		json_object_set_new(x, "kind",
				    json_string(kind_names[f->kind]));
		json_object_set_new(x, "name", json_str_or_null(f->name));
		json_object_set_new(x, "library",
				    json_str_or_null(f->lib ? f->lib->stem
							    : NULL));
		json_object_set_new(x, "dll", json_boolean(f->dll));
		json_object_set_new(x, "soname", json_str_or_null(f->soname));
		json_object_set_new(x, "releases",
				    json_str_or_null(f->releases));
		json_object_set_new(x, "missing", json_boolean(f->missing));
		json_object_set_new(x, "framework",
				    json_str_or_null(f->framework));
		json_object_set_new(x, "built", json_str_or_null(f->built));
		json_object_set_new(x, "loaded", json_str_or_null(f->loaded));
		json_object_set_new(x, "line", json_str_or_null(f->line));
		for (size_t k = 0; k < f->nrows; k++) {
			json_t *r = json_object();

			json_object_set_new(r, "framework",
					    json_string(f->rows[k].framework));
			json_object_set_new(r, "versions",
					    json_string(f->rows[k].versions));
			json_object_set_new(r, "cuda",
					    json_string(f->rows[k].cuda));
			json_object_set_new(r, "cudnn",
					    json_str_or_null(f->rows[k].cudnn));
			json_object_set_new(r, "windows",
					    json_boolean(f->rows[k].windows));
			json_array_append_new(rows, r);
		}
		json_object_set_new(x, "asked_by", rows);
		json_object_set_new(x, "store", json_strv(&f->store));
		json_object_set_new(x, "loader", json_strv(&f->loader));
		json_array_append_new(a, x);
	}
	json_object_set_new(j, "findings", a);
	/* distinct names past the findings kept (EXPLAIN_KEEP) */
	json_object_set_new(j, "omitted",
			    json_integer((json_int_t)ex->omitted));
	json_object_set_new(j, "installed", json_str_or_null(fx->state));
	json_object_set_new(j, "fix", json_strv(&fx->lines));
	if (!fx->lines.n && !fx->state && fx->o.why.len)
		json_object_set_new(j, "catalogue_problem",
				    json_string(fx->o.why.data));
	return j;
}
