/*
 * needs_match.c: what the selection provides for a needs scan (see
 * needs.h): installed selections checked against what the files and the
 * frameworks ask (needs_scan.c), the verdict, and the catalogue's offer.
 */
#include "needs/needs.h"

#include <stdlib.h>
#include <string.h>

#include "select/activate.h"
#include "artifact/ldcache.h"
#include "artifact/loader.h"
#include "nvidia/catalog.h"
#include "plat/envmap.h"
#include "plat/plat_sys.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

/* The frameworks to look at: none when Python was not asked. */
static int frameworks(const struct needs_python *py)
{
	return py && py->exe ? NEEDS_FRAMEWORKS : 0;
}

/*
 * What the frameworks ask for, from Python's answers and the scanned
 * files' own metadata alike: constraint k of ncons(s, py).
 */
struct constraint {
	const char *name, *cuda, *cudnn;
};

static size_t ncons(const struct needs_scan *s, const struct needs_python *py)
{
	return (size_t)frameworks(py) + (s ? s->nrep : 0);
}

static struct constraint cons(const struct needs_scan *s,
			      const struct needs_python *py, size_t k)
{
	struct constraint c;

	if (k < (size_t)frameworks(py)) {
		c.name = needs_framework_names[k];
		c.cuda = py->fw[k].cuda;
		c.cudnn = py->fw[k].cudnn;
	} else {
		const struct needs_report *r = &s->rep[k - frameworks(py)];

		c.name = r->framework;
		c.cuda = r->cuda;
		c.cudnn = r->cudnn;
	}
	return c;
}

/* ---- versions ------------------------------------------------------------ */

/* Does version v satisfy a framework built with want: same major, and at
 * least want (minor-version compatibility)? */
static int at_least(const char *v, const char *want)
{
	struct version a, b;

	if (version_parse(v, &a) || version_parse(want, &b) ||
	    a.part[0] != b.part[0])
		return 0;
	return version_matches(&a, &b) || version_cmp(&a, &b) > 0;
}

static int is_toolkit(enum nvlib_id lib)
{
	return nvlib_kit(nvlib_get(lib)) == NVLIB_KIT_CUDA;
}

/* Do the files under PATH hold a library of the family: cuDNN, or a
 * toolkit library (NCCL is neither)? */
static bool provides_family(const struct needs_scan *s, bool cudnn)
{
	for (size_t i = 0; i + 1 < s->provides.n; i += 2) {
		const struct nvlib *e =
			nvlib_match_file(s->provides.v[i], NULL);

		if (e && (cudnn ? e->id == NVLIB_CUDNN
				: is_toolkit(e->id) && e->id != NVLIB_CUPTI))
			return true;
	}
	return false;
}

bool needs_asked(const struct needs_scan *s, const struct needs_python *py)
{
	bool files = s->n && (!py || !py->exe);

	for (size_t i = 0; i < s->n; i++)
		if (needs_want_managed(&s->v[i]))
			return true;
	if (s->nalt)
		return true;
	/*
	 * A minimum (metadata's, a version file's) is asked of cuenv unless
	 * the files under PATH hold that family themselves (a site-packages
	 * with NVIDIA's wheels): Paddle's version file says CUDA 11.8 and
	 * cuDNN 8.6, and its loader dlopens names no file holds (libcublas.so,
	 * built at run time); that NCCL is named too changes nothing.
	 */
	for (size_t i = 0; i < ncons(s, py); i++) {
		struct constraint c = cons(s, py, i);

		if ((c.cuda && !(files && provides_family(s, false))) ||
		    (c.cudnn && !(files && provides_family(s, true))))
			return true;
	}
	return false;
}

bool needs_python_empty(const struct needs_scan *s,
			const struct needs_python *py)
{
	return py && py->finder && !py->exe && !py->nfound && !s->files &&
	       !s->n && !s->nrep;
}

