#include "select/activate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "select/env.h"
#include "plat/plat_fs.h"
#include "plat/plat_owner.h"
#include "store/trust.h"
#include "select/venvlib.h"
#include "base/xalloc.h"

void activation_init(struct activation *a)
{
	memset(a, 0, sizeof(*a));
	selection_init(&a->sel);
}

void activation_release(struct activation *a)
{
	selection_release(&a->sel);
	store_version_list_release(&a->cudas);
	store_version_list_release(&a->cudnns);
	store_version_list_release(&a->cuptis);
	envmap_release(&a->base);
	envmap_release(&a->after);
	strv_release(&a->warnings);
	strv_release(&a->notes);
	strv_release(&a->venv_first);
	activation_init(a);
}

/* Append root's installs of kind that no earlier root has by name. */
static int list_root(const char *root, enum kit_kind kind,
		     struct store_version_list *out, struct strv *warnings,
		     struct cuenv_err *err)
{
	struct store_version_list l = { 0 };
	struct store st;
	int rc = store_open(&st, root, false, err);

	if (!rc)
		rc = store_list(&st, kind, &l, err);
	for (size_t i = 0; i < st.warnings.n; i++) {
		struct buf w = BUF_INIT;

		buf_printf(&w, "skipped an incomplete version: %s",
			   st.warnings.v[i]);
		strv_push_take(warnings, buf_detach(&w));
	}
	store_release(&st);
	for (size_t i = 0; i < l.n; i++) {
		int shadowed = 0;

		for (size_t k = 0; k < out->n && !shadowed; k++)
			shadowed = !strcmp(out->v[k]->name, l.v[i]->name);
		if (shadowed) {
			store_version_free(l.v[i]);
			continue;
		}
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = l.v[i];
	}
	free(l.v);
	return rc;
}

/*
 * May root decide what goes into PATH? Its path, and what it and its
 * versions/ folders hold, must be trusted (core/store/trust.h). The user's root
 * is fixed by giving it to the user, a system root by giving it to root.
 */
static int check_root(const char *root, int system, struct cuenv_err *err)
{
	static const char *const sub[] = { "versions", "versions/cuda",
					   "versions/cudnn", "versions/cupti" };
	struct buf p = BUF_INIT;
	int rc = trust_check_listable(root,
				      system ? "CUENV_SYSTEM_ROOTS entry"
					     : "cuenv's root",
				      err);

	if (!rc)
		rc = trust_check_path(root, plat_owner_self(),
				      system ? PLAT_UID_SYSTEM
					     : plat_owner_self(),
				      err);
	for (size_t i = 0; !rc && i < sizeof(sub) / sizeof(*sub); i++) {
		buf_reset(&p);
		buf_path(&p, root, sub[i]);
		rc = trust_check_path(p.data, plat_owner_self(),
				      system ? PLAT_UID_SYSTEM
					     : plat_owner_self(),
				      err);
	}
	buf_release(&p);
	return rc;
}

/* Are the selected install's folder, receipt and (registered) files
 * trusted? */
static int check_install(const char *root, const struct store_version *in,
			 struct cuenv_err *err)
{
	const struct plat_path_rules *r = plat_path_native();
	size_t n = strlen(root);
	int system =
		strncmp(in->dir, root, n) || !plat_path_is_sep(r, in->dir[n]);
	plat_uid owner = system ? PLAT_UID_SYSTEM : plat_owner_self();
	struct buf p = BUF_INIT;
	int rc = trust_check_path(in->dir, plat_owner_self(), owner, err);

	buf_path(&p, in->dir, RECEIPT_NAME);
	if (!rc)
		rc = trust_check_path(p.data, plat_owner_self(), owner, err);
	/*
	 * A registered install's files are where it was added from: the
	 * folders down to them are checked as a root's are, or their owner
	 * could put another nvcc there after `cuenv add`.
	 */
	if (!rc && in->registered && in->prefix)
		rc = trust_check_path(in->prefix, plat_owner_self(),
				      plat_owner_self(), err);
	buf_release(&p);
	return rc;
}

