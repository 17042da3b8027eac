/*
 * needs_render.c: `cuenv needs`' text report (see needs_render.h).
 */
#include <string.h>

#include "nvidia/catalog.h"
#include "base/json_util.h"
#include "base/version.h"
#include "needs/needs_render.h"
#include "plat/shell.h"

static void render_files(struct buf *out, const char *how,
			 const struct strv *files)
{
	for (size_t i = 0; i < files->n && i < NEEDS_SHOW_FILES; i++)
		buf_printf(out, "    %-11s %s\n", i ? "" : how, files->v[i]);
	if (files->n > NEEDS_SHOW_FILES)
		buf_printf(out, "    %-11s ... and %zu more\n", "",
			   files->n - NEEDS_SHOW_FILES);
}

static void render_reports(struct buf *out, const struct needs_scan *s)
{
	for (size_t i = 0; i < s->nrep; i++) {
		const struct needs_report *r = &s->rep[i];

		buf_add_display(out, r->framework, 60);
		if (r->version) {
			buf_addc(out, ' ');
			buf_add_display(out, r->version, 40);
		}
		buf_adds(out, " built for");
		if (r->cuda)
			needs_minimum_text(out, "CUDA", r->cuda, " ");
		if (r->cudnn)
			needs_minimum_text(out, "cuDNN", r->cudnn,
					   r->cuda ? ", " : " ");
		if (!r->cuda && !r->cudnn)
			buf_adds(out, ": no one CUDA release");
		buf_printf(out, "\n    %-11s %s\n", "says", r->source);
		for (size_t k = 0; k < r->dlls.n; k++) {
			buf_printf(out, "    %-11s ", k ? "" : "loads");
			buf_add_display(out, r->dlls.v[k], 60);
			buf_addc(out, '\n');
		}
		for (size_t k = 0; k < r->notes.n; k++) {
			buf_printf(out, "    %-11s ", k ? "" : "but");
			buf_add_display(out, r->notes.v[k], 120);
			buf_addc(out, '\n');
		}
	}
}

static void render_fetches(struct buf *out, const struct needs_fetches *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct needs_fetched *x = &fs->v[i];

		if (x->why)
			buf_printf(out, "chose %s\n", x->why);
		buf_printf(out,
			   "read %llu bytes of %s (%llu bytes, %.2f%%) in %u "
			   "%srequests\n",
			   (unsigned long long)x->bytes, x->wheel,
			   (unsigned long long)x->size,
			   x->size ? 100.0 * (double)x->bytes / (double)x->size
				   : 0.0,
			   x->requests, x->metadata ? "" : "range ");
		if (x->metadata)
			buf_printf(out,
				   "    the index's metadata file (PEP 658)%s\n",
				   x->requests > 1 ? ", then range requests "
						     "into the wheel"
						   : "");
	}
	if (fs->n)
		buf_addc(out, '\n');
}

static void render_wants(struct buf *out, const struct needs_scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct needs_want *w = &s->v[i];

		/* a Windows DLL by its own name: the range says the rest */
		buf_printf(out, "%-22s %s%s\n", w->dll ? w->dll : w->soname,
			   w->range,
			   w->alternative ? " (of alternative builds)"
			   : needs_want_plugin(w)
				   ? " (linked only by a plugin for it, loaded "
				     "when asked for)"
			   : needs_want_managed(w) && !needs_want_required(w)
				   ? " (may load: named, not linked)"
				   : "");
		render_files(out, "needed by", &w->needed_by);
		render_files(out, "loaded by", &w->loaded_by);
		render_files(out, "named by", &w->named_by);
		if (w->provided_by)
			buf_printf(out, "    %-11s %s (under PATH)\n",
				   "provided by", w->provided_by);
		else if (w->found)
			buf_printf(out, "    %-11s %s\n", "found in", w->found);
		else if (w->elsewhere)
			buf_printf(out, "    %-11s %s\n", "found at",
				   w->elsewhere);
		else if (strv_find(&s->outside, w->soname) >= 0)
			buf_printf(out, "    %-11s not found here\n", "ld.so");
	}
	for (size_t i = 0; i < s->nalt; i++) {
		const struct needs_alt *a = &s->alt[i];

		buf_printf(out,
			   "%s: %zu builds, one loaded (the one for the CUDA "
			   "in use): any one with all it needs is enough\n",
			   a->pattern, a->files.n);
		render_files(out, "builds", &a->files);
		if (a->met)
			buf_printf(out, "    %-11s %s\n", "met by", a->met);
	}
}