size_t needs_unknown(const struct needs_scan *s, const struct needs_python *py,
		     struct strv *out)
{
	struct buf b = BUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < s->nunseen; i++) {
		const struct needs_unseen *u = &s->unseen[i];
		bool known = false;

		for (size_t j = 0; !known && j < s->n; j++)
			known = s->v[j].lib == u->lib;
		for (size_t k = 0; !known && k < ncons(s, py); k++) {
			struct constraint c = cons(s, py, k);

			known = u->lib == NVLIB_CUDNN ? c.cudnn != NULL
						      : c.cuda != NULL;
		}
		if (known)
			continue;
		n++;
		if (!out)
			continue;
		buf_reset(&b);
		buf_printf(&b, "%s loads %s%s", u->who, u->name,
			   u->ctypes ? " with ctypes" : ", no version named");
		strv_push(out, b.data);
	}
	buf_release(&b);
	return n;
}

/* ---- installed selections ------------------------------------------------ */

static int dirs_have(const struct strv *dirs, const char *name,
		     struct buf *found)
{
	struct plat_stat st;

	for (size_t i = 0; i < dirs->n; i++) {
		buf_reset(found);
		buf_path(found, dirs->v[i], name);
		if (!plat_stat(found->data, &st) && st.type == PLAT_F_REG)
			return 1;
	}
	return 0;
}

static int install_has(const struct store_version *in, const char *name,
		       struct buf *found)
{
	return in && (dirs_have(&in->lib, name, found) ||
		      dirs_have(&in->cupti, name, found));
}

static int combo_has(const struct needs_combo *c, const char *name,
		     struct buf *found)
{
	return install_has(c->cuda, name, found) ||
	       install_has(c->cudnn, name, found) ||
	       install_has(c->cupti, name, found);
}

struct combo_find {
	const struct needs_combo *c;
	struct buf *found;
};

static bool combo_gives(const struct needs_want *w, void *ctx)
{
	struct combo_find *cf = ctx;

	return combo_has(cf->c, w->soname, cf->found);
}

static const char *path_base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * A framework's minimum (of what: "CUDA", "cuDNN") that the combination
 * is below: named once in lacks when given ("CUDA 12.1+ (torch)", "cuDNN
 * 9.x (jax)"). Returns 1, one request failed.
 */
static size_t below(struct strv *lacks, const char *what, const char *min,
		    const char *name)
{
	struct buf why = BUF_INIT;

	buf_printf(&why, "%s %s%s (%s)", what, min,
		   strchr(min, '.') ? "+" : ".x", name);
	if (lacks && strv_find(lacks, why.data) < 0)
		strv_push(lacks, why.data);
	buf_release(&why);
	return 1;
}

/*
 * How many of the requests c fails, each named in lacks when given; with
 * record, the files it has go into the wants' found. The names that files
 * may load and c lacks are counted in *maybe (may be NULL), and listed in
 * lacks with "(may load)".
 */
static size_t combo_check(const struct needs_combo *c, struct needs_scan *s,
			  const struct needs_python *py, struct strv *lacks,
			  int record, size_t *maybe)
{
	struct buf found = BUF_INIT, why = BUF_INIT;
	size_t miss = 0;

	if (maybe)
		*maybe = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];
		int has;

		if (w->provided_by)
			continue;
		has = combo_has(c, w->soname, &found);
		if (has && record) {
			free(w->found);
			w->found = xstrdup(found.data);
		}
		if (has || !needs_want_managed(w) || w->alternative)
			continue;
		if (!needs_want_required(w)) {
			if (maybe)
				(*maybe)++;
			buf_reset(&why);
			buf_printf(&why, "%s (may load)", w->soname);
			if (lacks)
				strv_push(lacks, why.data);
			continue;
		}
		miss++;
		if (lacks)
			strv_push(lacks, w->soname);
	}
	for (size_t i = 0; i < s->nalt; i++) {
		struct needs_alt *a = &s->alt[i];
		struct combo_find cf = { c, &found };
		const char *met = needs_alt_met(s, a, combo_gives, &cf);

		if (record) {
			free(a->met);
			a->met = met ? xstrdup(met) : NULL;
		}
		if (met)
			continue;
		miss++;
		buf_reset(&why);
		buf_printf(&why, "what any one of %s's %zu builds needs",
			   path_base(a->pattern), a->files.n);
		if (lacks)
			strv_push(lacks, why.data);
	}
	for (size_t i = 0; i < ncons(s, py); i++) {
		struct constraint f = cons(s, py, i);

		if (f.cuda && !at_least(c->cuda->version, f.cuda))
			miss += below(lacks, "CUDA", f.cuda, f.name);
		if (f.cudnn &&
		    !(c->cudnn && at_least(c->cudnn->version, f.cudnn)))
			miss += below(lacks, "cuDNN", f.cudnn, f.name);
	}
	buf_release(&found);
	buf_release(&why);
	return miss;
}

