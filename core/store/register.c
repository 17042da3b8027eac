/*
 * register.c: `cuenv add`'s decisions about what it found (see the
 * header).
 */
#include "store/register.h"

#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "store/detect.h"
#include "plat/envmap.h"
#include "store/ldsearch.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "store/trust.h"
#include "base/version.h"
#include "base/xalloc.h"

int register_listable(const struct store_version *in, struct cuenv_err *err)
{
	const struct strv *lists[] = { &in->bin, &in->lib, &in->include,
				       &in->cupti };
	int rc = trust_check_listable(in->prefix, "the folder", err);

	for (size_t k = 0; !rc && k < sizeof(lists) / sizeof(*lists); k++)
		for (size_t i = 0; !rc && i < lists[k]->n; i++)
			rc = trust_check_listable(lists[k]->v[i], "the folder",
						  err);
	return rc;
}

int register_record(struct store *st, struct store_version *in,
		    struct cuenv_err *err)
{
	struct store_version_list list = { 0 };
	char *name = store_version_make_name(in);
	int rc = store_list(st, in->kind, &list, err);

	for (size_t i = 0; !rc && i < list.n; i++) {
		const struct store_version *old = list.v[i];

		if (strcmp(old->name, name))
			continue;
		if (old->registered && !strcmp(old->prefix, in->prefix)) {
			rc = CUENV_NO; /* nothing to do, not an error */
		} else {
			rc = cuenv_fail(err, CUENV_E_CONFLICT,
					"%s %s is already in the store (%s)",
					kit_kind_name(in->kind), name,
					old->registered ? old->prefix
							: "installed by cuenv");
			cuenv_hint(err,
				   "remove it first (cuenv remove %s %s), or "
				   "register this one under another version "
				   "with --as",
				   kit_kind_name(in->kind), name);
		}
	}
	if (!rc)
		rc = store_register(st, in, err);
	free(name);
	store_version_list_release(&list);
	return rc;
}

void register_already(const struct store_version *in, struct buf *out)
{
	char *name = store_version_make_name(in);

	buf_printf(out, "%s %s is already registered from %s\n",
		   kit_kind_name(in->kind), name, in->prefix);
	free(name);
}

void register_describe(const struct store_version *in, struct buf *out)
{
	buf_printf(out, "registered %s %s", kit_kind_name(in->kind),
		   in->version);
	if (in->kind == KIT_CUDNN)
		buf_printf(out, " for CUDA %u", in->cuda_major);
	buf_printf(out, " from %s", in->prefix);
	if (in->kind == KIT_CUDA)
		buf_printf(out, in->cupti.n ? " (CUPTI %s)" : " (no CUPTI)",
			   in->cupti_version ? in->cupti_version : "found");
	buf_adds(out, "\n");
}

/* ---- remove and uninstall ------------------------------------------------- */

/* Is path prefix, or a folder below it (a wheel's nvidia/cudnn)? */
static bool inside(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && (!path[n] || path[n] == '/');
}

int register_remove(struct store *st, const struct store_version *in,
		    struct buf *out, struct cuenv_err *err)
{
	struct store_version_list inner = { 0 };
	int rc;

	if (!in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was installed by cuenv, not registered",
				kit_kind_name(in->kind), in->name);
		cuenv_hint(err, "delete it: cuenv uninstall %s %s",
			   kit_kind_name(in->kind), in->name);
		return rc;
	}
	rc = store_delete(st, in, err);
	if (rc)
		return rc;
	buf_printf(out, "removed %s %s (%s, left in place)\n",
		   kit_kind_name(in->kind), in->name, in->prefix);
	if (in->kind != KIT_CUDA)
		return CUENV_OK;
	rc = store_list(st, KIT_CUDNN, &inner, err);
	for (size_t i = 0; !rc && i < inner.n; i++) {
		if (!inner.v[i]->registered ||
		    !inside(inner.v[i]->prefix, in->prefix))
			continue;
		rc = store_delete(st, inner.v[i], err);
		if (!rc)
			buf_printf(out, "removed cudnn %s (inside it)\n",
				   inner.v[i]->name);
	}
	store_version_list_release(&inner);
	return rc;
}

int register_uninstall(struct store *st, const struct store_version *in,
		       struct buf *out, struct cuenv_err *err)
{
	int rc;

	if (in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was registered from %s; cuenv does not "
				"delete files it did not install",
				kit_kind_name(in->kind), in->name, in->prefix);
		cuenv_hint(err, "unregister it: cuenv remove %s %s",
			   kit_kind_name(in->kind), in->name);
		return rc;
	}
	rc = store_delete(st, in, err);
	if (!rc)
		buf_printf(out, "uninstalled %s %s\n", kit_kind_name(in->kind),
			   in->name);
	return rc;
}