/* What the python found says of each framework. */
static void render_frameworks(struct buf *out, const struct needs_scan *s,
			      const struct needs_python *py)
{
	buf_printf(out, "%sframeworks (%s%s%s):\n", s->n || s->nrep ? "\n" : "",
		   py->exe, py->version ? " " : "",
		   py->version ? py->version : "");
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		const struct needs_framework *f = &py->fw[i];

		buf_printf(out, "  %-11s ", needs_framework_names[i]);
		if (f->absent && f->problem) {
			buf_adds(out, "its import fails: ");
			buf_add_display(out, f->absent, 400);
			buf_addc(out, '\n');
			continue;
		} else if (f->absent) {
			buf_adds(out, "absent: ");
			buf_add_display(out, f->absent, 120);
			buf_addc(out, '\n');
		} else if (!f->cuda && !f->cudnn) {
			buf_add_display(out, f->version, 40);
			buf_adds(out, ", built without CUDA\n");
		} else {
			buf_add_display(out, f->version, 40);
			buf_printf(out, ", built with CUDA %s%s%s\n",
				   f->cuda ? f->cuda : "?",
				   f->cudnn ? ", cuDNN " : "",
				   f->cudnn ? f->cudnn : "");
		}
		if (f->problem) {
			buf_printf(out, "  %-11s problem: ", "");
			buf_add_display(out, f->problem, 400);
			buf_addc(out, '\n');
		}
	}
}

/* The frameworks --python found in its interpreter's sys.path. */
static void render_found(struct buf *out, const struct needs_scan *s,
			 const struct needs_python *py)
{
	if (needs_python_empty(s, py)) {
		buf_printf(out,
			   "no framework in the sys.path of %s: no package "
			   "in its %zu folder%s links a CUDA library, so "
			   "nothing here says what is needed\n"
			   "name the build that failed instead: cuenv needs "
			   "takes its NAME==VERSION on the package index "
			   "(onnxruntime-gpu==1.18.0) or its folder\n",
			   py->finder, py->sites.n,
			   py->sites.n == 1 ? "" : "s");
		return;
	}
	buf_printf(out, "frameworks in the sys.path of %s, by their files:\n",
		   py->finder);
	for (size_t i = 0; i < py->nfound; i++) {
		const struct needs_found *f = &py->found[i];

		for (size_t k = 0; k < f->folders.n; k++)
			buf_printf(out, "  %-12s %s\n", k ? "" : f->name,
				   f->folders.v[k]);
	}
	if (!py->nfound)
		buf_adds(out, "  none\n");
	buf_addc(out, '\n');
}

/* What is installed provides everything: say which, and how to pick it. */
static void render_satisfied(struct buf *out, const struct needs_scan *s,
			     const struct needs_installed *in)
{
	struct buf b = BUF_INIT;
	struct buf maybe = BUF_INIT;

	needs_combo_describe(&in->pick, &b);
	for (size_t i = 0; i < s->n; i++)
		if (needs_want_managed(&s->v[i]) && !s->v[i].found &&
		    !s->v[i].alternative)
			buf_printf(&maybe, "%s%s", maybe.len ? ", " : "",
				   s->v[i].soname);
	if (s->unread.n)
		buf_printf(out,
			   "installed: %s provides what the files read "
			   "need%s; not known for the %zu that could not be "
			   "read\n",
			   b.data, in->active ? " (the active selection)" : "",
			   s->unread.n);
	else if (maybe.len)
		buf_printf(out,
			   "installed: %s provides what the files need%s;"
			   " not %s, which they may load\n",
			   b.data, in->active ? " (the active selection)" : "",
			   maybe.data);
	else if (s->outside.n)
		buf_printf(out,
			   "installed: %s provides what cuenv installs%s\n",
			   b.data, in->active ? " (the active selection)" : "");
	else
		buf_printf(out, "installed: %s provides everything%s\n", b.data,
			   in->active ? " (the active selection)" : "");
	if (!in->active) {
		buf_printf(out, "select it with:\n  cuenv local %s",
			   in->pick.cuda->version);
		if (in->pick.cudnn)
			buf_printf(out, " --cudnn %s", in->pick.cudnn->version);
		if (in->pick.cupti)
			buf_printf(out, " --cupti %s", in->pick.cupti->version);
		buf_addc(out, '\n');
	}
	buf_release(&maybe);
	buf_release(&b);
}

