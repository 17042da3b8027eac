/*
 * explain_loader.c: explain's findings judged by the loader model on
 * this machine (see explain_loader.h).
 */
#include "explain/explain_loader.h"

#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "plat/file.h"
#include "artifact/loader.h"
#include "plat/plat_fs.h"
#include "artifact/pyload.h"
#include "artifact/pyobs.h"
#include "plat/envmap.h"
#include "plat/shell.h"
#include "base/version.h"
#include "base/xalloc.h"

/* What the model loads for a finding in one environment. */
struct verdict {
	char *file; /* the copy loaded, or NULL (none) */
	enum loader_source from;
	char *version;	 /* its version, or NULL */
	bool ok;	 /* it satisfies the finding */
	char *mixed;	 /* a cuDNN sub-library from another folder, or NULL */
	char *mixed_dir; /* its folder, when LD_LIBRARY_PATH gave it */
	char *rpath;	 /* EXPLAIN_SYMBOL: the asker's RUNPATH (or RPATH) */
	char *observed;	 /* the python whose import was observed, or NULL */
	char *error;	 /* that import's error, or NULL */
};

static void verdict_release(struct verdict *v)
{
	FREE_EACH(v->file, v->version, v->rpath, v->mixed, v->mixed_dir,
		  v->observed, v->error);
	memset(v, 0, sizeof(*v));
}

/* Does a copy with versions v define sym at version ver? One without
 * version definitions matches any version (glibc's check_match). No sym
 * ("version V not found"): does it define the node ver at all? glibc
 * only warns of a copy without version definitions. */
static bool defines(const struct elf_symvers *v, const char *sym,
		    const char *ver)
{
	if (!sym)
		return !v->have_verdef ||
		       strv_find(&v->defined_versions, ver) >= 0;
	return elf_symvers_defines(v, sym, ver) ||
	       (!v->have_verdef && elf_symvers_defines(v, sym, NULL));
}

/* Is version at least built, in built's major? */
static bool new_enough(const char *version, const char *built)
{
	return version && built &&
	       version_major(version) == version_major(built) &&
	       version_cmp_str(version, built) >= 0;
}

static char *file_version(const char *path)
{
	struct buf b = BUF_INIT;

	if (pyload_file_version(path, &b))
		return buf_detach(&b);
	buf_release(&b);
	return NULL;
}

/* The name a finding's copies go by: libnvJitLink.so.12, libcudnn.so.9. */
static const char *wanted(const struct explain_finding *f)
{
	return f->kind == EXPLAIN_SYMBOL && f->symbol ? f->symver : f->soname;
}

/*
 * The framework's own dlopen(name) (TensorFlow's and XLA's DSO loader ask
 * for libcudnn.so.M by name whether or not a wheel of the environment
 * ships it), from its dlopener with that object's search path.
 */
static void framework_dlopen(struct loader *l, const struct pyload_fw *fw,
			     const char *name)
{
	size_t by = LOADER_NONE, idx;

	if (!fw->dlopener)
		return;
	for (size_t i = 0; i < l->nobj && by == LOADER_NONE; i++)
		if (!strcmp(l->obj[i].path, fw->dlopener))
			by = i;
	if (by == LOADER_NONE &&
	    loader_dlopen(l, LOADER_NONE, fw->dlopener, &by) != CUENV_OK)
		return;
	loader_dlopen(l, by, name, &idx);
}

/*
 * The python of site (PREFIX/lib/pythonX.Y/site-packages):
 * PREFIX/bin/pythonX.Y, heap, or NULL when there is none.
 */
static char *site_python(const char *site)
{
	const struct plat_path_rules *sep = plat_path_native();
	char *lib = plat_path_parent(sep, site);
	char *top = lib ? plat_path_parent(sep, lib) : NULL;
	char *prefix = top ? plat_path_parent(sep, top) : NULL;
	const char *ver = lib ? plat_path_last(lib) : NULL;
	struct buf py = BUF_INIT;
	struct plat_stat st;

	if (prefix && ver && !strncmp(ver, "python", 6)) {
		buf_path(&py, prefix, "bin");
		buf_path(&py, py.data, ver);
	}
	FREE_EACH(lib, top, prefix);
	if (!py.len || plat_stat(py.data, &st) || st.type != PLAT_F_REG) {
		buf_release(&py);
		return NULL;
	}
	return buf_detach(&py);
}

