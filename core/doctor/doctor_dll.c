/*
 * doctor_dll.c: doctor's check of Windows' loader (issue 13): which copy
 * of the selection's cudart64_*.dll, cudnn64_*.dll and cupti64_*.dll,
 * and of the driver's nvcuda.dll, a program started here loads
 * (core/dllsearch: the application's folder, System32, the Windows
 * folders, the current folder, PATH), copies that shadow the
 * selection's, and what Python 3.8+ changes for extension modules.
 * Runs only where the caller describes Windows' loader (doctor_in.win).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact/dllsearch.h"
#include "doctor/doctor_int.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "base/xalloc.h"

static const struct plat_path_rules *const W = &plat_path_windows;

/* A DLL of the selection: its name and the folder of the selection's copy. */
struct want {
	char *name;
	const char *dir; /* borrowed from the selection's folders; NULL: none */
	const struct store_version *in;
};

struct dll_audit {
	struct audit *au;
	const struct doctor_win *w;
	struct dll_process p;
	char *app_dir;
	struct strv dirs; /* the selection's folders, activation's order */
	struct want *v;
	size_t n;
};

static void push_dirs(struct dll_audit *d, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < d->dirs.n && !seen; j++)
			seen = plat_path_equal(W, d->dirs.v[j], dirs->v[i]);
		if (!seen)
			strv_push(&d->dirs, dirs->v[i]);
	}
}

static void push_install(struct dll_audit *d, const struct store_version *in)
{
	if (!in)
		return;
	push_dirs(d, &in->bin);
	push_dirs(d, &in->lib);
	push_dirs(d, &in->cupti);
}

/* The first of the selection's folders that holds name, or NULL. */
static const char *holder(const struct dll_audit *d, const char *name)
{
	for (size_t i = 0; i < d->dirs.n; i++)
		if (d->w->exists(d->w->ctx, d->dirs.v[i], name))
			return d->dirs.v[i];
	return NULL;
}

static void want(struct dll_audit *d, char *name,
		 const struct store_version *in)
{
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n].name = name;
	d->v[d->n].dir = holder(d, name);
	d->v[d->n++].in = in;
}

/* The selection's DLL named after lib and release version, if it has one. */
static void want_named(struct dll_audit *d, const char *stem,
		       const char *version, const struct store_version *in)
{
	struct buf name = BUF_INIT;

	if (nvlib_dll_name(nvlib_by_stem(stem), version, &name))
		want(d, buf_detach(&name), in);
	buf_release(&name);
}

/* CUPTI's DLL is named after its own year: the one in the CUPTI folders. */
static void want_cupti(struct dll_audit *d, const struct store_version *in)
{
	const struct nvlib *cupti = nvlib_by_stem("cupti");
	struct strv found = STRV_INIT;

	for (size_t i = 0; in && i < in->cupti.n && !found.n; i++) {
		struct plat_dir *dir = plat_opendir(in->cupti.v[i]);
		const char *ent;
		unsigned long majors;

		while (dir && (ent = plat_readdir(dir)))
			if (nvlib_match_dll(ent, &majors) == cupti)
				doctor_push_unique(&found, ent);
		if (dir)
			plat_closedir(dir);
	}
	strv_sort(&found);
	if (found.n)
		want(d, xstrdup(found.v[found.n - 1]), in);
	strv_release(&found);
}

/* ---- fixes ---------------------------------------------------------------- */

/*
 * cmd's `set "PATH=..."` with the selection's folders first and the rest
 * of PATH after them, in their order.
 */
static void path_fix(const struct dll_audit *d, struct buf *b)
{
	struct strv list = STRV_INIT, out = STRV_INIT;
	struct buf val = BUF_INIT;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].dir && strv_find(&out, d->v[i].dir) < 0)
			strv_push(&out, d->v[i].dir);
	if (d->p.path)
		strv_split(&list, d->p.path, W->list_sep);
	for (size_t i = 0; i < list.n; i++) {
		bool sel = !*list.v[i];

		for (size_t j = 0; j < out.n && !sel; j++)
			sel = plat_path_equal(W, out.v[j], list.v[i]);
		if (!sel)
			strv_push(&out, list.v[i]);
	}
	strv_join(&out, W->list_sep, &val);
	buf_printf(b, "set \"PATH=%s\"", val.data);
	buf_adds(b, "; or for one command: cuenv exec -- CMD");
	strv_release(&list);
	strv_release(&out);
	buf_release(&val);
}