void needs_combo_describe(const struct needs_combo *c, struct buf *out)
{
	buf_printf(out, "cuda %s", c->cuda->version);
	if (c->cudnn)
		buf_printf(out, " + cudnn %s (cuda%u)", c->cudnn->version,
			   c->cudnn->cuda_major);
	if (c->cupti)
		buf_printf(out, " + cupti %s", c->cupti->version);
}

void needs_installed_init(struct needs_installed *in)
{
	memset(in, 0, sizeof(*in));
}

void needs_installed_release(struct needs_installed *in)
{
	store_version_list_release(&in->cudas);
	store_version_list_release(&in->cudnns);
	store_version_list_release(&in->cuptis);
	STRV_RELEASE_EACH(&in->warnings, &in->report);
	needs_installed_init(in);
}

int needs_installed_load(struct needs_installed *in, const char *root,
			 struct cuenv_err *err)
{
	struct store st;
	int rc;

	rc = store_open(&st, root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &in->cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &in->cudnns, err);
	if (!rc)
		rc = store_list(&st, KIT_CUPTI, &in->cuptis, err);
	for (size_t i = 0; i < st.warnings.n; i++)
		strv_push(&in->warnings, st.warnings.v[i]);
	store_release(&st);
	return rc;
}

/* The install of l in the same folder as x, or NULL. */
static const struct store_version *
	same_install(const struct store_version_list *l,
		     const struct store_version *x)
{
	const struct store_version *found = NULL;

	for (size_t i = 0; x && i < l->n; i++)
		if (!strcmp(l->v[i]->dir, x->dir))
			found = l->v[i];
	return found;
}

/*
 * The best combo for toolkit cu: fewest requirements missed (into *miss),
 * then fewest names it may load missed (into *maybe).
 */
static struct needs_combo best_for(const struct store_version *cu,
				   struct needs_scan *s,
				   const struct needs_python *py,
				   const struct needs_installed *in,
				   int want_dnn, size_t *miss, size_t *maybe)
{
	struct needs_combo best = { cu, NULL, NULL };
	size_t best_miss = (size_t)-1, best_maybe = (size_t)-1;

	/*
	 * Each cuDNN for this major, newest first, then none; or, when
	 * nothing asks for cuDNN, none first. CUPTI: none first, then each,
	 * newest first.
	 */
	for (size_t k = in->cudnns.n + 1; k-- > 0;) {
		size_t ni =
			want_dnn ? (k + in->cudnns.n) % (in->cudnns.n + 1) : k;
		const struct store_version *dn =
			ni == in->cudnns.n ? NULL : in->cudnns.v[ni];

		if (dn && dn->cuda_major != cu->cuda_major)
			continue;
		for (size_t pi = in->cuptis.n + 1; pi-- > 0;) {
			struct needs_combo c = { cu, dn,
						 pi == in->cuptis.n
							 ? NULL
							 : in->cuptis.v[pi] };
			size_t may, m = combo_check(&c, s, py, NULL, 0, &may);

			if (m < best_miss ||
			    (m == best_miss && may < best_maybe)) {
				best = c;
				best_miss = m;
				best_maybe = may;
			}
		}
	}
	*miss = best_miss;
	*maybe = best_maybe;
	return best;
}