/*
 * fw imported in a child of its site's python with the environment
 * programs get here, LD_LIBRARY_PATH ld (NULL: unset), into obs; false
 * when nothing ran (--no-import, no python there, no answer).
 */
static bool observe(const struct pyload_fw *fw,
		    const struct explain_model_in *mi, const char *ld,
		    struct pyobs *obs, char **python)
{
	struct envmap env = ENVMAP_INIT;

	*python = mi->envp ? site_python(fw->site) : NULL;
	if (!*python)
		return false;
	envmap_from(&env, mi->envp);
	if (ld)
		envmap_set(&env, "LD_LIBRARY_PATH", ld);
	else
		envmap_unset(&env, "LD_LIBRARY_PATH");
	pyobs_run(*python, env.vars.v, fw->name, fw->calls, mi->import_ms, obs);
	envmap_release(&env);
	if (!obs->ran)
		FREE_EACH(*python);
	return obs->ran;
}

static void judge(const struct explain_finding *f, const struct pyload_fw *fw,
		  const struct explain_model_in *mi, const char *ld,
		  struct verdict *v)
{
	struct loader_env env = {
		.library_path = ld,
		.cache = mi->cache,
		.defaults = mi->defaults,
		.platform = mi->platform,
		.lib = mi->lib,
	};
	const struct loader_obj *o;
	struct loader l;
	size_t idx;

	memset(v, 0, sizeof(*v));
	loader_init(&l, &env);
	if (f->kind == EXPLAIN_SYMBOL) {
		if (!loader_dlopen(&l, LOADER_NONE, f->path, &idx)) {
			const struct elf_info *e = &l.obj[idx].elf;
			const char *list = e->runpath ? e->runpath : e->rpath;

			v->rpath = list ? xstrdup(list) : NULL;
		}
	} else if (fw) {
		struct pyload_span span;
		struct pyload_issues is = { 0 };
		struct pyobs obs = { 0 };

		if (observe(fw, mi, ld, &obs, &v->observed)) {
			/* what it mapped is fact; its error the verdict */
			pyload_observed(&l, &obs, fw, &span);
			if (!obs.imported && obs.error)
				v->error = xstrdup(obs.error);
		} else {
			/* TensorFlow and JAX dlopen cuDNN when they compute;
			 * torch needs it at import */
			pyload_predict(&l, NULL, fw, fw->dlopener != NULL,
				       &span);
		}
		pyobs_release(&obs);
		if (!loader_find(&l, wanted(f)))
			framework_dlopen(&l, fw, wanted(f));
		/* sub-libraries from elsewhere: a mixed cuDNN, whatever the
		 * front library's version */
		pyload_judge(&l, &span, fw, &is);
		for (size_t i = 0; i < is.n && !v->mixed; i++)
			if (is.v[i].kind == PYLOAD_MIXED) {
				struct buf m = BUF_INIT;

				buf_printf(&m, "%s from ", is.v[i].name);
				buf_add_display(&m, is.v[i].path, 4096);
				v->mixed = buf_detach(&m);
				if (is.v[i].source &&
				    !strcmp(is.v[i].source,
					    loader_source_name(
						    LOADER_LIBRARY_PATH)))
					v->mixed_dir = plat_path_parent(
						plat_path_native(),
						is.v[i].path);
			}
		pyload_issues_release(&is);
	}
	o = loader_find(&l, wanted(f));
	if (o) {
		v->file = xstrdup(o->path);
		v->from = o->source;
		v->version = file_version(o->path);
		v->ok = f->kind == EXPLAIN_SYMBOL
				? defines(&o->vers, f->symbol, f->symver)
				: new_enough(v->version, f->built) && !v->mixed;
	}
	v->ok &= !v->error; /* the observed import failed */
	loader_release(&l);
}

/* ---- the copies on this machine ------------------------------------------ */

