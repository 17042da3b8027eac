/*
 * doctor_findings.c: the findings `cuenv doctor` keeps, and the helpers
 * every check writes them with (doctor_findings.h).
 */
#include "doctor/doctor_findings.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/shell.h"
#include "base/xalloc.h"

#define SHOW_MAX 6 /* library names listed in one sentence */

/* ---- findings ----------------------------------------------------------- */

void findings_release(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		FREE_EACH(f->v[i].what, f->v[i].why, f->v[i].fix);
		strv_release(&f->v[i].paths);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

size_t findings_count(const struct findings *f, enum doctor_severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->v[i].severity == s;
	return n;
}

const char *doctor_severity_name(enum doctor_severity s)
{
	static const char *const names[] = { "problem", "warning", "info" };

	return s == DOCTOR_PROBLEM || s == DOCTOR_WARNING ? names[s] : "info";
}

/* Append d to out as a finding; d is left empty. */
void doctor_emit(struct findings *out, const char *id, enum doctor_severity s,
		 struct draft *d)
{
	struct finding *f;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	f = &out->v[out->n++];
	f->id = id;
	f->severity = s;
	f->what = buf_detach(&d->what);
	f->why = buf_detach(&d->why);
	f->fix = buf_detach(&d->fix);
	f->paths = d->paths;
	memset(&d->paths, 0, sizeof(d->paths));
}

void doctor_emit_with(struct findings *out, const char *id,
		      enum doctor_severity s, struct draft *d, const char *why,
		      const char *fix)
{
	buf_adds(&d->why, why);
	if (fix)
		buf_adds(&d->fix, fix);
	doctor_emit(out, id, s, d);
}

void doctor_emitf(struct findings *out, const char *id, enum doctor_severity s,
		  const char *why, const char *fix, const char *fmt, ...)
{
	struct draft d = DRAFT_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&d.what, fmt, ap);
	va_end(ap);
	doctor_emit_with(out, id, s, &d, why, fix);
}

/* ---- small helpers ------------------------------------------------------ */

void doctor_push_unique(struct strv *sv, const char *s)
{
	if (strv_find(sv, s) < 0)
		strv_push(sv, s);
}

/* The folder part of path ("/a/b/c" -> "/a/b"), heap. */
char *doctor_parent(const char *path)
{
	const char *name = plat_path_last(path);

	if (name == path)
		return xstrdup(".");
	if (name - 1 == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(name - 1 - path));
}

/* "a, b, c and 4 more" */
void doctor_list(struct buf *b, const struct strv *names)
{
	size_t shown = names->n > SHOW_MAX ? SHOW_MAX - 1 : names->n;

	for (size_t i = 0; i < shown; i++) {
		if (i)
			buf_adds(b, i + 1 == names->n ? " and " : ", ");
		buf_add_display(b, names->v[i], 512);
	}
	if (shown < names->n)
		buf_printf(b, " and %zu more", names->n - shown);
}

/* ---- CUDA library names ------------------------------------------------- */

/*
 * The CUDA major in the name of a library whose soname follows it
 * ("libcudart.so.11.0": 11, "libcublasLt.so.12": 12), else 0.
 */
static unsigned soname_major(const char *name)
{
	const char *v;
	const struct nvlib *e = nvlib_match_file(name, &v);

	if (!e || (e->flags & NVLIB_OWN_VERSION) || !*v)
		return 0;
	return nvlib_major(e, v);
}

unsigned doctor_libs_major(const struct strv *libs)
{
	unsigned m = 0;

	for (size_t i = 0; i < libs->n && !m; i++)
		m = soname_major(libs->v[i]);
	return m;
}

/* The CUDA library file names in dir, sorted. */
void doctor_cuda_libs(const char *dir, struct strv *out)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *ent;

	if (!d)
		return;
	while ((ent = plat_readdir(d)))
		if (nvlib_is_cuda_file(ent))
			doctor_push_unique(out, ent);
	plat_closedir(d);
	strv_sort(out);
}

int doctor_provides(const struct audit *au, const char *name)
{
	return strv_find(&au->provides, name) >= 0;
}

/* ---- commands in fixes -------------------------------------------------- */

/* The command that changes the selection where it was made. */
void doctor_setter(const struct audit *au, struct buf *b)
{
	const struct selection *sel = &au->a->sel;
	const char *shell = envmap_get(au->in->env, "CUENV_SHELL");

	if (shell && !*shell)
		shell = NULL;
	if (sel->origin == SEL_FILE && sel->origin_path) {
		char *dir = doctor_parent(sel->origin_path);

		buf_adds(b, "cd ");
		shell_quote_word(b, dir);
		buf_adds(b, " && cuenv local");
		free(dir);
	} else if (sel->origin == SEL_GLOBAL) {
		buf_adds(b, "cuenv global");
	} else if (sel->origin == SEL_SHELL && !shell && !au->in->win) {
		/* CUENV_VERSION set by hand: cuenv use needs the shell's
		 * integration, which this shell lacks */
		buf_adds(b, "unset CUENV_VERSION && cuenv local");
	} else {
		buf_adds(b, "cuenv use");
	}
}

/* "cuenv install SPEC [--cudnn V] [--cupti V]" for what sel asks. */
void doctor_install_cmd(const struct selection *sel, const char *cuda,
			struct buf *b)
{
	buf_adds(b, "cuenv install ");
	shell_quote_word(b, cuda);
	if (sel->cudnn) {
		buf_adds(b, " --cudnn ");
		shell_quote_word(b, sel->cudnn);
	}
	if (sel->cupti) {
		buf_adds(b, " --cupti ");
		shell_quote_word(b, sel->cupti);
	}
}

/* How to rebuild an install whose files lack something. */
void doctor_reinstall(const struct store_version *in, const char *cuda,
		      struct buf *b)
{
	const char *kind = kit_kind_name(in->kind);

	/* in is the selection's: uninstall would ask first */
	buf_printf(b, "cuenv %s %s ",
		   in->registered ? "remove" : "uninstall --force", kind);
	shell_quote_word(b, in->name);
	buf_adds(b, " && cuenv install ");
	if (in->kind == KIT_CUDNN) {
		shell_quote_word(b, cuda);
		buf_adds(b, " --cudnn ");
	}
	shell_quote_word(b, in->version);
}
