#include "install/plan.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/manifests.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- the archives of one release ----------------------------------------- */

int plan_opts_parse(const char *command, const char *list, int runtime_only,
		    struct strv *comps, struct plan_opts *o,
		    struct cuenv_err *err)
{
	o->runtime_only = runtime_only;
	if (!list)
		return CUENV_OK;
	strv_split(comps, list, ',');
	for (size_t i = 0; i < comps->n; i++) {
		const char *c = comps->v[i];

		if (!*c || strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
				   strlen(c))
			return cuenv_fail(err, CUENV_E_USAGE,
					  "%s: bad component name '%s'",
					  command, c);
	}
	o->components = comps;
	return CUENV_OK;
}

int plan_opts_check(const char *command, const struct plan_opts *o,
		    struct cuenv_err *err)
{
	if (o->components && o->runtime_only)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "%s: --components and --runtime-only do not "
				  "go together",
				  command);
	return CUENV_OK;
}

int plan_archives(const struct release *rel, const struct plan_opts *o,
		  struct strv *names, struct cuenv_err *err)
{
	const char *const *set = o->runtime_only
					 ? nvlib_cuda_runtime_components
					 : nvlib_cuda_default_components;

	if (rel->kind == KIT_CUPTI) {
		strv_push(names, "cuda_cupti");
		return CUENV_OK;
	}
	if (rel->kind != KIT_CUDA) {
		strv_push(names, rel->parts[0].name);
		return CUENV_OK;
	}
	if (o->components) {
		for (size_t i = 0; i < o->components->n; i++) {
			const char *c = o->components->v[i];

			/* Runfiles name their components the same way. */
			if (rel->source == SRC_REDIST &&
			    !release_part(rel, c)) {
				struct buf have = BUF_INIT;

				for (size_t k = 0; k < rel->nparts; k++)
					buf_printf(&have, "%s%s", k ? ", " : "",
						   rel->parts[k].name);
				cuenv_fail(err, CUENV_E_USAGE,
					   "cuda %s has no component '%s'",
					   rel->version, c);
				/* No command lists them: name them here. */
				cuenv_hint(err, "its components: %s",
					   have.data);
				buf_release(&have);
				return err->rc;
			}
			if (strv_find(names, c) < 0)
				strv_push(names, c);
		}
		return CUENV_OK;
	}
	for (size_t i = 0; set[i]; i++)
		if (rel->source != SRC_REDIST || release_part(rel, set[i]))
			strv_push(names, set[i]);
	return CUENV_OK;
}

/* ---- the releases of one request ----------------------------------------- */

struct plan_opts plan_opts_for(enum kit_kind kind,
			       const struct plan_opts *asked)
{
	struct plan_opts o = *asked;

	if (kind != KIT_CUDA)
		o.components = NULL;
	if (kind == KIT_CUPTI)
		o.runtime_only = 0;
	return o;
}

static struct plan_step *add_step(struct plan_step *steps, size_t *n,
				  const struct release *rel, enum kit_kind kind,
				  int source, const struct plan_opts *asked)
{
	struct plan_step *s = &steps[(*n)++];

	memset(s, 0, sizeof(*s));
	s->rel = *rel;
	s->rel.kind = kind;
	if (source == SRC_PYPI)
		s->rel.source = SRC_PYPI;
	s->opts = plan_opts_for(kind, asked);
	return s;
}

size_t plan_steps(const struct catalog_choice *ch, int source,
		  const struct plan_opts *asked,
		  struct plan_step steps[KIT_KINDS])
{
	size_t n = 0;
	struct plan_step *cuda =
		add_step(steps, &n, ch->cuda, KIT_CUDA, source, asked);

	cuda->keep_partial = (ch->cudnn || ch->cupti) && !asked->components;
	if (ch->cudnn)
		add_step(steps, &n, ch->cudnn, KIT_CUDNN, source, asked);
	if (ch->cupti)
		add_step(steps, &n, ch->cupti, KIT_CUPTI, source, asked);
	return n;
}

struct plan_opts plan_locked_opts(const struct release *rel, enum kit_kind kind,
				  const struct plan_opts *asked,
				  struct strv *names)
{
	struct plan_opts o = *asked;

	if (kind != KIT_CUDA) {
		o.components = NULL;
		o.runtime_only = 0;
	} else if ((rel->source == SRC_REDIST || rel->source == SRC_PYPI) &&
		   !asked->components && !asked->runtime_only) {
		for (size_t k = 0; k < rel->nparts; k++)
			strv_push(names, rel->parts[k].name);
		o.components = names;
	}
	return o;
}