/* ---- findings ------------------------------------------------------------- */

static const char search_why[] =
	"Windows' loader takes the first copy it finds, searching the "
	"application's folder, System32, the Windows folders, the current "
	"folder, then PATH in order";

static void dll_finding(struct dll_audit *d, const struct want *x)
{
	struct dll_finding f;
	struct dll_search s;
	struct draft dr = DRAFT_INIT;

	dll_check(&d->p, x->name, x->dir, d->w->exists, d->w->ctx, &f);
	dll_search_init(&s);
	dll_search(&d->p, x->name, d->w->exists, d->w->ctx, &s);
	if (f.loaded)
		strv_push(&dr.paths, f.loaded);
	if (!x->dir) {
		buf_printf(&dr.what,
			   "the selection (%s) has no %s in its "
			   "folders",
			   d->au->label.data, x->name);
		if (f.loaded)
			buf_printf(&dr.what,
				   "; %s is loaded instead, from "
				   "another install",
				   f.loaded);
		buf_printf(&dr.why,
			   "programs that load %s by name (TensorFlow: "
			   "\"Could not load dynamic library '%s'\") get ",
			   x->name, x->name);
		buf_adds(&dr.why, f.loaded ? "a copy of another release or "
					     "build"
					   : "error 126 (the specified module "
					     "could not be found)");
		doctor_reinstall(x->in, d->au->a->act.cuda->version, &dr.fix);
		doctor_emit(d->au->out, "dll-missing", DOCTOR_PROBLEM, &dr);
	} else if (f.verdict == DLL_OK) {
		buf_adds(&dr.what, f.message);
		doctor_emit_with(d->au->out, "dll-loaded", DOCTOR_INFO, &dr,
				 search_why, NULL);
	} else if (f.verdict == DLL_SHADOWED) {
		buf_adds(&dr.what, f.message);
		strv_push(&dr.paths, x->dir);
		buf_printf(&dr.why,
			   "%s; programs that load %s by name (TensorFlow's "
			   "LoadLibrary) get that copy, of another release or "
			   "build: \"Could not load dynamic library\", missing "
			   "entry points, or CUDA errors at start-up",
			   search_why, x->name);
		if (s.n && s.v[0].where == DLL_PATH)
			path_fix(d, &dr.fix);
		else
			buf_adds(&dr.fix, f.fix);
		doctor_emit(d->au->out, "dll-shadowed", DOCTOR_PROBLEM, &dr);
	} else {
		/* not searched (in the standard order: not on PATH) */
		buf_adds(&dr.what, f.message);
		strv_push(&dr.paths, x->dir);
		buf_printf(&dr.why,
			   "%s; without the selection's folder on PATH, %s "
			   "is not found there",
			   search_why, x->name);
		path_fix(d, &dr.fix);
		doctor_emit(d->au->out, "dll-not-searched", DOCTOR_PROBLEM,
			    &dr);
	}
	dll_search_release(&s);
	dll_finding_release(&f);
}

/* nvcuda.dll is the driver's, in System32: none means no driver. */
static void driver_finding(struct dll_audit *d)
{
	struct dll_finding f;
	struct draft dr = DRAFT_INIT;

	dll_check(&d->p, NVLIB_DRIVER_DLL, NULL, d->w->exists, d->w->ctx, &f);
	if (f.loaded) {
		strv_push(&dr.paths, f.loaded);
		buf_printf(&dr.what,
			   "nvcuda.dll (the NVIDIA driver's) is "
			   "loaded from %s",
			   f.loaded);
		doctor_emit_with(d->au->out, "dll-loaded", DOCTOR_INFO, &dr,
				 search_why, NULL);
	} else {
		buf_adds(&dr.what, f.message);
		doctor_emit_with(d->au->out, "no-driver-dll", DOCTOR_INFO, &dr,
				 "nvcuda.dll is the NVIDIA driver's, installed "
				 "into System32: without it no CUDA program "
				 "runs on this machine (cudaErrorInsufficient"
				 "Driver), though doctor's other findings hold",
				 "install NVIDIA's display driver for the GPU "
				 "(nvidia.com/drivers)");
	}
	dll_finding_release(&f);
}

/* Is version ("3.10") 3.8 or later? Unknown (NULL) counts as yes. */
static bool python38(const char *version)
{
	unsigned maj = 0, min = 0;

	if (!version || sscanf(version, "%u.%u", &maj, &min) != 2)
		return true;
	return maj > 3 || (maj == 3 && min >= 8);
}

