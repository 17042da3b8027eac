/*
 * dllsearch.c: Windows' DLL search order as a model (see dllsearch.h).
 */
#include <stdlib.h>
#include <string.h>

#include "artifact/dllsearch.h"
#include "plat/plat_path.h"
#include "base/xalloc.h"

static const struct plat_path_rules *const W = &plat_path_windows;

void dll_search_init(struct dll_search *s)
{
	memset(s, 0, sizeof(*s)); /* order: STRV_INIT */
}

void dll_search_release(struct dll_search *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].dir);
	free(s->v);
	strv_release(&s->order);
	dll_search_init(s);
}

/* "the application's folder", "System32", "PATH", ...: for messages. */
static const char *dll_where_name(enum dll_where w)
{
	static const char *const names[] = {
		[DLL_MODULE_DIR] = "the extension module's folder",
		[DLL_APP_DIR] = "the application's folder",
		[DLL_ADDED_DIR] = "os.add_dll_directory",
		[DLL_SYSTEM32] = "System32",
		[DLL_SYSTEM16] = "the 16-bit system folder",
		[DLL_WINDOWS] = "the Windows folder",
		[DLL_CWD] = "the current folder",
		[DLL_PATH] = "PATH",
	};

	return names[w];
}

struct walk {
	const char *name;
	dll_exists_fn exists;
	void *ctx;
	struct dll_search *s;
};

/* Search dir (once: a folder named twice is searched the first time). */
static void visit(struct walk *w, const char *dir, enum dll_where where)
{
	struct dll_search *s = w->s;

	if (!dir || !*dir)
		return;
	for (size_t i = 0; i < s->order.n; i++)
		if (plat_path_equal(W, s->order.v[i], dir))
			return;
	strv_push(&s->order, dir);
	if (!w->exists(w->ctx, dir, w->name))
		return;
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n].dir = xstrdup(dir);
	s->v[s->n++].where = where;
}

/* %SystemRoot% with below appended ("System32"), or NULL. */
static char *below_root(const struct dll_process *p, const char *below)
{
	return p->system_root && *p->system_root
		       ? plat_path_join(W, p->system_root, below)
		       : NULL;
}

static void visit_path(struct walk *w, const char *path)
{
	struct strv dirs = STRV_INIT;

	if (!path)
		return;
	strv_split(&dirs, path, W->list_sep);
	for (size_t i = 0; i < dirs.n; i++)
		visit(w, dirs.v[i], DLL_PATH);
	strv_release(&dirs);
}

void dll_search(const struct dll_process *p, const char *name,
		dll_exists_fn exists, void *ctx, struct dll_search *s)
{
	struct walk w = { name, exists, ctx, s };
	char *sys32 = below_root(p, "System32"),
	     *sys16 = below_root(p, "System");

	if (p->mode == DLL_PYTHON38) {
		visit(&w, p->module_dir, DLL_MODULE_DIR);
		visit(&w, p->app_dir, DLL_APP_DIR);
		for (size_t i = 0; p->added && i < p->added->n; i++)
			visit(&w, p->added->v[i], DLL_ADDED_DIR);
		visit(&w, sys32, DLL_SYSTEM32);
	} else {
		visit(&w, p->app_dir, DLL_APP_DIR);
		visit(&w, sys32, DLL_SYSTEM32);
		visit(&w, sys16, DLL_SYSTEM16);
		visit(&w, p->system_root, DLL_WINDOWS);
		visit(&w, p->cwd, DLL_CWD);
		visit_path(&w, p->path);
	}
	free(sys32);
	free(sys16);
}

/* ---- a selection's DLLs ---------------------------------------------------- */

static bool searched(const struct dll_search *s, const char *dir)
{
	for (size_t i = 0; i < s->order.n; i++)
		if (plat_path_equal(W, s->order.v[i], dir))
			return true;
	return false;
}

static bool on_path(const char *path, const char *dir)
{
	struct strv dirs = STRV_INIT;
	bool found = false;

	if (path)
		strv_split(&dirs, path, W->list_sep);
	for (size_t i = 0; i < dirs.n && !found; i++)
		found = plat_path_equal(W, dirs.v[i], dir);
	strv_release(&dirs);
	return found;
}