/* ---- cuDNN for a minimum ------------------------------------------------- */

const char *plan_cudnn_at_least(const struct catalog *cat, unsigned cuda_major,
				const char *min)
{
	const struct release *exact = NULL, *newest = NULL;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (r->kind != KIT_CUDNN || r->cuda_major != cuda_major ||
		    version_major(r->version) != version_major(min) ||
		    version_cmp_str(r->version, min) < 0)
			continue;
		if (version_matches_str(r->version, min) &&
		    (!exact || version_cmp_str(r->version, exact->version) > 0))
			exact = r;
		if (!newest || version_cmp_str(r->version, newest->version) > 0)
			newest = r;
	}
	return exact ? exact->version : newest ? newest->version : NULL;
}

/* ---- install --for ------------------------------------------------------- */

int plan_framework_arg(const char *arg, struct buf *name, const char **spec,
		       struct cuenv_err *err)
{
	static const char *const known[] = { "tensorflow", "torch", "pytorch",
					     "jax" };
	const char *eq = strstr(arg, "==");
	int ok = 0;

	*spec = eq ? eq + 2 : NULL;
	buf_add(name, arg, eq ? (size_t)(eq - arg) : strlen(arg));
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		ok |= !strcmp(name->data, known[i]);
	if (!ok || (*spec && !version_is_valid(*spec))) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, arg, 64);
		cuenv_fail(err, CUENV_E_USAGE,
			   "--for: '%s' is not FRAMEWORK==VERSION", shown.data);
		cuenv_hint(err, "frameworks: tensorflow, torch (pytorch), "
				"jax; for example --for tensorflow==2.6");
		buf_release(&shown);
		return err->rc;
	}
	return CUENV_OK;
}

/* Put the rows of updated (when it has a table) before those of rows. */
static void prepend_updated(const char *updated, const char *name,
			    const char *spec, struct framework_builds *rows)
{
	struct framework_builds mine = { 0 };
	struct buf d = BUF_INIT;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	struct plat_stat st;

	buf_printf(&d, "%s/frameworks.tsv", updated);
	if (!plat_stat(d.data, &st) &&
	    !compat_frameworks(updated, name, spec, &mine, &ignored) &&
	    mine.n) {
		mine.v = xrealloc(mine.v, (mine.n + rows->n) * sizeof(*mine.v));
		/* the shipped table may have none: rows->v is NULL then */
		if (rows->n)
			memcpy(mine.v + mine.n, rows->v,
			       rows->n * sizeof(*rows->v));
		mine.n += rows->n;
		free(rows->v);
		*rows = mine;
		mine.v = NULL;
		mine.n = 0;
	}
	framework_builds_release(&mine);
	buf_release(&d);
	err_release(&ignored);
}

int plan_framework_rows(const char *shipped, const char *updated,
			const char *name, const char *spec,
			struct framework_builds *out, struct cuenv_err *err)
{
	int rc = compat_frameworks(shipped, name, spec, out, err);

	if (rc)
		return rc;
	if (updated)
		prepend_updated(updated, name, spec, out);
	compat_frameworks_order(out);
	return CUENV_OK;
}

const struct framework_build *
	plan_framework_pick(const struct framework_builds *rows,
			    const struct catalog *cat, const char *cudnn,
			    int source, struct cuenv_err *first)
{
	struct cuenv_err later = CUENV_ERR_INIT;
	const struct framework_build *best = NULL;

	for (size_t i = 0; i < rows->n && !best; i++) {
		const struct framework_build *b = &rows->v[i];
		struct catalog_choice ch;

		if (!catalog_resolve(cat, b->cuda, cudnn ? cudnn : b->cudnn,
				     NULL, source, &ch, i ? &later : first))
			best = b;
	}
	err_release(&later);
	return best;
}

void framework_choice_release(struct framework_choice *c)
{
	framework_builds_release(&c->rows);
	err_release(&c->first);
	c->best = NULL;
}

int plan_framework_choose(const char *shipped, const char *updated,
			  const char *name, const char *spec,
			  const struct catalog *cat, const char *cudnn,
			  int source, struct framework_choice *c,
			  struct cuenv_err *err)
{
	int rc = plan_framework_rows(shipped, updated, name, spec, &c->rows,
				     err);