/* Does the file at path satisfy f (read now)? */
static bool copy_satisfies(const struct explain_finding *f, const char *path,
			   const char *version)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct elf_symvers v;
	struct file_map m;
	bool ok = false;

	if (f->kind != EXPLAIN_SYMBOL)
		return new_enough(version, f->built);
	elf_symvers_init(&v);
	if (!file_map(path, 1, &m, &err) &&
	    !elf_parse_symvers(m.data, m.len, path, &v, &err))
		ok = defines(&v, f->symbol, f->symver);
	file_unmap(&m);
	elf_symvers_release(&v);
	err_release(&err);
	return ok;
}

/* Add dir/name to f's copies as where, once (by its real path). */
static void add_copy(struct explain_finding *f, const char *dir,
		     const char *where, const char *version)
{
	struct buf path = BUF_INIT;
	struct plat_stat st;
	struct explain_copy *c;
	char *real = NULL;

	buf_path(&path, dir, wanted(f));
	if (plat_stat(path.data, &st) || st.type != PLAT_F_REG)
		goto out;
	real = plat_realpath(path.data);
	for (size_t i = 0; real && i < f->ncopies; i++) {
		char *other = plat_realpath(f->copies[i].path);
		bool same = other && !strcmp(other, real);

		free(other);
		if (same)
			goto out;
	}
	f->copies = xrealloc(f->copies, (f->ncopies + 1) * sizeof(*f->copies));
	c = &f->copies[f->ncopies++];
	c->path = buf_detach(&path);
	c->where = xstrdup(where);
	c->version = version ? xstrdup(version) : file_version(c->path);
	c->satisfies = copy_satisfies(f, c->path, c->version);
out:
	free(real);
	buf_release(&path);
}

/* The site-packages folder path is in ("/v/lib/python3.11/site-packages"
 * of ".../site-packages/nvidia/cusparse/lib/x.so"), or NULL. */
static char *site_of(const char *path)
{
	const char *p = path ? strstr(path, "/site-packages/") : NULL;

	return p ? xstrndup(path, (size_t)(p - path) + 14) : NULL;
}

/* Each site/nvidia/NAME/lib folder. */
static void wheel_copies(struct explain_finding *f, const char *site)
{
	struct buf top = BUF_INIT, dir = BUF_INIT;
	struct strv names = STRV_INIT;
	struct plat_dir *d;
	const char *ent;

	if (!site)
		return;
	buf_path(&top, site, "nvidia");
	d = plat_opendir(top.data);
	while (d && (ent = plat_readdir(d)))
		if (*ent != '.')
			strv_push(&names, ent);
	if (d)
		plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&dir);
		buf_printf(&dir, "%s/%s/lib", top.data, names.v[i]);
		add_copy(f, dir.data, "the environment's wheels", NULL);
	}
	strv_release(&names);
	BUF_RELEASE_EACH(&top, &dir);
}

static void find_copies(struct explain_finding *f,
			const struct explain_model_in *mi,
			const struct verdict *now, const char *site)
{
	const struct store_version_list *list;
	struct strv dirs = STRV_INIT;
	struct buf b = BUF_INIT, origin = BUF_INIT;
	struct loader_env env = { .platform = mi->platform, .lib = mi->lib };

	/* beside the asker: its own RUNPATH ($ORIGIN/../../nvjitlink/lib) */
	if (now->rpath) {
		const char *slash = strrchr(f->path, '/');

		buf_add(&origin, f->path, (size_t)(slash - f->path));
		strv_split(&dirs, now->rpath, ':');
		for (size_t i = 0; i < dirs.n; i++)
			if (loader_expand(&env, origin.data, dirs.v[i], &b))
				add_copy(f, b.data,
					 site && !strncmp(b.data, site,
							  strlen(site))
						 ? "the environment's wheel, "
						   "on the asking library's "
						   "RUNPATH"
						 : "on the asking library's "
						   "RUNPATH",
					 NULL);
		strv_release(&dirs);
	}
	wheel_copies(f, site);
	if (mi->library_path)
		strv_split(&dirs, mi->library_path, ':');
	for (size_t i = 0; i < dirs.n; i++)
		if (*dirs.v[i])
			add_copy(f, dirs.v[i], "LD_LIBRARY_PATH", NULL);
	strv_release(&dirs);
	switch (mi->in ? nvlib_kit(f->lib) : NVLIB_KIT_OTHER) {
	case NVLIB_KIT_CUDA:
		list = &mi->in->cudas;
		break;
	case NVLIB_KIT_CUDNN:
		list = &mi->in->cudnns;
		break;
	default:
		list = NULL;
	}
	for (size_t i = list ? list->n : 0; i-- > 0;) {
		const struct store_version *in = list->v[i];

		buf_reset(&b);
		buf_printf(&b, "%s %s (%s)",
			   in->kind == KIT_CUDNN ? "cudnn" : "cuda",
			   in->version,
			   in->registered ? "registered" : "installed");
		for (size_t k = 0; k < in->lib.n; k++)
			add_copy(f, in->lib.v[k], b.data,
				 in->kind == KIT_CUDNN ? in->version : NULL);
	}
	for (size_t i = 0; mi->cache && i < mi->cache->n; i++) {
		const struct ldcache_entry *e = &mi->cache->v[i];
		const char *slash = strrchr(e->path, '/');

		if (strcmp(e->soname, wanted(f)) || !slash)
			continue;
		buf_reset(&b);
		buf_add(&b, e->path, (size_t)(slash - e->path));
		add_copy(f, b.data, "ld.so.cache", NULL);
	}
	BUF_RELEASE_EACH(&b, &origin);
}