/* "cuda 12.4.1: lacks x, y" or "...: provides everything", into report. */
static void report_combo(const struct needs_combo *c, struct needs_scan *s,
			 const struct needs_python *py, struct strv *report)
{
	struct strv lacks = STRV_INIT;
	struct buf line = BUF_INIT;

	combo_check(c, s, py, &lacks, 0, NULL);
	needs_combo_describe(c, &line);
	if (lacks.n) {
		buf_adds(&line, ": lacks ");
		for (size_t k = 0; k < lacks.n; k++)
			buf_printf(&line, "%s%s", k ? ", " : "", lacks.v[k]);
	} else {
		buf_adds(&line, ": provides everything");
	}
	strv_push(report, line.data);
	strv_release(&lacks);
	buf_release(&line);
}

void needs_match_installed(struct needs_scan *s, const struct needs_python *py,
			   const struct needs_combo *active,
			   struct needs_installed *in)
{
	struct needs_combo loose = { 0 };
	int want_dnn = 0;

	if (active && active->cuda &&
	    !combo_check(active, s, py, NULL, 0, NULL)) {
		/* the same installs, from our own lists */
		in->pick.cuda = same_install(&in->cudas, active->cuda);
		in->pick.cudnn = same_install(&in->cudnns, active->cudnn);
		in->pick.cupti = same_install(&in->cuptis, active->cupti);
		in->active = in->pick.cuda &&
			     !!in->pick.cudnn == !!active->cudnn &&
			     !!in->pick.cupti == !!active->cupti;
		if (!in->active)
			memset(&in->pick, 0, sizeof(in->pick));
	}

	for (size_t i = 0; i < s->n; i++)
		want_dnn |= needs_want_managed(&s->v[i]) &&
			    s->v[i].lib == NVLIB_CUDNN;
	for (size_t i = 0; i < ncons(s, py); i++)
		want_dnn |= cons(s, py, i).cudnn != NULL;
	/*
	 * The newest that gives everything, names it may load too; else the
	 * newest that gives every requirement.
	 */
	for (size_t ci = in->cudas.n; ci-- > 0;) {
		size_t miss, maybe;
		struct needs_combo best = best_for(in->cudas.v[ci], s, py, in,
						   want_dnn, &miss, &maybe);

		if (!miss && !maybe && !in->pick.cuda)
			in->pick = best;
		if (!miss && !loose.cuda)
			loose = best;
		report_combo(&best, s, py, &in->report);
	}
	if (!in->pick.cuda)
		in->pick = loose;
	if (in->pick.cuda)
		combo_check(&in->pick, s, py, NULL, 1, NULL);
}

/* ---- what cuenv does not install ------------------------------------------ */

/* Is w linked, of a library cuenv does not install, given by nothing here? */
static bool outside(const struct needs_want *w)
{
	return w->needed_by.n && !w->provided_by && !w->found &&
	       !w->alternative && !nvlib_cuenv_installs(nvlib_get(w->lib)) &&
	       !needs_want_plugin(w);
}

size_t needs_outside(struct needs_scan *s, char *const *envp)
{
	const char *cache_path = env_get(envp, "CUENV_LD_SO_CACHE");
	const char *machine = catalog_platform_machine(plat_sys_platform());
	struct ldcache cache = { 0 };
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv defaults = STRV_INIT;
	struct loader_env le = { 0 };
	size_t i = 0, n = 0;

	while (i < s->n && !outside(&s->v[i]))
		i++;
	if (i == s->n)
		return 0; /* nothing to look for: the cache is not read */
	ldcache_read(cache_path ? cache_path : "/etc/ld.so.cache", &cache,
		     &err);
	loader_defaults_guess(machine, &defaults);
	le.cache = cache.n ? &cache : NULL;
	le.library_path = env_get(envp, "LD_LIBRARY_PATH");
	le.defaults = &defaults;
	le.platform = machine;
	for (; i < s->n; i++) {
		struct needs_want *w = &s->v[i];
		struct loader l;
		size_t by = LOADER_NONE, idx;
		struct plat_stat st;

		if (!outside(w))
			continue;
		loader_init(&l, &le);
		/* the file that links it: its RPATH or RUNPATH applies */
		if (!plat_stat(w->needed_by.v[0], &st) &&
		    st.type == PLAT_F_REG &&
		    loader_adopt(&l, w->needed_by.v[0], true))
			by = 0;
		if (loader_dlopen(&l, by, w->soname, &idx) == CUENV_OK) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "%s (%s)", l.obj[idx].path,
				   loader_source_name(l.obj[idx].source));
			free(w->elsewhere);
			w->elsewhere = buf_detach(&b);
		} else {
			strv_push(&s->outside, w->soname);
			n++;
		}
		loader_release(&l);
	}
	ldcache_release(&cache);
	strv_release(&defaults);
	err_release(&err);
	return n;
}

