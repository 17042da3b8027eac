#include "select/select.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/catalog.h"
#include "select/dotfile.h"
#include "plat/plat_path.h"
#include "base/version.h"
#include "base/xalloc.h"

void selection_init(struct selection *sel)
{
	memset(sel, 0, sizeof(*sel));
}

void selection_release(struct selection *sel)
{
	FREE_EACH(sel->cuda, sel->cudnn, sel->cupti, sel->origin_path);
	STRV_RELEASE_EACH(&sel->watch, &sel->absent);
	selection_init(sel);
}

int selection_active(const struct selection *sel)
{
	return sel->origin != SEL_NONE && sel->cuda &&
	       strcmp(sel->cuda, DOTFILE_SYSTEM);
}

void selection_describe_origin(const struct selection *sel, struct buf *out)
{
	switch (sel->origin) {
	case SEL_SHELL:
		buf_adds(out, "set by CUENV_VERSION, which cuenv use sets");
		break;
	case SEL_FILE:
	case SEL_GLOBAL:
		buf_adds(out, "set by ");
		buf_add_display(out, sel->origin_path, 4096);
		break;
	case SEL_NONE:
		buf_adds(out, "nothing selected");
		break;
	}
}

static int take_file(struct selection *sel, const struct dotfile *df,
		     enum sel_origin origin, const char *path)
{
	if (dotfile_is_empty(df))
		return 0;
	sel->cuda = df->cuda ? xstrdup(df->cuda) : NULL;
	sel->cudnn = df->cudnn ? xstrdup(df->cudnn) : NULL;
	sel->cupti = df->cupti ? xstrdup(df->cupti) : NULL;
	sel->isolate = df->isolate > 0;
	sel->origin = origin;
	sel->origin_path = xstrdup(path);
	return 1;
}

static int check_var(const char *name, const char *value, int allow_system,
		     struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	if (version_is_valid(value) ||
	    (allow_system && !strcmp(value, DOTFILE_SYSTEM)))
		return CUENV_OK;
	buf_add_display(&shown, value, 64);
	cuenv_fail(err, CUENV_E_MANIFEST, "invalid version '%s' in %s",
		   shown.data, name);
	buf_release(&shown);
	return err->rc;
}

static int from_env(const struct select_in *in, struct selection *sel,
		    struct cuenv_err *err)
{
	int rc = check_var("CUENV_VERSION", in->env_cuda, 1, err);

	if (!rc && in->env_cudnn)
		rc = check_var("CUENV_CUDNN_VERSION", in->env_cudnn, 0, err);
	if (!rc && in->env_cupti)
		rc = check_var("CUENV_CUPTI_VERSION", in->env_cupti, 0, err);
	if (rc)
		return rc;
	sel->cuda = xstrdup(in->env_cuda);
	sel->cudnn = in->env_cudnn ? xstrdup(in->env_cudnn) : NULL;
	sel->cupti = in->env_cupti ? xstrdup(in->env_cupti) : NULL;
	sel->isolate = in->env_isolate && !strcmp(in->env_isolate, "1");
	sel->origin = SEL_SHELL;
	sel->origin_path = xstrdup("CUENV_VERSION");
	return CUENV_OK;
}

int select_find(const struct select_in *in, struct selection *sel,
		struct cuenv_err *err)
{
	struct buf dir = BUF_INIT, file = BUF_INIT;
	struct dotfile df;
	int rc = CUENV_OK, found = 0;

	selection_init(sel);
	dotfile_init(&df);
	if (in->env_cuda && *in->env_cuda) {
		rc = from_env(in, sel, err);
		goto out;
	}

	/* Walk up from the working directory. */
	buf_adds(&dir, in->cwd);
	for (;;) {
		buf_reset(&file);
		buf_path(&file, dir.data, ".cuenv");
		rc = dotfile_read(file.data, &df, err);
		if (rc == CUENV_NO) {
			/* A folder of that name (the root) is neither. */
			if (!store_is_dir(file.data))
				strv_push(&sel->absent, file.data);
			rc = CUENV_OK;
		} else {
			strv_push(&sel->watch, file.data);
			if (rc)
				goto out;
			found = take_file(sel, &df, SEL_FILE, file.data);
			dotfile_release(&df);
			if (found)
				goto out;
		}
		if (!plat_path_up(&dir))
			break;
	}

	buf_reset(&file);
	buf_path(&file, in->root, "version");
	rc = dotfile_read(file.data, &df, err);
	if (rc == CUENV_NO) {
		strv_push(&sel->absent, file.data);
		rc = CUENV_OK;
	} else {
		strv_push(&sel->watch, file.data);
		if (!rc)
			take_file(sel, &df, SEL_GLOBAL, file.data);
	}
out:
	dotfile_release(&df);
	buf_release(&dir);
	buf_release(&file);
	return rc;
}