/*
 * A registered folder that is gone (store_version_is_missing) is refused: its
 * paths would go on PATH and LD_LIBRARY_PATH naming nothing, and the
 * programs would load whatever else the loader finds.
 */
static int check_present(const struct active *act, struct cuenv_err *err)
{
	const struct store_version *ins[] = { act->cuda, act->cudnn,
					      act->cupti };

	for (size_t i = 0; i < sizeof(ins) / sizeof(*ins); i++) {
		if (!ins[i] || !store_version_is_missing(ins[i]))
			continue;
		cuenv_fail(err, CUENV_E_NOT_INSTALLED,
			   "%s %s was registered from '%s', which is gone",
			   kit_kind_name(ins[i]->kind), ins[i]->name,
			   ins[i]->prefix);
		return cuenv_hint(err, "forget it: cuenv remove %s %s",
				  kit_kind_name(ins[i]->kind), ins[i]->name);
	}
	return CUENV_OK;
}

int activation_list(const char *root, const char *system_roots,
		    struct activation *a, struct cuenv_err *err)
{
	struct store_version_list *lists[KIT_KINDS] = { &a->cudas, &a->cudnns,
							&a->cuptis };
	struct strv roots = STRV_INIT;
	int rc = CUENV_OK;

	strv_push(&roots, root);
	if (system_roots && *system_roots) {
		struct strv more = STRV_INIT;

		strv_split(&more, system_roots, plat_path_native()->list_sep);
		for (size_t i = 0; i < more.n && !rc; i++) {
			if (!*more.v[i])
				continue; /* "a::b", a trailing ':' */
			rc = trust_check_listable(more.v[i],
						  "CUENV_SYSTEM_ROOTS entry",
						  err);
			if (!rc && strv_find(&roots, more.v[i]) < 0)
				strv_push(&roots, more.v[i]);
		}
		strv_release(&more);
	}
	for (size_t r = 0; r < roots.n && !rc && !a->insecure_roots; r++) {
		rc = check_root(roots.v[r], r > 0, err);
		a->untrusted = rc == CUENV_E_STORE;
	}
	for (int k = 0; k < KIT_KINDS && !rc; k++) {
		for (size_t r = 0; r < roots.n && !rc; r++)
			rc = list_root(roots.v[r], (enum kit_kind)k, lists[k],
				       &a->warnings, err);
		/* roots merged: sorted again, as store_list gives each */
		store_version_list_sort(lists[k]);
	}
	strv_release(&roots);
	return rc;
}

/* The selection's folders that env_activate puts on LD_LIBRARY_PATH. */
static void selection_lib_dirs(const struct active *act, struct strv *out)
{
	const struct store_version *ins[] = { act->cudnn, act->cuda, act->cuda,
					      act->cupti };
	const struct strv *lists[] = { act->cudnn ? &act->cudnn->lib : NULL,
				       &act->cuda->lib, &act->cuda->cupti,
				       act->cupti ? &act->cupti->cupti : NULL };

	for (size_t k = 0; k < sizeof(lists) / sizeof(*lists); k++)
		for (size_t i = 0; lists[k] && i < lists[k]->n; i++)
			if (strv_find(&ins[k]->searched, lists[k]->v[i]) < 0 &&
			    strv_find(out, lists[k]->v[i]) < 0)
				strv_push(out, lists[k]->v[i]);
}

/* "libA, libB, libC and 4 more" of names. */
static void some_names(const struct strv *names, struct buf *out)
{
	size_t shown = names->n > 4 ? 3 : names->n;

	for (size_t i = 0; i < shown; i++)
		buf_printf(out, "%s%s", i ? ", " : "", names->v[i]);
	if (shown < names->n)
		buf_printf(out, " and %zu more", names->n - shown);
}

/*
 * The Python environment in use keeps the sonames its NVIDIA wheels ship
 * (see activation_compute): their folders go first, or, with
 * CUENV_OVER_VENV=1, the selection shadows them and a warning says so.
 */