/* ---- the catalogue ------------------------------------------------------- */

void needs_offer_init(struct needs_offer *o)
{
	memset(o, 0, sizeof(*o));
	buf_init(&o->why);
}

void needs_offer_release(struct needs_offer *o)
{
	free(o->line);
	buf_release(&o->why);
	needs_offer_init(o);
}

static int cmp_version_desc(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)b, *(char *const *)a);
}

/* Every CUDA version the catalogue offers, newest first. */
static void cuda_versions(const struct catalog *cat, struct strv *out)
{
	for (size_t i = 0; i < cat->n; i++)
		if (cat->v[i]->kind == KIT_CUDA &&
		    strv_find(out, cat->v[i]->version) < 0)
			strv_push(out, cat->v[i]->version);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_version_desc);
}

/* Does release v give w's library under w's soname? */
static int gives(const char *v, const struct needs_want *w, struct buf *tmp)
{
	return elf_cuda_soname_version(w->lib, v, tmp) &&
	       version_matches_str(w->version, tmp->data);
}

/*
 * "CUDA 11.x", "CUDA 11.2", "CUDA 11.2-11.8, 12.x": the releases in all
 * (newest first) that give w, by minor; a major whose every minor does is
 * "M.x".
 */
static void describe_range(const struct strv *all, const struct needs_want *w,
			   struct buf *out)
{
	struct buf tmp = BUF_INIT;
	struct version *minors = NULL;
	int *hit = NULL;
	size_t n = 0, shown = 0;

	/* the distinct minors, oldest first, and whether any release of
	 * each gives w */
	for (size_t i = all->n; i-- > 0;) {
		struct version v;
		int g = gives(all->v[i], w, &tmp);

		if (version_parse(all->v[i], &v) || v.n < 2)
			continue;
		v.n = 2;
		if (n && !version_cmp(&minors[n - 1], &v)) {
			hit[n - 1] |= g;
			continue;
		}
		minors = xrealloc(minors, (n + 1) * sizeof(*minors));
		hit = xrealloc(hit, (n + 1) * sizeof(*hit));
		minors[n] = v;
		hit[n++] = g;
	}
	buf_reset(out);
	for (size_t i = 0; i < n;) {
		unsigned long M = minors[i].part[0];
		size_t end = i, hits = 0;

		while (end < n && minors[end].part[0] == M)
			hits += (size_t)hit[end++];
		if (hits && hits == end - i) {
			buf_printf(out, "%s%lu.x", shown++ ? ", " : "", M);
		} else {
			for (size_t k = i; k < end; k++) {
				size_t r = k;

				if (!hit[k])
					continue;
				while (r + 1 < end && hit[r + 1])
					r++;
				buf_printf(out, "%s%lu.%lu",
					   shown++ ? ", " : "", M,
					   minors[k].part[1]);
				if (r > k)
					buf_printf(out, "-%lu.%lu", M,
						   minors[r].part[1]);
				k = r;
			}
		}
		i = end;
	}
	if (shown) {
		struct buf t = BUF_INIT;

		buf_printf(&t, "CUDA %s", out->data);
		buf_sets(out, t.data);
		buf_release(&t);
	}
	free(minors);
	free(hit);
	buf_release(&tmp);
}