/* Nothing installed does: what is, and what the catalogue offers. */
static void render_offer(struct buf *out, const struct needs_installed *in,
			 const struct needs_offer *o)
{
	buf_adds(out, "installed: nothing provides everything\n");
	if (!in->report.n)
		buf_adds(out, "  nothing is installed\n");
	for (size_t i = 0; i < in->report.n; i++)
		buf_printf(out, "  %s\n", in->report.v[i]);
	if (!o->line) {
		buf_printf(out, "catalogue: %s\n",
			   o->why.len ? o->why.data : "not read");
		return;
	}
	buf_printf(out, "catalogue: cuda %s (%s)", o->cuda->version,
		   source_name(o->cuda->source));
	if (o->cudnn)
		buf_printf(out, " + cudnn %s for CUDA %u (%s)",
			   o->cudnn->version, o->cudnn->cuda_major,
			   source_name(o->cudnn->source));
	if (o->cupti)
		buf_printf(out, " + CUPTI of cuda %s", o->cupti->version);
	buf_printf(out, "\ninstall them with:\n  %s\n", o->line);
}

/* Nothing is asked of cuenv: say why. */
static void render_nothing_asked(struct buf *out, const struct needs_scan *s)
{
	if (!s->n && !s->pe_files)
		buf_printf(out,
			   "no CUDA library is named by these files (%zu "
			   "ELF file%s read)\n",
			   s->files, s->files == 1 ? "" : "s");
	else if (!s->n)
		buf_printf(out,
			   "no CUDA library is named by these files (%zu "
			   "ELF and %zu PE file%s read)\n",
			   s->files - s->pe_files, s->pe_files,
			   s->pe_files == 1 ? "" : "s");
	else {
		struct buf elsewhere = BUF_INIT;

		/* what cuenv does not install, none of it under PATH */
		for (size_t i = 0; i < s->n; i++)
			if (!s->v[i].provided_by &&
			    (s->v[i].needed_by.n || s->v[i].loaded_by.n))
				buf_printf(&elsewhere, "%s%s",
					   elsewhere.len ? ", " : "",
					   s->v[i].soname);
		if (elsewhere.len)
			buf_printf(out,
				   "nothing here is asked of cuenv, which does "
				   "not install %s: the files need it from "
				   "elsewhere (NVIDIA's wheels on the index "
				   "have it)\n",
				   elsewhere.data);
		else
			buf_adds(out, "nothing here is asked of cuenv: the "
				      "files under PATH provide every CUDA "
				      "library they name\n");
		buf_release(&elsewhere);
	}
}

/* The import name of the package a file lies in: its folder's. */
static void module_of(const char *who, struct buf *out)
{
	const char *base = strrchr(who, '/'), *dir;

	base = base ? base : who;
	for (dir = base; dir > who && dir[-1] != '/'; dir--)
		;
	buf_reset(out);
	buf_add(out, dir, (size_t)(base - dir));
}

/*
 * Loads the files do not fix the version of: said, with the command
 * that shows what an import really maps. false when there are none.
 */