	c->best = NULL;
	if (!rc && !c->rows.n) {
		rc = cuenv_fail(err, CUENV_E_UNKNOWN,
				"no %s%s%s with CUDA in the framework table",
				name, spec ? " " : "", spec ? spec : "");
		cuenv_hint(err, "see: %s/frameworks.tsv", shipped);
	}
	if (!rc)
		c->best = plan_framework_pick(&c->rows, cat, cudnn, source,
					      &c->first);
	if (!rc && !c->best) {
		rc = cuenv_fail(err, c->first.rc, "%s", c->first.msg.data);
		cuenv_hint(err, "%s", c->first.hint.data);
	}
	return rc;
}

/* "pytorch 2.14 was built and tested with CUDA 13.2 and cuDNN 9.24.0.43" */
static void note_build(const struct framework_build *b, struct strv *notes)
{
	struct buf line = BUF_INIT;

	buf_printf(&line, "%s %s was built and tested with CUDA %s%s%s",
		   b->framework, b->version, b->cuda,
		   b->cudnn ? " and cuDNN " : "", b->cudnn ? b->cudnn : "");
	strv_push(notes, line.data);
	buf_release(&line);
}

void plan_framework_notes(const struct framework_choice *c, int rc,
			  struct strv *notes)
{
	const struct framework_build *best = c->best;

	/* What the preferred row needs, and why it cannot be. */
	if (rc && c->rows.n)
		note_build(&c->rows.v[0], notes);
	if (best && best != c->rows.v) {
		size_t more = (size_t)(best - c->rows.v) - 1;
		struct buf line = BUF_INIT;

		buf_printf(&line, "skipped %s %s with CUDA %s",
			   c->rows.v[0].framework, c->rows.v[0].version,
			   c->rows.v[0].cuda);
		if (more)
			buf_printf(&line, " and %zu more build%s", more,
				   more == 1 ? "" : "s");
		buf_printf(&line, ": %s", c->first.msg.data);
		strv_push(notes, line.data);
		buf_release(&line);
	}
	if (best)
		note_build(best, notes);
}

void plan_framework_best(const struct framework_choice *c,
			 struct framework_builds *out)
{
	const struct framework_build *best = c->best;

	if (!best)
		return;
	out->v = xcalloc(1, sizeof(*out->v));
	out->n = 1;
	out->v[0].framework = xstrdup(best->framework);
	out->v[0].version = xstrdup(best->version);
	out->v[0].cuda = xstrdup(best->cuda);
	out->v[0].cudnn = best->cudnn ? xstrdup(best->cudnn) : NULL;
	out->v[0].notes = xstrdup(best->notes);
}

int plan_framework_from_wheel(const struct needs_scan *s, const char *project,
			      const char *version, const char *wheel,
			      const struct catalog *cat,
			      struct framework_builds *out, struct buf *why)
{
	const char *cuda = needs_newest_report(s, NULL, 0),
		   *dnn = needs_newest_report(s, NULL, 1);
	struct framework_build *b;

	if (!cuda) {
		buf_printf(why, "the metadata of %s says nothing of CUDA",
			   wheel);
		return CUENV_NO;
	}
	out->v = xcalloc(1, sizeof(*out->v));
	out->n = 1;
	b = &out->v[0];
	b->framework = xstrdup(project);
	b->version = xstrdup(version);
	b->cuda = xstrdup(cuda);
	if (dnn) {
		/* a minimum: the catalogue's release that meets it */
		const char *have =
			plan_cudnn_at_least(cat, (unsigned)version_major(cuda),
					    dnn);

		b->cudnn = xstrdup(have ? have : dnn);
	}
	b->notes = xstrdup("from the package index");
	return CUENV_OK;
}

int plan_framework_for(char *const *envp, const char *exe, const char *root,
		       const char *arg, const struct catalog *cat,
		       const char *cudnn, int source, struct strv *notes,
		       struct framework_builds *out, struct cuenv_err *err)
{
	struct framework_choice c = FRAMEWORK_CHOICE_INIT;
	struct buf dir = BUF_INIT, name = BUF_INIT, updated = BUF_INIT;
	const char *spec;
	int rc = plan_framework_arg(arg, &name, &spec, err);

	if (!rc)
		rc = manifests_compat_env(envp, exe, &dir, err);
	/* what `cuenv update --frameworks` read from the index, first */
	buf_printf(&updated, "%s/manifests/compat", root);
	if (!rc)
		rc = plan_framework_choose(dir.data, updated.data, name.data,
					   spec, cat, cudnn, source, &c, err);
	plan_framework_notes(&c, rc, notes);
	plan_framework_best(&c, out);
	framework_choice_release(&c);
	buf_release(&dir);
	buf_release(&name);
	buf_release(&updated);
	return rc;
}