void needs_describe(struct needs_scan *s, const struct catalog *cat)
{
	struct strv all = STRV_INIT;
	struct buf b = BUF_INIT;

	cuda_versions(cat, &all);
	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];
		const struct nvlib *lib = nvlib_get(w->lib);

		buf_reset(&b);
		if (w->lib == NVLIB_CUDNN)
			buf_printf(&b, "cuDNN %lu.x",
				   version_major(w->version));
		else if (w->lib == NVLIB_NCCL)
			buf_adds(&b, "NCCL (cuenv does not install it)");
		else if (nvlib_kit(lib) == NVLIB_KIT_OTHER)
			buf_printf(&b, "%s %lu.x", nvlib_product(lib),
				   version_major(w->version));
		else
			describe_range(&all, w, &b);
		if (w->lib != NVLIB_NCCL && !nvlib_cuenv_installs(lib))
			buf_printf(&b,
				   "%s(cuenv does not install it: NVIDIA's "
				   "wheel %s-cuNN has it)",
				   b.len ? " " : "", lib->wheel);
		if (!b.len)
			buf_adds(&b, "no CUDA release in the catalogue");
		free(w->range);
		w->range = buf_detach(&b);
	}
	buf_release(&b);
	strv_release(&all);
}

/*
 * The shortest prefix of version that the catalogue resolves to it; for
 * CUDA at least major.minor, as people name CUDA releases (12.4).
 */
static char *short_spec(const struct catalog *cat, enum kit_kind kind,
			const char *version, unsigned cuda_major,
			unsigned min_parts)
{
	struct version v;
	struct buf b = BUF_INIT;
	unsigned first;

	if (version_parse(version, &v))
		return xstrdup(version);
	first = kind == KIT_CUDA && v.n > 1 ? 2 : 1;
	if (min_parts > first)
		first = min_parts < v.n ? min_parts : v.n;
	for (unsigned n = first; n <= v.n; n++) {
		const struct release *r;

		buf_reset(&b);
		for (unsigned k = 0; k < n; k++)
			buf_printf(&b, "%s%lu", k ? "." : "", v.part[k]);
		r = catalog_find(cat, kind, b.data, cuda_major, -1);
		if (r && !strcmp(r->version, version))
			return buf_detach(&b);
	}
	buf_release(&b);
	return xstrdup(version);
}

const char *needs_newest_report(const struct needs_scan *s,
				const struct needs_python *py, int cudnn)
{
	const char *top = NULL;

	for (size_t k = 0; k < ncons(s, py); k++) {
		struct constraint c = cons(s, py, k);
		const char *v = cudnn ? c.cudnn : c.cuda;

		if (v && (!top || version_cmp_str(v, top) > 0))
			top = v;
	}
	return top;
}

/* Does v suit every framework's report (at least it, same major), and,
 * with top, match top itself? */
static int suits(const char *v, const struct needs_scan *s,
		 const struct needs_python *py, int cudnn, const char *top)
{
	for (size_t k = 0; k < ncons(s, py); k++) {
		struct constraint c = cons(s, py, k);
		const char *want = cudnn ? c.cudnn : c.cuda;

		if (want && !at_least(v, want))
			return 0;
	}
	return !top || version_matches_str(v, top);
}

/*
 * The newest cuDNN for CUDA major M that gives every cuDNN soname asked
 * for (one major, or 0) and suits every framework; with top, of that
 * very version.
 */
static const struct release *pick_cudnn(const struct catalog *cat, unsigned M,
					unsigned long dnn_major,
					const struct needs_scan *s,
					const struct needs_python *py,
					const char *top)
{
	const struct release *best = NULL;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (r->kind != KIT_CUDNN || r->cuda_major != M ||
		    (dnn_major && version_major(r->version) != dnn_major) ||
		    !suits(r->version, s, py, 1, top))
			continue;
		if (!best || version_cmp_str(r->version, best->version) > 0)
			best = r;
	}
	return best;
}