/* ---- fixes, each checked ------------------------------------------------- */

/* A ':' list's entries other than drop (and empty ones), joined. */
static void without(const char *list, const char *drop, struct buf *out)
{
	struct strv v = STRV_INIT, kept = STRV_INIT;

	buf_reset(out);
	if (list)
		strv_split(&v, list, ':');
	for (size_t i = 0; i < v.n; i++)
		if (*v.v[i] && strcmp(v.v[i], drop))
			strv_push(&kept, v.v[i]);
	strv_join(&kept, ':', out);
	STRV_RELEASE_EACH(&v, &kept);
}

static bool in_list(const char *list, const char *dir)
{
	struct strv v = STRV_INIT;
	bool yes;

	if (!list)
		return false;
	strv_split(&v, list, ':');
	yes = strv_find(&v, dir) >= 0;
	strv_release(&v);
	return yes;
}

/* Push cmd onto fixes when the model says f is satisfied under ld. */
static void try_fix(const struct explain_finding *f, const struct pyload_fw *fw,
		    const struct explain_model_in *mi, const char *ld,
		    const char *cmd, struct strv *fixes)
{
	struct verdict v;

	judge(f, fw, mi, ld, &v);
	if (v.ok && strv_find(fixes, cmd) < 0)
		strv_push(fixes, cmd);
	verdict_release(&v);
}

/* The folder of the bad copy, when it came from LD_LIBRARY_PATH. */
static char *bad_folder(const struct explain_finding *f, const char *ld)
{
	const char *slash;
	char *dir;

	/* a mixed cuDNN: the folder of the sub-library from elsewhere */
	if (f->model_mixed_dir && !f->model_ok)
		return xstrdup(f->model_mixed_dir);
	if (!f->model_file || f->model_ok ||
	    !(slash = strrchr(f->model_file, '/')))
		return NULL;
	dir = xstrndup(f->model_file, (size_t)(slash - f->model_file));
	/* what the import mapped came from where it is: LD_LIBRARY_PATH's
	 * when its folder is one of them */
	if (!strcmp(f->model_from, loader_source_name(LOADER_LIBRARY_PATH)) ||
	    (!strcmp(f->model_from, loader_source_name(LOADER_MAPPED)) && ld &&
	     in_list(ld, dir)))
		return dir;
	free(dir);
	return NULL;
}

/* The installed CUDA a cuDNN built for CUDA major goes with: the one
 * selected now when it is of that major, else the newest of it. */
static const struct store_version *cuda_for(const struct explain_model_in *mi,
					    unsigned major)
{
	const struct store_version_list *list = &mi->in->cudas;

	for (size_t k = list->n; mi->cuda && k-- > 0;)
		if (list->v[k]->cuda_major == major &&
		    !strcmp(list->v[k]->version, mi->cuda))
			return list->v[k];
	for (size_t k = list->n; k-- > 0;)
		if (list->v[k]->cuda_major == major)
			return list->v[k];
	return NULL;
}