static bool render_unknown(struct buf *out, const struct needs_scan *s,
			   const struct needs_python *py)
{
	struct strv lines = STRV_INIT, mods = STRV_INIT, libs = STRV_INIT;
	struct buf m = BUF_INIT, alt = BUF_INIT;

	if (!needs_unknown(s, py, &lines))
		return false;
	buf_adds(out, "unknown for the GPU path: what these load is chosen "
		      "at run time, not named in the files:\n");
	for (size_t i = 0; i < lines.n; i++)
		buf_printf(out, "  %s\n", lines.v[i]);
	for (size_t i = 0; i < s->nunseen; i++) {
		const char *so = s->unseen[i].name;

		module_of(s->unseen[i].who, &m);
		if (m.len &&
		    strspn(m.data, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_") == m.len &&
		    strv_find(&mods, m.data) < 0)
			strv_push(&mods, m.data);
		buf_reset(&m);
		buf_add(&m, so + 3, strlen(so) - 6); /* "cudnn" */
		if (strv_find(&libs, m.data) < 0)
			strv_push(&libs, m.data);
	}
	for (size_t i = 0; i < libs.n; i++)
		buf_printf(&alt, "%s%s", i ? "|" : "", libs.v[i]);
	if (mods.n) {
		/* the interpreter --python read */
		buf_adds(out, "what an import maps decides it (with the "
			      "package installed):\n  LD_DEBUG=libs ");
		shell_quote_word(out, py->finder ? py->finder : "python3");
		buf_adds(out, " -c 'import ");
		for (size_t i = 0; i < mods.n; i++)
			buf_printf(out, "%s%s", i ? ", " : "", mods.v[i]);
		buf_printf(out,
			   "' 2>&1 | grep -E 'calling init: .*/lib(%s)\\.so'"
			   "\n",
			   alt.data);
	}
	buf_addc(out, '\n');
	STRV_RELEASE_EACH(&lines, &mods, &libs);
	BUF_RELEASE_EACH(&m, &alt);
	return true;
}

/*
 * What the files link that cuenv does not install and ld.so does not
 * find here: the wheels that have them, for the CUDA major of what is
 * installed or offered (else said, not guessed).
 */
static void render_outside(struct buf *out, const struct needs_scan *s,
			   const struct needs_installed *in,
			   const struct needs_offer *o)
{
	struct buf names = BUF_INIT, wheels = BUF_INIT, one = BUF_INIT;
	unsigned long major = in->pick.cuda
				      ? version_major(in->pick.cuda->version)
			      : o->cuda ? version_major(o->cuda->version)
					: 0;

	if (!s->outside.n)
		return;
	for (size_t i = 0; i < s->outside.n; i++) {
		const struct nvlib *l = nvlib_match_file(s->outside.v[i], NULL);

		buf_printf(&names, "%s%s", i ? ", " : "", s->outside.v[i]);
		if (!l || !l->wheel)
			continue;
		buf_reset(&one);
		buf_printf(&one, " %s-cu", l->wheel);
		if (major)
			buf_printf(&one, "%lu", major);
		else
			buf_adds(&one, "NN");
		if (!wheels.len || !strstr(wheels.data, one.data))
			buf_adds(&wheels, one.data);
	}
	buf_printf(out,
		   "the files also link %s, which cuenv does not install and "
		   "ld.so does not find here: not satisfied without %s\n",
		   names.data, s->outside.n > 1 ? "them" : "it");
	if (wheels.len && major)
		buf_printf(out, "NVIDIA's wheels have them:\n  pip install%s\n",
			   wheels.data);
	else if (wheels.len)
		buf_printf(out,
			   "NVIDIA's wheels have them (NN: the build's CUDA "
			   "major):%s\n",
			   wheels.data);
	BUF_RELEASE_EACH(&names, &wheels, &one);
}

void needs_render_text(struct buf *out, const struct needs_scan *s,
		       const struct needs_python *py,
		       const struct needs_installed *in,
		       const struct needs_offer *o,
		       const struct needs_fetches *fs, bool asked,
		       bool satisfied)
{
	render_fetches(out, fs);
	if (py->finder) {
		render_found(out, s, py);
		if (needs_python_empty(s, py))
			return;
	}
	render_reports(out, s);
	render_wants(out, s);
	if (py->exe)
		render_frameworks(out, s, py);
	if (s->n || s->nrep || py->exe)
		buf_addc(out, '\n');
	if (render_unknown(out, s, py) && !asked)
		return;
	if (!asked)
		render_nothing_asked(out, s);
	else if (satisfied)
		render_satisfied(out, s, in);
	else
		render_offer(out, in, o);
	render_outside(out, s, in, o);
}

void needs_render(struct buf *out, const struct needs_scan *s,
		  const struct needs_python *py,
		  const struct needs_installed *in, const struct needs_offer *o,
		  const struct needs_fetches *fs, bool asked, bool satisfied,
		  int json)
{
	if (json)
		json_add_report_take(out,
				     needs_json(s, py, in, o, fs, satisfied));
	else
		needs_render_text(out, s, py, in, o, fs, asked, satisfied);
}

int needs_unread_fail(const struct needs_scan *s, struct cuenv_err *err)
{
	struct buf names = BUF_INIT;
	size_t n = s->unread.n,
	       shown = n < NEEDS_SHOW_FILES ? n : NEEDS_SHOW_FILES;
	int rc;

	if (!n)
		return CUENV_OK;
	for (size_t i = 0; i < shown; i++) {
		buf_adds(&names, i ? (i + 1 == n ? " and '" : ", '") : "'");
		buf_add_display(&names, s->unread.v[i], 200);
		buf_addc(&names, '\'');
	}
	if (n > shown)
		buf_printf(&names, " and %zu more", n - shown);
	rc = cuenv_fail(err, CUENV_E_STORE,
			"could not read %s: the answer leaves %s out",
			names.data, n == 1 ? "it" : "them");
	buf_release(&names);
	return rc;
}