struct release_find {
	const char *v;
	struct buf *tmp;
};

/* A toolkit library of an alternative that release v gives (cuDNN is
 * chosen apart). */
static bool release_gives(const struct needs_want *w, void *ctx)
{
	struct release_find *rf = ctx;

	return !is_toolkit(w->lib) || gives(rf->v, w, rf->tmp);
}

/* Can CUDA release v give everything (CUPTI from elsewhere when
 * !own_cupti: then *cupti is the CUPTI soname version it must add)?
 * strict: the names files may load count too. */
static int toolkit_fits(const char *v, const struct needs_scan *s,
			const struct needs_python *py, int own_cupti,
			int strict, const char *top, const char **cupti)
{
	struct buf tmp = BUF_INIT;
	int ok = 1;

	*cupti = NULL;
	for (size_t i = 0; ok && i < s->n; i++) {
		const struct needs_want *w = &s->v[i];

		if (!needs_want_managed(w) || !is_toolkit(w->lib) ||
		    w->alternative || (!strict && !needs_want_required(w)) ||
		    gives(v, w, &tmp))
			continue;
		if (w->lib == NVLIB_CUPTI && !own_cupti &&
		    (!*cupti || !strcmp(*cupti, w->version)))
			*cupti = w->version;
		else
			ok = 0;
	}
	for (size_t i = 0; ok && i < s->nalt; i++) {
		struct release_find rf = { v, &tmp };

		ok = needs_alt_met(s, &s->alt[i], release_gives, &rf) != NULL;
	}
	buf_release(&tmp);
	return ok && suits(v, s, py, 0, top);
}

/* The release in all whose CUPTI has soname version cupti, or NULL. */
static const struct release *cupti_release(const struct catalog *cat,
					   const struct strv *all,
					   const char *cupti)
{
	const struct release *cp = NULL;
	struct buf t = BUF_INIT;

	for (size_t k = 0; k < all->n && !cp; k++)
		if (elf_cuda_soname_version(NVLIB_CUPTI, all->v[k], &t) &&
		    !strcmp(t.data, cupti))
			cp = catalog_find(cat, KIT_CUDA, all->v[k], 0, -1);
	buf_release(&t);
	return cp;
}

/*
 * The `cuenv install` line for what o holds; a cuDNN that a framework
 * asks for by minor (9.26.0+) is named to its minor (--cudnn 9.27), so
 * that the line says more than the major.
 */
static char *install_line(const struct catalog *cat,
			  const struct needs_offer *o, const char *top_dnn)
{
	struct buf line = BUF_INIT;
	char *c = short_spec(cat, KIT_CUDA, o->cuda->version, 0, 0);

	buf_printf(&line, "cuenv install %s", c);
	free(c);
	if (o->cudnn) {
		char *d = short_spec(cat, KIT_CUDNN, o->cudnn->version,
				     o->cuda->cuda_major,
				     top_dnn && strchr(top_dnn, '.') ? 2 : 0);

		buf_printf(&line, " --cudnn %s", d);
		free(d);
	}
	if (o->cupti) {
		char *p = short_spec(cat, KIT_CUDA, o->cupti->version, 0, 0);

		buf_printf(&line, " --cupti %s", p);
		free(p);
	}
	return buf_detach(&line);
}

/*
 * The newest CUDA release of all that suits s and py (strict: names that
 * files may load too), with the cuDNN and CUPTI it needs, into o: the
 * newest version a framework reports first (11.8 for 11.2 and 11.8), then
 * any that suits them all; CUPTI of its own first.
 */