/*
 * Selecting an installed cuDNN of the built major, at least built (the
 * newest first), with a CUDA of the major it was built for: its folders
 * come first on LD_LIBRARY_PATH (the activation's order), then what was
 * there without a selection (after). The first the model says satisfies
 * is the fix.
 */
static void cudnn_fix(const struct explain_finding *f,
		      const struct pyload_fw *fw,
		      const struct explain_model_in *mi, const char *after,
		      struct strv *fixes)
{
	const struct store_version_list *list;
	struct buf ld = BUF_INIT, cmd = BUF_INIT;

	if (!mi->select || !mi->in)
		return;
	list = &mi->in->cudnns;
	for (size_t k = list->n; k-- > 0;) {
		const struct store_version *dn = list->v[k];
		const struct store_version *cuda = cuda_for(mi, dn->cuda_major);
		size_t before = fixes->n;

		if (!cuda || !new_enough(dn->version, f->built))
			continue;
		buf_reset(&ld);
		for (size_t i = 0; i < dn->lib.n; i++)
			buf_printf(&ld, "%s%s", ld.len ? ":" : "",
				   dn->lib.v[i]);
		for (size_t i = 0; i < cuda->lib.n; i++)
			buf_printf(&ld, "%s%s", ld.len ? ":" : "",
				   cuda->lib.v[i]);
		if (after && *after)
			buf_printf(&ld, "%s%s", ld.len ? ":" : "", after);
		buf_reset(&cmd);
		buf_printf(&cmd, "%s ", mi->select);
		shell_quote_word(&cmd, cuda->version);
		buf_adds(&cmd, " --cudnn ");
		shell_quote_word(&cmd, dn->version);
		try_fix(f, fw, mi, ld.data, cmd.data, fixes);
		if (fixes->n > before)
			break;
	}
	BUF_RELEASE_EACH(&ld, &cmd);
}

static void fixes_for(struct explain_finding *f, const struct pyload_fw *fw,
		      const struct explain_model_in *mi, struct strv *fixes)
{
	const char *cur = mi->library_path;
	const char *base = mi->base_path;
	bool sel = base && mi->drop && (!cur || strcmp(base, cur));
	char *bad = bad_folder(f, cur);
	struct buf ld = BUF_INIT, kept = BUF_INIT, cmd = BUF_INIT;

	f->by_selection = bad && sel && !in_list(base, bad);
	if (f->model_ok)
		goto out;
	/* 1. the selection off: LD_LIBRARY_PATH as it was before it */
	if (sel)
		try_fix(f, fw, mi, *base ? base : NULL, mi->drop, fixes);
	/* 2. LD_LIBRARY_PATH without a folder that is not the selection's */
	if (bad && (!sel || in_list(base, bad))) {
		without(cur, bad, &ld);
		without(sel ? base : cur, bad, &kept);
		if (kept.len) {
			buf_adds(&cmd, "export LD_LIBRARY_PATH=");
			shell_quote_word(&cmd, kept.data);
		} else {
			buf_adds(&cmd, "unset LD_LIBRARY_PATH");
		}
		try_fix(f, fw, mi, ld.len ? ld.data : NULL, cmd.data, fixes);
	}
	/* 3. an installed version whose copy satisfies, its folder first */
	for (size_t i = 0; f->kind == EXPLAIN_SYMBOL && mi->select && mi->in &&
			   i < f->ncopies;
	     i++) {
		const struct store_version_list *list = &mi->in->cudas;

		if (!f->copies[i].satisfies ||
		    strncmp(f->copies[i].where, "cuda ", 5))
			continue;
		for (size_t k = list->n; k-- > 0;) {
			const struct store_version *in = list->v[k];
			const char *after = sel ? base : cur;

			if (!strstr(f->copies[i].where, in->version) ||
			    strncmp(f->copies[i].path, in->prefix,
				    strlen(in->prefix)))
				continue;
			buf_reset(&ld);
			strv_join(&in->lib, ':', &ld);
			if (after && *after)
				buf_printf(&ld, ":%s", after);
			buf_reset(&cmd);
			buf_printf(&cmd, "%s ", mi->select);
			shell_quote_word(&cmd, in->version);
			try_fix(f, fw, mi, ld.data, cmd.data, fixes);
			break;
		}
		break;
	}
	/* 4. an installed cuDNN new enough, with a CUDA of its major */
	if (f->kind == EXPLAIN_CUDNN_MISMATCH)
		cudnn_fix(f, fw, mi, sel ? base : cur, fixes);
out:
	free(bad);
	BUF_RELEASE_EACH(&ld, &kept, &cmd);
}