size_t select_named(const struct store_version_list *l, const char *spec,
		    const struct store_version **hit, struct buf *names)
{
	size_t hits = 0;

	*hit = NULL;
	/* An exact name wins; then exact versions; then prefixes. */
	for (int pass = 0; pass < 3 && !hits; pass++) {
		for (size_t i = 0; i < l->n; i++) {
			const struct store_version *in = l->v[i];
			int match = pass == 0 ? !strcmp(in->name, spec)
				    : pass == 1
					    ? !strcmp(in->version, spec)
					    : version_matches_str(in->version,
								  spec);

			if (!match)
				continue;
			*hit = in;
			hits++;
			buf_adds(names, hits > 1 ? ", " : "");
			buf_adds(names, in->name);
		}
	}
	return hits;
}

const struct store_version *select_pick(const struct store_version_list *l,
					const char *spec, unsigned cuda_major)
{
	struct version vs;

	const struct store_version *newest = NULL;

	if (version_parse(spec, &vs))
		return NULL;
	for (size_t i = l->n; i-- > 0;) {
		struct version v;

		if (cuda_major && l->v[i]->cuda_major != cuda_major)
			continue;
		if (version_parse(l->v[i]->version, &v) ||
		    !version_matches(&v, &vs))
			continue;
		/* the version itself, as pyenv picks a version's own name */
		if (v.n == vs.n)
			return l->v[i];
		if (!newest)
			newest = l->v[i];
	}
	return newest;
}

static void list_versions(const struct store_version_list *l,
			  unsigned cuda_major, struct buf *out)
{
	size_t shown = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (cuda_major && l->v[i]->cuda_major != cuda_major)
			continue;
		buf_adds(out, shown++ ? ", " : "");
		buf_adds(out, l->v[i]->version);
	}
	if (!shown)
		buf_adds(out, "none");
}

int select_resolve(const struct selection *sel,
		   const struct store_version_list *cudas,
		   const struct store_version_list *cudnns,
		   const struct store_version_list *cuptis, struct active *act,
		   struct cuenv_err *err)
{
	struct buf why = BUF_INIT, have = BUF_INIT;
	int rc = CUENV_OK;

	memset(act, 0, sizeof(*act));
	act->isolate = sel->isolate;
	if (sel->origin != SEL_NONE) {
		buf_adds(&why, " (");
		selection_describe_origin(sel, &why);
		buf_addc(&why, ')');
	}
	act->cuda = select_pick(cudas, sel->cuda, 0);
	if (!act->cuda) {
		list_versions(cudas, 0, &have);
		rc = cuenv_fail(err, CUENV_E_NOT_INSTALLED,
				"cuda %s is not installed%s; installed: %s",
				sel->cuda, why.data, have.data);
		cuenv_hint(err,
			   SELECT_HINT_INSTALL "%s, or register one: "
					       "cuenv add cuda PATH",
			   sel->cuda);
		goto out;
	}
	if (sel->cudnn) {
		unsigned major = act->cuda->cuda_major;

		act->cudnn = select_pick(cudnns, sel->cudnn, major);
		if (!act->cudnn) {
			list_versions(cudnns, major, &have);
			rc = cuenv_fail(err, CUENV_E_NOT_INSTALLED,
					"cudnn %s for CUDA %u is not installed"
					"%s; installed for CUDA %u: %s",
					sel->cudnn, major, why.data, major,
					have.data);
			cuenv_hint(err,
				   "install it: cuenv install %s --cudnn %s",
				   act->cuda->version, sel->cudnn);
			goto out;
		}
	}
	if (sel->cupti) {
		act->cupti = cuptis ? select_pick(cuptis, sel->cupti, 0) : NULL;
		if (!act->cupti)
			act->cupti = select_pick(cudas, sel->cupti, 0);
		if (!act->cupti || !act->cupti->cupti.n) {
			rc = cuenv_fail(err, CUENV_E_NOT_INSTALLED,
					"no installed CUDA %s provides "
					"CUPTI%s",
					sel->cupti, why.data);
			cuenv_hint(err,
				   "install it: cuenv install %s --cupti %s",
				   act->cuda->version, sel->cupti);
			act->cupti = NULL;
			goto out;
		}
	}
out:
	buf_release(&why);
	buf_release(&have);
	return rc;
}

int select_install(struct store *st, const char *command, int nwords,
		   char **words, struct store_version_list *list,
		   const struct store_version **found, struct cuenv_err *err)
{
	enum kit_kind kind = KIT_CUDA;
	const char *spec;
	const struct store_version *hit = NULL;
	size_t hits = 0;
	struct buf names = BUF_INIT;
	int rc;

	*found = NULL;
	if (nwords == 2 && kit_kind_parse(words[0], &kind)) {
		cuenv_fail(err, CUENV_E_USAGE, "%s: '%s' is not cuda or cudnn",
			   command, words[0]);
		return cuenv_hint(err, "see: cuenv %s --help", command);
	}
	spec = words[nwords - 1];
	rc = store_list(st, kind, list, err);
	if (rc)
		return rc;
	hits = select_named(list, spec, &hit, &names);
	if (hits == 1) {
		*found = hit;
	} else if (!hits) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, spec, 64);
		rc = cuenv_fail(err, CUENV_E_NOT_INSTALLED,
				"%s %s is not in the store",
				kit_kind_name(kind), shown.data);
		cuenv_hint(err, "see: cuenv versions");
		buf_release(&shown);
	} else {
		rc = cuenv_fail(err, CUENV_E_USAGE, "%s %s is ambiguous: %s",
				kit_kind_name(kind), spec, names.data);
		cuenv_hint(err, "name one exactly");
	}
	buf_release(&names);
	return rc;
}