static void keep_venv_first(struct activation *a, const struct envmap *start)
{
	const char *over = envmap_get(start, "CUENV_OVER_VENV");
	struct venv_libs v = VENV_LIBS_INIT;
	struct strv sel = STRV_INIT, names = STRV_INIT, first = STRV_INIT;
	struct buf w = BUF_INIT, some = BUF_INIT;

	venv_libs_find(&a->base, a->program, &v);
	if (!v.dirs.n)
		goto out;
	selection_lib_dirs(&a->act, &sel);
	if (!venv_libs_shadowed(&v, &sel, &first, &names))
		goto out;
	some_names(&names, &some);
	if (over && !strcmp(over, "1")) {
		buf_printf(
			&w,
			"cuda %s's libraries shadow the NVIDIA wheels of "
			"the Python environment %s (%s), as CUENV_OVER_VENV=1 "
			"asks: its frameworks may fail to load",
			a->act.cuda->version, v.prefix, some.data);
		strv_push_take(&a->warnings, buf_detach(&w));
		goto out;
	}
	for (size_t i = 0; i < first.n; i++)
		strv_push(&a->venv_first, first.v[i]);
	a->act.first_libs = &a->venv_first;
	buf_printf(&w,
		   "the Python environment %s keeps its NVIDIA wheels' %s "
		   "ahead of cuda %s's on LD_LIBRARY_PATH (CUENV_OVER_VENV=1 "
		   "puts cuda %s's first)",
		   v.prefix, some.data, a->act.cuda->version,
		   a->act.cuda->version);
	strv_push_take(&a->notes, buf_detach(&w));
out:
	venv_libs_release(&v);
	strv_release(&sel);
	strv_release(&names);
	strv_release(&first);
	buf_release(&w);
	buf_release(&some);
}

int activation_compute(const char *root, const char *cwd,
		       const struct envmap *start, int isolate,
		       struct activation *a, struct cuenv_err *err)
{
	struct select_in in;
	const char *insecure = envmap_get(start, "CUENV_INSECURE_ROOTS");
	int rc;

	env_select_in(start, cwd, root, &in);
	if (insecure && !strcmp(insecure, "1"))
		a->insecure_roots = 1;
	envmap_copy(&a->base, start);
	env_undo(&a->base);
	envmap_copy(&a->after, &a->base);

	rc = select_find(&in, &a->sel, err);
	if (rc || !selection_active(&a->sel))
		return rc;

	rc = activation_list(root, envmap_get(start, "CUENV_SYSTEM_ROOTS"), a,
			     err);
	if (!rc)
		rc = select_resolve(&a->sel, &a->cudas, &a->cudnns, &a->cuptis,
				    &a->act, err);
	if (!rc)
		rc = check_present(&a->act, err);
	if (!rc && !a->insecure_roots) {
		rc = check_install(root, a->act.cuda, err);
		if (!rc && a->act.cudnn)
			rc = check_install(root, a->act.cudnn, err);
		if (!rc && a->act.cupti)
			rc = check_install(root, a->act.cupti, err);
		a->untrusted = rc != CUENV_OK;
	}
	if (rc)
		return rc;
	if (isolate)
		a->act.isolate = 1;
	keep_venv_first(a, start);

	struct strv shadow = STRV_INIT;
	env_activate(&a->after, &a->act, &shadow);
	for (size_t i = 0; i < shadow.n; i++) {
		struct buf w = BUF_INIT;

		buf_printf(&w,
			   "LD_LIBRARY_PATH entry %s holds CUDA libraries "
			   "that can shadow cuda %s (strip it with "
			   "'isolate = true' in .cuenv or --isolate)",
			   shadow.v[i], a->act.cuda->version);
		strv_push_take(&a->warnings, buf_detach(&w));
	}
	strv_release(&shadow);
	a->ok = 1;
	return CUENV_OK;
}