/* ---- cuenv add ----------------------------------------------------------- */

int register_add_kind(const char *word, const char *as, unsigned cuda_major,
		      enum kit_kind *kind, struct cuenv_err *err)
{
	int rc;

	if (kit_kind_parse(word, kind)) {
		cuenv_fail(err, CUENV_E_USAGE, "add: '%s' is not cuda or cudnn",
			   word);
		return cuenv_hint(err, "for example: cuenv add cuda "
				       "/usr/local/cuda-12.4");
	}
	if (as && (rc = version_check(kit_kind_name(*kind), as, 0, err)))
		return rc;
	if (*kind == KIT_CUDA && cuda_major)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "add: --cuda is for cudnn only");
	return CUENV_OK;
}

/* Register in; an identical registration already there is fine. */
static int record(const struct register_add *ra, struct store_version *in,
		  struct cuenv_err *err)
{
	struct buf said = BUF_INIT;
	int rc = register_record(ra->st, in, err);

	if (rc == CUENV_NO) {
		register_already(in, &said);
		ra->said(ra->ctx, said.data);
		rc = CUENV_OK;
	}
	buf_release(&said);
	return rc;
}

/* The runtime wheel's own version among in's notes ("12.1.105"), or NULL. */
static const char *runtime_wheel_version(const struct store_version *in)
{
	const char *stem = nvlib_get(NVLIB_CUDART)->wheel_dir;
	size_t n = strlen(stem);

	for (size_t i = 0; i < in->notes.n; i++) {
		const char *note = in->notes.v[i], *sp = strchr(note, ' ');

		if (sp && !strncmp(note, stem, n) &&
		    (note[n] == ' ' || note[n] == '_') &&
		    version_is_valid(sp + 1))
			return sp + 1;
	}
	return NULL;
}

/*
 * A toolkit named by what it holds (no --as) whose name another folder
 * has taken: a second venv's wheels, read as the same `12.1`. Its runtime
 * wheel's exact version ("12.1.105") names it instead, selectable as
 * such, and the command says so; when that is taken too, or there is
 * none, the conflict stands with its --as hint (issue 21 item 7).
 */
static int record_toolkit(const struct register_add *ra,
			  struct store_version *in, bool named,
			  struct cuenv_err *err)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	const char *exact = runtime_wheel_version(in);
	char *was;
	struct buf said = BUF_INIT;
	int rc = record(ra, in, err);

	if (rc != CUENV_E_CONFLICT || named || in->kind != KIT_CUDA || !exact ||
	    !strcmp(exact, in->version))
		return rc;
	was = in->version;
	in->version = xstrdup(exact);
	if (record(ra, in, &e)) {
		free(in->version);
		in->version = was;
		err_release(&e);
		return rc;
	}
	err_release(err);
	*err = (struct cuenv_err)CUENV_ERR_INIT;
	buf_printf(&said,
		   "cuda %s is registered from another folder: this one is "
		   "cuda %s, its runtime wheel's version (select it as %s)\n",
		   was, in->version, in->version);
	ra->said(ra->ctx, said.data);
	buf_release(&said);
	free(was);
	return CUENV_OK;
}

/*
 * The cuDNN inside a toolkit (a second venv's nvidia/cudnn): the same
 * release already registered from another folder is the same cuDNN, so
 * it is said and kept, not a conflict that would leave the toolkit
 * registered and the command failed (issue 21 item 7).
 */
static int record_inner(const struct register_add *ra, struct store_version *in,
			struct cuenv_err *err)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf said = BUF_INIT;
	int rc = record(ra, in, &e);

	if (rc == CUENV_E_CONFLICT) {
		buf_printf(&said, "%s: that copy, the same release, is used\n",
			   e.msg.data);
		ra->said(ra->ctx, said.data);
		rc = CUENV_OK;
	} else if (rc) {
		rc = cuenv_fail(err, rc, "%s", e.msg.data);
		if (e.hint.len)
			cuenv_hint(err, "%s", e.hint.data);
	}
	err_release(&e);
	buf_release(&said);
	return rc;
}

static void describe(const struct register_add *ra,
		     const struct store_version *in)
{
	struct buf line = BUF_INIT;

	register_describe(in, &line);
	ra->said(ra->ctx, line.data);
	buf_release(&line);
}

/*
 * The folders the loader searches without LD_LIBRARY_PATH (ldsearch.h;
 * CUENV_LD_SO_CONF and CUENV_LD_SO_CACHE name other files).
 */
static void loader_dirs(char *const *envp, struct strv *out)
{
	const char *conf_path = env_get(envp, "CUENV_LD_SO_CONF");
	const char *cache_path = env_get(envp, "CUENV_LD_SO_CACHE");

	ldsearch_dirs(conf_path && *conf_path ? conf_path : "/etc/ld.so.conf",
		      cache_path && *cache_path ? cache_path
						: "/etc/ld.so.cache",
		      out);
}