/* Keep v in *best when it matches spec and is newer. */
static void consider(const char *v, const char *spec, const char **best)
{
	if (version_matches_str(v, spec) &&
	    (!*best || version_cmp_str(v, *best) > 0))
		*best = v;
}

int select_latest(enum kit_kind kind, const char *spec,
		  const struct store_version_list *installed,
		  const struct catalog *cat, const char **best,
		  struct cuenv_err *err)
{
	*best = NULL;
	if (cat) {
		for (size_t i = 0; i < cat->n; i++)
			if (cat->v[i]->kind == kind)
				consider(cat->v[i]->version, spec, best);
	} else {
		for (size_t i = 0; i < installed->n; i++)
			consider(installed->v[i]->version, spec, best);
	}
	if (*best)
		return CUENV_OK;
	cuenv_fail(err, CUENV_NO, "no %s %s %s", kit_kind_name(kind), spec,
		   cat ? "in the catalogue" : "installed");
	return cuenv_hint(err, cat ? "see: cuenv list-remote"
				   : "see: cuenv versions, or cuenv latest "
				     "--known SPEC");
}

int select_prefix_spec(const char *spec, struct cuenv_err *err)
{
	if (!strcmp(spec, "system")) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "prefix: system is the machine's own CUDA, not "
			   "cuenv's");
		return cuenv_hint(err, "see: cuenv versions");
	}
	return version_check("cuda", spec, 0, err);
}

int select_prefix(const char *spec, const struct store_version_list *cudas,
		  const struct store_version_list *cudnns,
		  const struct store_version_list *cuptis, const char **prefix,
		  struct cuenv_err *err)
{
	struct selection sel;
	struct active act;
	int rc;

	selection_init(&sel);
	sel.cuda = (char *)spec; /* borrowed: sel is not released */
	rc = select_resolve(&sel, cudas, cudnns, cuptis, &act, err);
	*prefix = !rc && act.cuda ? act.cuda->prefix : NULL;
	return rc;
}

/* ---- who uses an install ------------------------------------------------ */

static int same_install(const struct store_version *a,
			const struct store_version *b)
{
	return a && a->kind == b->kind && !strcmp(a->dir, b->dir);
}

/* Does sel, resolved as select_resolve would against l, give target? */
static int sel_uses(const struct selection *sel, const struct select_lists *l,
		    const struct store_version *target)
{
	const struct store_version *cuda, *cupti = NULL;

	if (!sel->cuda)
		return 0;
	cuda = select_pick(l->cudas, sel->cuda, 0);
	if (!cuda)
		return 0;
	if (same_install(cuda, target))
		return 1;
	if (sel->cudnn &&
	    same_install(select_pick(l->cudnns, sel->cudnn, cuda->cuda_major),
			 target))
		return 1;
	if (sel->cupti) {
		cupti = l->cuptis ? select_pick(l->cuptis, sel->cupti, 0)
				  : NULL;
		if (!cupti)
			cupti = select_pick(l->cudas, sel->cupti, 0);
	}
	return same_install(cupti, target);
}

void select_users(const struct select_in *in, const struct select_lists *l,
		  const struct store_version *target, struct strv *who)
{
	struct select_in files = *in;
	struct selection sel;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;
	struct buf path = BUF_INIT, said = BUF_INIT;

	/* The shell's, when it has one. */
	selection_init(&sel);
	if (in->env_cuda && *in->env_cuda && !from_env(in, &sel, &err) &&
	    sel_uses(&sel, l, target))
		strv_push(who, "this shell's CUENV_VERSION");
	selection_release(&sel);

	/* The project's: the walk, with no shell selection in front. */
	files.env_cuda = NULL;
	if (!select_find(&files, &sel, &err) && sel.origin == SEL_FILE &&
	    sel_uses(&sel, l, target)) {
		buf_add_display(&said, sel.origin_path, 4096);
		strv_push(who, said.data);
		buf_reset(&said);
	}
	selection_release(&sel);

	/* The global default, even where a project's file hides it. */
	selection_init(&sel);
	dotfile_init(&df);
	buf_path(&path, in->root, "version");
	if (!dotfile_read(path.data, &df, &err) &&
	    take_file(&sel, &df, SEL_GLOBAL, path.data) &&
	    sel_uses(&sel, l, target)) {
		buf_adds(&said, "the global default (");
		buf_add_display(&said, path.data, 4096);
		buf_addc(&said, ')');
		strv_push(who, said.data);
	}
	selection_release(&sel);
	dotfile_release(&df);
	err_release(&err);
	buf_release(&path);
	buf_release(&said);
}
