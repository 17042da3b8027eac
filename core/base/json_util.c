/*
 * json_util.c: see json_util.h.
 */
#include "base/json_util.h"

#include <stdlib.h>

json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *json_strv(const struct strv *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	return a;
}

void json_add_report_take(struct buf *out, json_t *j)
{
	char *text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;

	if (text)
		buf_printf(out, "%s\n", text);
	free(text);
	json_decref(j);
}