static void find_release(const struct catalog *cat, const struct strv *all,
			 const struct needs_scan *s,
			 const struct needs_python *py, int strict,
			 int need_dnn, unsigned long dnn_major,
			 const char *top_cuda, const char *top_dnn,
			 struct needs_offer *o)
{
	for (int exact = top_cuda != NULL; exact >= 0 && !o->cuda; exact--) {
		for (int own = 1; own >= 0 && !o->cuda; own--) {
			for (size_t i = 0; i < all->n && !o->cuda; i++) {
				const char *v = all->v[i], *cupti = NULL;
				const struct release *dn = NULL, *cp = NULL;
				unsigned M = (unsigned)version_major(v);

				if (!toolkit_fits(v, s, py, own, strict,
						  exact ? top_cuda : NULL,
						  &cupti))
					continue;
				if (need_dnn) {
					if (top_dnn)
						dn = pick_cudnn(cat, M,
								dnn_major, s,
								py, top_dnn);
					if (!dn)
						dn = pick_cudnn(cat, M,
								dnn_major, s,
								py, NULL);
					if (!dn)
						continue;
				}
				if (cupti) {
					cp = cupti_release(cat, all, cupti);
					if (!cp)
						continue;
				}
				o->cuda = catalog_find(cat, KIT_CUDA, v, 0, -1);
				o->cudnn = dn;
				o->cupti = cp;
			}
		}
	}
}

void needs_find_offer(const struct catalog *cat, const struct needs_scan *s,
		      const struct needs_python *py, struct needs_offer *o)
{
	struct strv all = STRV_INIT;
	const char *top_cuda = needs_newest_report(s, py, 0),
		   *top_dnn = needs_newest_report(s, py, 1);

	cuda_versions(cat, &all);
	/*
	 * First what gives the names files may load too, then what gives
	 * what they need.
	 */
	for (int strict = 1; strict >= 0 && !o->cuda; strict--) {
		unsigned long dnn_major = 0;
		int need_dnn = 0, two = 0;

		for (size_t i = 0; i < s->n && !two; i++) {
			const struct needs_want *w = &s->v[i];

			if (!needs_want_managed(w) || w->lib != NVLIB_CUDNN ||
			    w->alternative ||
			    (!strict && !needs_want_required(w)))
				continue;
			if (dnn_major &&
			    dnn_major != version_major(w->version)) {
				two = 1;
				if (strict)
					break;
				buf_printf(&o->why,
					   "they ask for two cuDNN "
					   "majors (%lu and %lu)",
					   dnn_major,
					   version_major(w->version));
				goto out;
			}
			dnn_major = version_major(w->version);
			need_dnn = 1;
		}
		if (two)
			continue;
		need_dnn |= top_dnn != NULL;
		find_release(cat, &all, s, py, strict, need_dnn, dnn_major,
			     top_cuda, top_dnn, o);
	}
	if (!o->cuda) {
		buf_adds(&o->why, "no CUDA release in the catalogue gives all "
				  "of them");
		goto out;
	}
	o->line = install_line(cat, o, top_dnn);
out:
	strv_release(&all);
}

int needs_installed_here(const char *root, const char *cwd, char *const *envp,
			 struct needs_scan *s, const struct needs_python *py,
			 struct needs_installed *in, struct strv *warnings,
			 struct cuenv_err *err)
{
	struct activation a;
	struct envmap start = ENVMAP_INIT;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	struct needs_combo act = { 0 };
	const struct needs_combo *active = NULL;
	struct buf line = BUF_INIT;
	int rc = needs_installed_load(in, root, err);

	for (size_t i = 0; i < in->warnings.n; i++) {
		buf_reset(&line);
		buf_printf(&line, "skipped an incomplete version: %s",
			   in->warnings.v[i]);
		strv_push(warnings, line.data);
	}
	buf_release(&line);
	if (rc)
		return rc;
	activation_init(&a);
	envmap_from(&start, envp);
	rc = activation_compute(root, cwd, &start, 0, &a, &ignored);
	for (size_t i = 0; i < a.warnings.n; i++)
		strv_push(warnings, a.warnings.v[i]);
	if (!rc && a.ok) {
		act.cuda = a.act.cuda;
		act.cudnn = a.act.cudnn;
		act.cupti = a.act.cupti;
		active = &act;
	}
	needs_match_installed(s, py, active, in);
	activation_release(&a);
	envmap_release(&start);
	err_release(&ignored);
	return CUENV_OK;
}
