#include "listing.h"

#include <stdlib.h>

#include "version.h"
#include "xalloc.h"

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