/*
 * A toolkit without nvcc (NVIDIA's runtime wheels in a site-packages)
 * gives CUDA_HOME a folder that builds nothing (the runtime wheel's
 * folder, store_version_cuda_home): said once, at add.
 */
static void warn_no_nvcc(const struct register_add *ra,
			 const struct store_version *in)
{
	static const char *const names[] = { "nvcc", "nvcc.exe" };
	struct buf w = BUF_INIT;
	char *home;

	if (in->kind != KIT_CUDA)
		return;
	for (size_t i = 0; i < in->bin.n; i++)
		for (size_t k = 0; k < 2; k++) {
			struct buf p = BUF_INIT;
			struct plat_stat st;
			bool there;

			buf_path(&p, in->bin.v[i], names[k]);
			there = !plat_stat(p.data, &st) &&
				st.type == PLAT_F_REG;
			buf_release(&p);
			if (there)
				return;
		}
	home = store_version_cuda_home(in);
	buf_printf(&w,
		   "cuda %s from %s has no bin/nvcc: CUDA_HOME and CUDA_PATH "
		   "name %s%s, but building CUDA code (a PyTorch extension) "
		   "needs a toolkit with nvcc (cuenv install %s)",
		   in->version, in->prefix, home,
		   strcmp(home, in->prefix) ? " (its headers and libraries)"
					    : "",
		   in->version);
	ra->warn(ra->ctx, w.data);
	buf_release(&w);
	free(home);
}

/*
 * What the loader would find of the found installs (first, and the
 * cuDNN inside a toolkit: also), checked, then recorded and described.
 */
static int add_found(const struct register_add *ra, struct store_version *first,
		     struct store_version *also, bool named,
		     struct cuenv_err *err)
{
	struct strv searched = STRV_INIT;
	int rc;

	loader_dirs(ra->envp, &searched);
	detect_activation(first, &searched);
	if (also)
		detect_activation(also, &searched);
	strv_release(&searched);
	rc = register_listable(first, err);
	if (!rc && also)
		rc = register_listable(also, err);
	if (!rc)
		rc = record_toolkit(ra, first, named, err);
	if (rc || !first->dir) /* already there */
		return rc;
	describe(ra, first);
	warn_no_nvcc(ra, first);
	if (also)
		rc = record_inner(ra, also, err);
	if (!rc && also && also->dir)
		describe(ra, also);
	return rc;
}

int register_add(const struct register_add *ra, enum kit_kind kind,
		 const char *dir, const char *as, unsigned cuda_major,
		 struct cuenv_err *err)
{
	struct store_version found, inner;
	bool has_inner = false;
	int rc = kind == KIT_CUDA
			 ? detect_cuda(dir, as, &found, &inner, &has_inner, err)
			 : detect_cudnn(dir, as, cuda_major, &found, err);

	for (size_t i = 0; !rc && i < found.warnings.n; i++)
		ra->warn(ra->ctx, found.warnings.v[i]);
	if (!rc)
		rc = add_found(ra, &found, has_inner ? &inner : NULL,
			       as != NULL, err);
	store_version_release(&found);
	if (kind == KIT_CUDA)
		store_version_release(&inner);
	return rc;
}

int register_discover(const struct register_add *ra, struct cuenv_err *err)
{
	struct strv dirs = STRV_INIT, names = STRV_INIT;
	size_t good = 0;
	int rc = CUENV_OK;

	detect_env_candidates(ra->envp, &dirs, &names);
	for (size_t i = 0; i < dirs.n; i++) {
		struct cuenv_err e = CUENV_ERR_INIT;
		int one = register_add(ra, KIT_CUDA, dirs.v[i], NULL, 0, &e);

		if (!one) {
			good++;
		} else if (one == CUENV_E_MANIFEST || one == CUENV_E_STORE) {
			struct buf w = BUF_INIT;

			buf_printf(&w, "%s=%s: %s", names.v[i], dirs.v[i],
				   e.msg.data);
			ra->warn(ra->ctx, w.data);
			buf_release(&w);
		} else {
			rc = cuenv_fail(err, one, "%s", e.msg.data);
		}
		err_release(&e);
		if (rc)
			break;
	}
	if (!rc && !good) {
		rc = cuenv_fail(err, CUENV_NO,
				"add: no toolkit found in CUDA_PATH_V*, "
				"CUDA_PATH or CUDA_HOME");
		cuenv_hint(err, "register one by its folder: cuenv add cuda "
				"PATH");
	}
	strv_release(&dirs);
	strv_release(&names);
	return rc;
}
