/*
 * doctor_report.c: what doctor says, shaped for its printer: the
 * selection's one-line description and the report as JSON.
 */
#include <jansson.h>
#include <string.h>

#include "doctor/doctor.h"

void doctor_describe_selection(const struct activation *a, struct buf *out)
{
	const struct selection *sel = &a->sel;

	if (a->ok) {
		buf_printf(out, "cuda %s", a->act.cuda->version);
		if (a->act.cudnn)
			buf_printf(out, " + cudnn %s", a->act.cudnn->version);
		if (a->act.cupti)
			buf_printf(out, " + cupti %s", a->act.cupti->version);
		if (a->act.isolate)
			buf_adds(out, ", isolated");
	} else if (selection_active(sel)) {
		buf_adds(out, "cuda ");
		buf_add_display(out, sel->cuda, 64);
		if (sel->cudnn) {
			buf_adds(out, " + cudnn ");
			buf_add_display(out, sel->cudnn, 64);
		}
		if (sel->cupti) {
			buf_adds(out, " + cupti ");
			buf_add_display(out, sel->cupti, 64);
		}
		buf_adds(out, ", not available");
	} else if (sel->origin != SEL_NONE) {
		buf_adds(out, "cuda = system");
	} else {
		buf_adds(out, "nothing selected");
	}
	if (sel->origin != SEL_NONE) {
		buf_adds(out, " (");
		selection_describe_origin(sel, out);
		buf_adds(out, ")");
	}
}

json_t *doctor_report_json(const struct activation *a, const struct findings *f)
{
	json_t *j = json_object(), *arr = json_array(), *sel;
	struct buf desc = BUF_INIT;
	int shell_lacks = 0;

	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].id, "not-activated"))
			shell_lacks = 1;
	doctor_describe_selection(a, &desc);
	sel = json_object();
	json_object_set_new(sel, "description", json_string(desc.data));
	/*
	 * resolved: the selection names what is installed; active: and this
	 * shell carries it (no not-activated finding beside it).
	 */
	json_object_set_new(sel, "resolved", json_boolean(a->ok));
	json_object_set_new(sel, "active", json_boolean(a->ok && !shell_lacks));
	if (a->ok) {
		json_object_set_new(sel, "cuda",
				    json_string(a->act.cuda->version));
		json_object_set_new(sel, "cudnn",
				    a->act.cudnn
					    ? json_string(a->act.cudnn->version)
					    : json_null());
		json_object_set_new(sel, "cupti",
				    a->act.cupti
					    ? json_string(a->act.cupti->version)
					    : json_null());
	}
	json_object_set_new(j, "selection", sel);
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		json_t *o = json_object(), *paths = json_array();

		json_object_set_new(o, "id", json_string(x->id));
		json_object_set_new(o, "severity",
				    json_string(
					    doctor_severity_name(x->severity)));
		json_object_set_new(o, "what", json_string(x->what));
		json_object_set_new(o, "why", json_string(x->why));
		json_object_set_new(o, "fix", json_string(x->fix));
		for (size_t k = 0; k < x->paths.n; k++)
			json_array_append_new(paths,
					      json_string(x->paths.v[k]));
		json_object_set_new(o, "paths", paths);
		json_array_append_new(arr, o);
	}
	json_object_set_new(j, "findings", arr);
	json_object_set_new(
		j, "problems",
		json_integer((json_int_t)findings_count(f, DOCTOR_PROBLEM)));
	json_object_set_new(
		j, "warnings",
		json_integer((json_int_t)findings_count(f, DOCTOR_WARNING)));
	json_object_set_new(j, "info",
			    json_integer((
				    json_int_t)findings_count(f, DOCTOR_INFO)));
	buf_release(&desc);
	return j;
}
