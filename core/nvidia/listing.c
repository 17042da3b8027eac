#include "nvidia/listing.h"

#include <jansson.h>
#include <stdlib.h>

#include "base/kit.h"
#include "base/version.h"
#include "base/xalloc.h"

static int cmp_release(const void *a, const void *b)
{
	const struct release *x = *(const struct release *const *)a;
	const struct release *y = *(const struct release *const *)b;
	int c = version_cmp_build(x->version, x->cuda_major, y->version,
				  y->cuda_major);

	/* the same release from two sources: redist last, so it is shown */
	return c ? c : (x->source == SRC_REDIST) - (y->source == SRC_REDIST);
}

/* "12.4.1" and "12.4.0" share the minor "12.4". */
static int same_minor(const char *a, const char *b)
{
	struct version x, y;

	return !version_parse(a, &x) && !version_parse(b, &y) && x.n >= 2 &&
	       y.n >= 2 && x.part[0] == y.part[0] && x.part[1] == y.part[1];
}

/* Is a newer release of the same minor (and CUDA major) listed later? */
static int superseded(const struct release **v, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		if (v[k]->kind == v[i]->kind &&
		    same_minor(v[k]->version, v[i]->version) &&
		    v[k]->cuda_major == v[i]->cuda_major)
			return 1;
	return 0;
}

void listing_select(const struct catalog *cat, int only, const char *prefix,
		    int all, const struct release ***out, size_t *n)
{
	const struct release **v = xcalloc(cat->n + 1, sizeof(*v));
	const struct release **keep = xcalloc(cat->n + 1, sizeof(*keep));

	*n = 0;
	for (size_t i = 0; i < cat->n; i++)
		v[i] = cat->v[i];
	qsort(v, cat->n, sizeof(*v), cmp_release);
	for (int kind = KIT_CUDA; kind <= KIT_CUDNN; kind++) {
		if (only >= 0 && only != kind)
			continue;
		for (size_t i = 0; i < cat->n; i++) {
			const struct release *r = v[i];

			if ((int)r->kind != kind ||
			    (prefix &&
			     !version_matches_str(r->version, prefix)) ||
			    (!all && superseded(v, cat->n, i)))
				continue;
			keep[(*n)++] = r;
		}
	}
	free(v);
	*out = keep;
}

/* ---- list-remote's words and lines ------------------------------------------ */

static int bad_word(const char *word, struct cuenv_err *err)
{
	cuenv_fail_shown(
		err, CUENV_E_USAGE, word, 64,
		"list-remote: '%s' is neither cuda, cudnn nor a version prefix");
	return cuenv_hint(err, "for example: cuenv list-remote cudnn 9; see: "
			       "cuenv list-remote --help");
}

int listing_words(int n, char *const *words, int *only, const char **prefix,
		  struct cuenv_err *err)
{
	enum kit_kind kind;

	*only = -1;
	*prefix = NULL;
	for (int i = 0; i < n; i++) {
		if (!kit_kind_parse(words[i], &kind) && *only < 0 && !*prefix) {
			*only = (int)kind;
		} else if (!*prefix && version_is_valid(words[i])) {
			*prefix = words[i];
		} else if (*prefix) {
			cuenv_fail(err, CUENV_E_USAGE,
				   "list-remote: too many arguments");
			return cuenv_hint(err, "see: cuenv list-remote --help");
		} else {
			return bad_word(words[i], err);
		}
	}
	/* cupti is listed as the CUDA it comes with */
	if (*only != KIT_CUDA && *only != KIT_CUDNN)
		*only = -1;
	return CUENV_OK;
}

void listing_render(const struct release *const *v, size_t n, int json,
		    struct buf *out)
{
	json_t *arr = json ? json_array() : NULL;
	char *text;

	for (size_t i = 0; i < n; i++) {
		const struct release *r = v[i];

		/* pypi.tsv tables the index's CUDA releases, not cuDNN's */
		int index = r->kind == KIT_CUDA && r->on_index;

		if (arr)
			json_array_append_new(
				arr,
				json_pack("{s:s, s:s, s:i, s:s, s:[s, s*]}",
					  "kind", kit_kind_name(r->kind),
					  "version", r->version, "cuda_major",
					  (int)r->cuda_major, "source",
					  source_name(r->source), "sources",
					  source_name(r->source),
					  index ? "pypi" : NULL));
		else if (r->kind == KIT_CUDA)
			buf_printf(out, "cuda   %-12s %s%s\n", r->version,
				   source_name(r->source),
				   index ? ", pypi" : "");
		else
			buf_printf(out, "cudnn  %-12s for CUDA %u (%s)\n",
				   r->version, r->cuda_major,
				   source_name(r->source));
	}
	if (!arr)
		return;
	text = json_dumps(arr, JSON_INDENT(2));
	if (text)
		buf_printf(out, "%s\n", text);
	free(text);
	json_decref(arr);
}
