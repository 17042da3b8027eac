/*
 * versions_report.c: `cuenv versions`' listing (see versions_report.h).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/json_util.h"
#include "select/versions_report.h"
#include "base/xalloc.h"

/* The root an install lives in, when it is not the user's own. */
static const char *other_root(const char *root, const struct store_version *in)
{
	size_t n = strlen(root);

	return strncmp(in->dir, root, n) || in->dir[n] != '/' ? in->dir : NULL;
}

/* Is in one of the installs a's selection resolved to (a->ok)? */
static bool versions_is_active(const struct activation *a,
			       const struct store_version *in)
{
	if (!a->ok)
		return false;
	return (a->act.cuda && !strcmp(a->act.cuda->dir, in->dir)) ||
	       (a->act.cudnn && !strcmp(a->act.cudnn->dir, in->dir)) ||
	       (a->act.cupti && !strcmp(a->act.cupti->dir, in->dir));
}

/* a's lists, by kind. */
static void lists_of(const struct activation *a,
		     const struct store_version_list *lists[KIT_KINDS])
{
	lists[KIT_CUDA] = &a->cudas;
	lists[KIT_CUDNN] = &a->cudnns;
	lists[KIT_CUPTI] = &a->cuptis;
}

void versions_text(struct buf *out, const struct activation *a,
		   const char *root)
{
	const struct store_version_list *lists[KIT_KINDS];

	lists_of(a, lists);
	for (int k = 0; k < KIT_KINDS; k++) {
		for (size_t i = 0; i < lists[k]->n; i++) {
			const struct store_version *in = lists[k]->v[i];
			struct buf label = BUF_INIT;

			buf_adds(&label, in->version);
			if (k == KIT_CUDNN)
				buf_printf(&label, " (cuda%u)", in->cuda_major);
			buf_printf(out, "%c %-5s  %-20s  %s%s%s%s\n",
				   versions_is_active(a, in) ? '*' : ' ',
				   kit_kind_name((enum kit_kind)k), label.data,
				   in->prefix,
				   in->registered ? "  (registered)" : "",
				   store_version_is_missing(in) ? "  (missing)"
								: "",
				   other_root(root, in) ? "  (system root)"
							: "");
			buf_release(&label);
		}
	}
}

static json_t *to_json(const struct store_version *in, int active)
{
	json_t *o = json_object(), *comp = json_object();

	json_object_set_new(o, "version", json_string(in->version));
	json_object_set_new(o, "name", json_string(in->name));
	json_object_set_new(o, "cuda_major", json_integer(in->cuda_major));
	json_object_set_new(o, "prefix", json_string(in->prefix));
	json_object_set_new(o, "registered", json_boolean(in->registered));
	json_object_set_new(o, "missing",
			    json_boolean(store_version_is_missing(in)));
	json_object_set_new(o, "active", json_boolean(active));
	json_object_set_new(o, "dir", json_string(in->dir));
	if (in->kind == KIT_CUDA)
		json_object_set_new(o, "cupti",
				    in->cupti.n && in->cupti_version
					    ? json_string(in->cupti_version)
				    : in->cupti.n ? json_true()
						  : json_false());
	for (size_t i = 0; i < in->notes.n; i++) {
		const char *sp = strchr(in->notes.v[i], ' ');
		char *k =
			xstrndup(in->notes.v[i], (size_t)(sp - in->notes.v[i]));

		json_object_set_new(comp, k, json_string(sp + 1));
		free(k);
	}
	json_object_set_new(o, "components", comp);
	return o;
}

json_t *versions_json(const struct activation *a)
{
	const struct store_version_list *lists[KIT_KINDS];
	json_t *j = json_object();

	lists_of(a, lists);
	for (int k = 0; k < KIT_KINDS; k++) {
		json_t *arr = json_array();

		for (size_t i = 0; i < lists[k]->n; i++)
			json_array_append_new(
				arr,
				to_json(lists[k]->v[i],
					versions_is_active(a, lists[k]->v[i])));
		json_object_set_new(j, kit_kind_name((enum kit_kind)k), arr);
	}
	return j;
}

void versions_render(struct buf *out, const struct activation *a,
		     const char *root, enum versions_format f)
{
	switch (f) {
	case VERSIONS_BARE:
		for (size_t i = 0; i < a->cudas.n; i++)
			buf_printf(out, "%s\n", a->cudas.v[i]->version);
		break;
	case VERSIONS_JSON:
		json_add_report_take(out, versions_json(a));
		break;
	default:
		versions_text(out, a, root);
		break;
	}
}

bool versions_none(const struct activation *a)
{
	return !a->cudas.n && !a->cudnns.n && !a->cuptis.n;
}
