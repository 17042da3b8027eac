/*
 * check_json.c: reading a report back (jansson). Kept apart from check.c,
 * which writes reports without any library, so that cuenv-probe links
 * libc and libdl only.
 */
#include "check/check.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/xalloc.h"

/* A string member of o, or NULL (absent, null, or not a string). */
static const char *member_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int bad(struct cuenv_err *err, const char *what)
{
	return cuenv_fail(err, CUENV_E_GPU,
			  "cuenv-probe's report is not valid: %s", what);
}

static int read_layer(json_t *o, struct check_layer *l, struct cuenv_err *err)
{
	const char *status = member_str(o, "status"), *key;
	json_t *details = json_object_get(o, "details"),
	       *warnings = json_object_get(o, "warnings"), *v;
	size_t i;

	if (!status || check_status_parse(status, &l->status))
		return bad(err, "a layer has no valid status");
	l->asked = !json_is_false(json_object_get(o, "asked"));
	check_setstr(&l->version, member_str(o, "version"));
	check_setstr(&l->soname, member_str(o, "soname"));
	check_setstr(&l->file, member_str(o, "file"));
	check_setstr(&l->message, member_str(o, "message"));
	check_setstr(&l->fix, member_str(o, "fix"));
	l->foreign = json_is_true(json_object_get(o, "foreign"));
	v = json_object_get(o, "ms");
	l->ms = json_is_number(v) ? json_number_value(v) : 0.0;
	if (json_is_object(details)) {
		json_object_foreach(details, key, v) {
			if (json_is_string(v) && *key && !strchr(key, '='))
				check_detail(l, key, "%s",
					     json_string_value(v));
		}
	}
	if (json_is_array(warnings)) {
		json_array_foreach(warnings, i, v) {
			if (json_is_string(v))
				strv_push(&l->warnings, json_string_value(v));
		}
	}
	return CUENV_OK;
}

int check_report_from_json(const char *text, struct check_report *r,
			   struct cuenv_err *err)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr), *layers, *v;
	size_t i;
	int rc = CUENV_OK;

	check_report_release(r);
	if (!root)
		return cuenv_fail(
			err, CUENV_E_GPU,
			"cuenv-probe's report is not JSON: %s (line %d)",
			jerr.text, jerr.line);
	layers = json_object_get(root, "layers");
	if (!json_is_object(root) || !json_is_array(layers)) {
		rc = bad(err, "no layers");
		goto out;
	}
	check_setstr(&r->cuda, member_str(root, "cuda"));
	check_setstr(&r->cudnn, member_str(root, "cudnn"));
	check_setstr(&r->cupti, member_str(root, "cupti"));
	v = json_object_get(root, "device");
	r->device = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	json_array_foreach(layers, i, v) {
		const char *name = member_str(v, "name");
		int id = -1;

		for (int k = 0; name && k < CHECK_LAYERS; k++)
			if (!strcmp(name, check_layer_name(k)))
				id = k;
		if (id < 0)
			continue; /* a layer from a newer probe */
		rc = read_layer(v, &r->layer[id], err);
		if (rc)
			goto out;
	}
out:
	json_decref(root);
	return rc;
}