static char *find_in(const struct strv *dirs, const char *name)
{
	for (size_t i = 0; i < dirs->n; i++) {
		struct buf p = BUF_INIT;
		struct plat_stat st;

		buf_path(&p, dirs->v[i], name);
		if (!plat_stat(p.data, &st) && st.type != PLAT_F_DIR)
			return buf_detach(&p);
		buf_release(&p);
	}
	return NULL;
}

char *activation_which(const struct activation *a, const char *name)
{
	const struct strv *order[8];
	size_t n = 0;
	char *found = NULL;

	if (!a->ok || !*name || strpbrk(name, "/\\"))
		return NULL;
	order[n++] = &a->act.cuda->bin;
	if (a->act.cudnn)
		order[n++] = &a->act.cudnn->lib;
	order[n++] = &a->act.cuda->lib;
	order[n++] = &a->act.cuda->cupti;
	if (a->act.cupti)
		order[n++] = &a->act.cupti->cupti;
	if (a->act.cudnn)
		order[n++] = &a->act.cudnn->include;
	order[n++] = &a->act.cuda->include;
	for (size_t i = 0; i < n && !found; i++)
		found = find_in(order[i], name);
	return found;
}

int activation_selected(const struct activation *a, struct cuenv_err *err)
{
	if (a->ok)
		return CUENV_OK;
	cuenv_fail(err, CUENV_NO, "nothing selected here");
	return cuenv_hint(err, "select one: cuenv local VERSION");
}

int activation_which_report(const struct activation *a, const char *name,
			    struct buf *out, struct cuenv_err *err)
{
	char *path;
	struct buf shown = BUF_INIT;
	int rc = activation_selected(a, err);

	if (rc)
		return rc;
	path = activation_which(a, name);
	if (path) {
		buf_printf(out, "%s\n", path);
		free(path);
		return CUENV_OK;
	}
	buf_add_display(&shown, name, 128);
	rc = cuenv_fail(err, CUENV_NO, "'%s' is not provided by cuda %s%s%s",
			shown.data, a->act.cuda->version,
			a->act.cudnn ? " + cudnn " : "",
			a->act.cudnn ? a->act.cudnn->version : "");
	buf_release(&shown);
	return rc;
}

void activation_emit(const struct activation *a, const struct envmap *before,
		     enum shell sh, const char *root, const char *stamp,
		     struct buf *out)
{
	static const char *const dirs[] = { "versions/cuda", "versions/cudnn" };
	struct env_changes ch = { 0 };
	struct strv watch = STRV_INIT, absent = STRV_INIT;
	struct plat_stat st;

	env_diff(before, &a->after, &ch);
	shell_apply(sh, &ch, out);
	env_changes_release(&ch);

	for (size_t i = 0; i < a->sel.watch.n; i++)
		strv_push(&watch, a->sel.watch.v[i]);
	for (size_t i = 0; i < a->sel.absent.n; i++)
		strv_push(&absent, a->sel.absent.v[i]);
	for (size_t i = 0; i < 2; i++) {
		struct buf p = BUF_INIT;

		buf_path(&p, root, dirs[i]);
		strv_push(plat_stat(p.data, &st) ? &absent : &watch, p.data);
		buf_release(&p);
	}
	shell_array(sh, "__cuenv_watch", &watch, out);
	shell_array(sh, "__cuenv_absent", &absent, out);
	if (stamp)
		shell_local(sh, "__cuenv_stamp", stamp, out);
	strv_release(&watch);
	strv_release(&absent);
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* a separator */
}

void activation_said(const struct activation *a, int rc,
		     const struct cuenv_err *err, struct buf *out)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int any = 0;

	for (size_t i = 0; i < a->warnings.n; i++, any = 1)
		h = fnv(h, a->warnings.v[i]);
	for (size_t i = 0; i < a->notes.n; i++, any = 1)
		h = fnv(h, a->notes.v[i]);
	if (rc && rc != CUENV_E_BUG) {
		h = fnv(fnv(h, err->msg.data), err->hint.data);
		any = 1;
	}
	buf_reset(out);
	if (any)
		buf_printf(out, "%016llx", (unsigned long long)h);
}
