/*
 * check_render.c: `cuenv check`'s text report (see check_render.h).
 */
#include "check/check_render.h"

static void render_layer(struct buf *out, const struct check_layer *l,
			 const char *name)
{
	const char *st = l->status == CHECK_FAIL   ? "FAIL"
			 : l->status == CHECK_PASS ? "pass"
						   : "skip";
	const char *what = l->file ? l->file : l->soname;

	buf_printf(out, "%-8s %-4s  %-11s %8.1f ms%s%s%s\n", name, st,
		   l->version ? l->version : "-", l->ms, what ? "  " : "",
		   what ? what : "",
		   l->foreign ? "  (not the selection's)" : "");
	if (l->message)
		buf_printf(out, "         %s\n", l->message);
	for (size_t i = 0; i < l->warnings.n; i++)
		buf_printf(out, "         warning: %s\n", l->warnings.v[i]);
	/* a pass shows its fix only with a warning (minor version compat) */
	if (l->fix && (l->status != CHECK_PASS || l->warnings.n))
		buf_printf(out, "         fix: %s\n", l->fix);
}

void check_render_text(struct buf *out, const struct selection *sel,
		       const struct check_report *r, int rc, int first)
{
	struct buf origin = BUF_INIT;
	int passed = 0;

	selection_describe_origin(sel, &origin);
	buf_printf(out, "cuda %s", r->cuda ? r->cuda : "?");
	if (r->cudnn)
		buf_printf(out, " + cudnn %s", r->cudnn);
	if (r->cupti)
		buf_printf(out, " + cupti from %s", r->cupti);
	buf_printf(out, ", device %d (%s)\n\n", r->device, origin.data);
	for (int i = 0; i < CHECK_LAYERS; i++) {
		render_layer(out, &r->layer[i], check_layer_name(i));
		passed += r->layer[i].status == CHECK_PASS;
	}
	buf_addc(out, '\n');
	if (!rc)
		buf_printf(out, "ok: %d of %d layers passed%s\n", passed,
			   CHECK_LAYERS,
			   passed < CHECK_LAYERS ? ", the others were not "
						   "asked for"
						 : "");
	else
		buf_printf(out, "failed: the %s layer (exit %d)\n",
			   check_layer_name(first), rc);
	buf_release(&origin);
}

void check_render(struct buf *out, const struct selection *sel,
		  const struct check_report *r, int rc, int first, int json)
{
	if (json) {
		check_report_to_json(r, out);
		buf_addc(out, '\n');
	} else {
		check_render_text(out, sel, r, rc, first);
	}
}