/* A stray copy ahead of the selection's: what moves it out of the way. */
static char *stray_fix(const struct dll_hit *h, const char *name)
{
	struct buf b = BUF_INIT;
	char *file = plat_path_join(W, h->dir, name);

	switch (h->where) {
	case DLL_PATH:
		/* cuenv exec puts the selection's folders first on PATH */
		buf_adds(&b, "cuenv exec -- PROGRAM");
		break;
	default:
		/* renamed, not deleted: the program that put it there may
		 * want it back (System32: from an administrator's cmd) */
		buf_printf(&b, "ren \"%s\" \"%s.cuenv-moved\"", file, name);
		break;
	}
	free(file);
	return buf_detach(&b);
}

static void shadowed(struct dll_finding *f, const struct dll_search *s,
		     const char *name, const char *want_dir)
{
	const struct dll_hit *h = &s->v[0];
	struct buf b = BUF_INIT;

	f->verdict = DLL_SHADOWED;
	buf_printf(&b, "%s is loaded instead of the selection's copy in %s: ",
		   f->loaded, want_dir);
	if (h->where == DLL_PATH)
		buf_printf(&b, "%s comes before it on PATH", h->dir);
	else
		buf_printf(&b, "%s (%s) is searched before PATH", h->dir,
			   dll_where_name(h->where));
	f->message = buf_detach(&b);
	f->fix = stray_fix(h, name);
}

static void not_searched(struct dll_finding *f, const struct dll_process *p,
			 const char *want_dir)
{
	struct buf b = BUF_INIT;

	f->verdict = DLL_NOT_SEARCHED;
	if (p->mode == DLL_PYTHON38 && on_path(p->path, want_dir)) {
		buf_printf(&b,
			   "the selection's %s is in %s, which is on PATH, "
			   "but Python 3.8+ does not search PATH for an "
			   "extension module's DLLs",
			   f->name, want_dir);
		f->message = buf_detach(&b);
		buf_printf(&b, "os.add_dll_directory(r\"%s\")", want_dir);
		f->fix = buf_detach(&b);
		return;
	}
	buf_printf(&b,
		   "the selection's %s is in %s, which is not searched "
		   "(not on PATH)",
		   f->name, want_dir);
	if (f->loaded)
		buf_printf(&b, "; %s is loaded instead", f->loaded);
	f->message = buf_detach(&b);
	f->fix = xstrdup("cuenv exec -- PROGRAM");
}

void dll_check(const struct dll_process *p, const char *name,
	       const char *want_dir, dll_exists_fn exists, void *ctx,
	       struct dll_finding *f)
{
	struct dll_search s;
	struct buf b = BUF_INIT;

	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	dll_search_init(&s);
	dll_search(p, name, exists, ctx, &s);
	if (s.n)
		f->loaded = plat_path_join(W, s.v[0].dir, name);
	if (s.n && want_dir && plat_path_equal(W, s.v[0].dir, want_dir)) {
		f->verdict = DLL_OK;
		buf_printf(&b, "%s is loaded from the selection (%s)", name,
			   want_dir);
		f->message = buf_detach(&b);
	} else if (s.n && want_dir && searched(&s, want_dir)) {
		shadowed(f, &s, name, want_dir);
	} else if (want_dir && !searched(&s, want_dir)) {
		not_searched(f, p, want_dir);
	} else if (s.n) {
		f->verdict = DLL_OK;
		buf_printf(&b, "%s is loaded from %s", name, s.v[0].dir);
		f->message = buf_detach(&b);
	} else {
		f->verdict = DLL_MISSING;
		buf_printf(&b,
			   "%s is in none of the %zu folders searched: "
			   "LoadLibrary fails with error 126 (the specified "
			   "module could not be found)",
			   name, s.order.n);
		f->message = buf_detach(&b);
	}
	dll_search_release(&s);
}

void dll_finding_release(struct dll_finding *f)
{
	FREE_EACH(f->name, f->loaded, f->message, f->fix);
	memset(f, 0, sizeof(*f));
}