/* ---- the findings -------------------------------------------------------- */

static void take_verdict(struct explain_finding *f, struct verdict *now)
{
	f->modelled = true;
	f->model_file = now->file;
	f->model_from = now->file ? loader_source_name(now->from) : NULL;
	f->model_version = now->version;
	f->model_ok = now->ok;
	f->model_mixed = now->mixed;
	f->model_mixed_dir = now->mixed_dir;
	f->model_observed = now->observed;
	f->model_error = now->error;
	now->file = now->version = now->mixed = now->mixed_dir = NULL;
	now->observed = now->error = NULL;
}

static void model_symbol(struct explain_finding *f,
			 const struct explain_model_in *mi, struct strv *fixes)
{
	struct plat_stat st;
	struct verdict now;
	char *site;

	if (!f->path || *f->path != '/' || plat_stat(f->path, &st) ||
	    st.type != PLAT_F_REG) {
		f->absent = xstrdup(f->path ? "not on this machine (a log from "
					      "elsewhere?): read from the "
					      "text only"
					    : "the text names no file");
		return;
	}
	site = site_of(f->path);
	judge(f, NULL, mi, mi->library_path, &now);
	take_verdict(f, &now);
	find_copies(f, mi, &now, site);
	verdict_release(&now);
	f->site = site;
	fixes_for(f, NULL, mi, fixes);
}

/* Is the framework pyload calls name the one the text says printed the
 * mismatch ("torch", "tensorflow", "jax"; "xla": TensorFlow or JAX)? */
static bool printed_by(const char *who, const char *name)
{
	if (!strcmp(who, "xla"))
		return !strcmp(name, "tensorflow") || !strcmp(name, "jax");
	return !strcmp(who, name);
}

static void model_mismatch(struct explain_finding *f, const char *site,
			   const struct explain_model_in *mi,
			   struct strv *fixes)
{
	struct pyload_fws fws = { 0 };
	struct strv sites = STRV_INIT;
	struct verdict now;
	const struct pyload_fw *fw = NULL;

	if (!site) {
		f->absent = xstrdup("the text names no site-packages folder "
				    "and no Python environment is in use");
		return;
	}
	strv_push(&sites, site);
	pyload_find(&sites, &fws);
	for (size_t i = 0; i < fws.n && !fw; i++)
		if (printed_by(f->framework, fws.v[i].name))
			fw = &fws.v[i];
	if (!fw) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "no %s built for CUDA in ",
			   !strcmp(f->framework, "xla") ? "tensorflow or jax"
							: f->framework);
		buf_add_display(&b, site, 4096);
		buf_adds(&b, " on this machine: read from the text only");
		f->absent = buf_detach(&b);
		goto out;
	}
	f->site = xstrdup(site);
	judge(f, fw, mi, mi->library_path, &now);
	take_verdict(f, &now);
	find_copies(f, mi, &now, site);
	verdict_release(&now);
	fixes_for(f, fw, mi, fixes);
out:
	pyload_fws_release(&fws);
	strv_release(&sites);
}

void explain_model(struct explain *ex, struct explain_fix *fx,
		   const struct explain_model_in *mi)
{
	struct strv fixes = STRV_INIT;
	const char *site = ex->ctx.site ? ex->ctx.site : mi->site;

	for (size_t i = 0; i < ex->n; i++) {
		struct explain_finding *f = &ex->v[i];

		if (f->kind == EXPLAIN_SYMBOL && f->lib)
			model_symbol(f, mi, &fixes);
		else if (f->kind == EXPLAIN_CUDNN_MISMATCH && f->soname)
			model_mismatch(f, site, mi, &fixes);
	}
	/* the checked fixes first, then what needs decided */
	for (size_t i = 0; i < fx->lines.n; i++)
		if (strv_find(&fixes, fx->lines.v[i]) < 0)
			strv_push(&fixes, fx->lines.v[i]);
	strv_release(&fx->lines);
	fx->lines = fixes;
}