/*
 * Python 3.8+: an extension module's dependent DLLs are not searched on
 * PATH. Which of the selection's folders that leaves out, and the lines
 * that add them.
 */
static void python_finding(struct dll_audit *d)
{
	const struct doctor_win *w = d->w;
	struct dll_process p = d->p;
	struct strv dirs = STRV_INIT, names = STRV_INIT;
	struct draft dr = DRAFT_INIT;

	if (!w->python || !python38(w->python_version))
		return;
	p.mode = DLL_PYTHON38;
	for (size_t i = 0; i < d->n; i++) {
		struct dll_finding f;

		if (!d->v[i].dir)
			continue;
		dll_check(&p, d->v[i].name, d->v[i].dir, w->exists, w->ctx, &f);
		if (f.verdict == DLL_NOT_SEARCHED) {
			doctor_push_unique(&dirs, d->v[i].dir);
			strv_push(&names, d->v[i].name);
		}
		dll_finding_release(&f);
	}
	if (dirs.n) {
		strv_push(&dr.paths, w->python);
		buf_printf(&dr.what, "%s is Python %s: ", w->python,
			   w->python_version ? w->python_version
					     : "(version not known; if 3.8 or "
					       "later)");
		buf_adds(&dr.what, "Python 3.8 and later do not search PATH "
				   "for the DLLs an extension module (.pyd) "
				   "links against, so ");
		doctor_list(&dr.what, &names);
		buf_adds(&dr.what, " in ");
		for (size_t i = 0; i < dirs.n; i++) /* whole: they are fixes */
			buf_printf(&dr.what, "%s%s",
				   !i		     ? ""
				   : i + 1 == dirs.n ? " and "
						     : ", ",
				   dirs.v[i]);
		buf_adds(&dr.what, " are not found that way");
		buf_adds(&dr.why,
			 "TensorFlow loads cudart64_*.dll, cudnn64_*.dll and "
			 "cupti64_*.dll by name with LoadLibrary, which "
			 "searches PATH as above: those findings hold for it; "
			 "a .pyd linked against them (a custom op, a CUDA "
			 "extension built here) fails with \"ImportError: DLL "
			 "load failed while importing ...: The specified "
			 "module could not be found\"");
		buf_adds(&dr.fix, "in the program, before that import: "
				  "import os;");
		for (size_t i = 0; i < dirs.n; i++)
			buf_printf(&dr.fix, " os.add_dll_directory(r\"%s\");",
				   dirs.v[i]);
		dr.fix.data[--dr.fix.len] = '\0'; /* the last ';' */
		doctor_emit(d->au->out, "python-dll-directories", DOCTOR_INFO,
			    &dr);
	}
	strv_release(&dirs);
	strv_release(&names);
}

void doctor_check_dlls(struct audit *au)
{
	const struct doctor_win *w = au->in->win;
	struct dll_audit d = { .au = au, .w = w, .dirs = STRV_INIT };
	const struct active *act = &au->a->act;

	if (!w)
		return;
	if (w->python)
		d.app_dir = plat_path_parent(W, w->python);
	d.p = (struct dll_process){
		.mode = DLL_STANDARD,
		.app_dir = d.app_dir,
		.system_root = w->system_root,
		.cwd = w->cwd,
		.path = envmap_get(au->eff, "PATH"),
	};
	if (au->a->ok) {
		/* the order activation puts them on PATH */
		push_install(&d, act->cuda);
		push_install(&d, act->cudnn);
		push_install(&d, act->cupti);
		want_named(&d, "cudart", act->cuda->version, act->cuda);
		if (act->cudnn)
			want_named(&d, "cudnn", act->cudnn->version,
				   act->cudnn);
		want_cupti(&d, act->cupti ? act->cupti : act->cuda);
	}
	for (size_t i = 0; i < d.n; i++)
		dll_finding(&d, &d.v[i]);
	driver_finding(&d);
	python_finding(&d);
	for (size_t i = 0; i < d.n; i++)
		free(d.v[i].name);
	free(d.v);
	free(d.app_dir);
	strv_release(&d.dirs);
}

bool doctor_dll_exists(void *ctx, const char *dir, const char *name)
{
	char *p = plat_path_join(plat_path_native(), dir, name);
	struct plat_stat st;
	bool found = !plat_stat(p, &st) && st.type != PLAT_F_DIR;

	(void)ctx;
	free(p);
	return found;
}
