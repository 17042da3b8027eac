/*
 * doctor_venv.c: doctor's checks of a Python environment's frameworks
 * with the loader model (pyload.h): what torch loads under the
 * environment programs get here and under no selection, judged, and the
 * fixes the model says resolve what it finds.
 *
 *	python-loads      what each framework loads, and from where (info)
 *	python-selection  the selection replaces a library the framework
 *	                  loads from its wheels with an older one, mixes
 *	                  cuDNN or leaves a symbol version unsatisfied
 *	python-foreign    LD_LIBRARY_PATH or the loader cache does, with no
 *	                  selection
 */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_int.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "artifact/pyload.h"
#include "artifact/pyobs.h"
#include "base/xalloc.h"

/*
 * One outcome: what the import mapped (obs, when it ran), the loader's
 * state, the span and what it breaks.
 */
struct outcome {
	struct pyobs obs;
	struct loader l;
	struct pyload_span span;
	struct pyload_issues issues;
};

/*
 * fw under the environment env (programs get it): imported in a child
 * and the rest predicted from what it mapped, or, with --no-import or
 * when the child does not answer, predicted from nothing.
 */
static void predict(const struct audit *au, const struct pyload_fw *fw,
		    const struct envmap *env, struct outcome *o)
{
	const struct doctor_in *in = au->in;
	struct loader_env le = {
		.library_path = envmap_get(env, "LD_LIBRARY_PATH"),
		.cache = in->cache,
		.defaults = in->loader_defaults,
		.platform = in->loader_platform,
		.lib = in->loader_lib,
	};

	memset(o, 0, sizeof(*o));
	loader_init(&o->l, &le);
	if (in->observe && in->python)
		pyobs_run(in->python, env->vars.v, fw->name, fw->calls,
			  in->import_ms, &o->obs);
	if (o->obs.ran) {
		pyload_observed(&o->l, &o->obs, fw, &o->span);
		pyload_judge_observed(&o->l, &o->span, &o->obs, fw, &o->issues);
	} else {
		pyload_predict(&o->l, in->python, fw, true, &o->span);
		pyload_judge(&o->l, &o->span, fw, &o->issues);
	}
}

/* The same with LD_LIBRARY_PATH ld (NULL: unset) in base. */
static void predict_ld(const struct audit *au, const struct pyload_fw *fw,
		       const struct envmap *base, const char *ld,
		       struct outcome *o)
{
	struct envmap env = ENVMAP_INIT;

	envmap_copy(&env, base);
	if (ld)
		envmap_set(&env, "LD_LIBRARY_PATH", ld);
	else
		envmap_unset(&env, "LD_LIBRARY_PATH");
	predict(au, fw, &env, o);
	envmap_release(&env);
}

static void outcome_release(struct outcome *o)
{
	pyobs_release(&o->obs);
	loader_release(&o->l);
	pyload_issues_release(&o->issues);
}

/* Does list hold an issue of the same kind, name and file as is? */
static bool has_issue(const struct pyload_issues *list,
		      const struct pyload_issue *is)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct pyload_issue *o = &list->v[i];

		if (o->kind == is->kind && !strcmp(o->name, is->name) &&
		    !o->path == !is->path &&
		    (!o->path || !strcmp(o->path, is->path)))
			return true;
	}
	return false;
}

/*
 * The first MIXED issue of a folder (list->v[at]) says every sub-library
 * from there: "cuDNN's libcudnn_graph.so.9, ... from DIR (SOURCE) under
 * its front library from WANT"; the later ones say nothing.
 */
static void add_mixed(struct buf *b, const struct pyload_issues *list,
		      const struct pyload_issues *except, size_t at)
{
	char *dir = doctor_parent(list->v[at].path);
	struct strv names = STRV_INIT;

	for (size_t i = at; i < list->n; i++) {
		char *d;

		if (list->v[i].kind != PYLOAD_MIXED ||
		    (except && has_issue(except, &list->v[i])))
			continue;
		d = doctor_parent(list->v[i].path);
		if (!strcmp(d, dir))
			strv_push(&names, list->v[i].name);
		free(d);
	}
	buf_adds(b, "cuDNN's ");
	doctor_list(b, &names);
	buf_adds(b, " from ");
	buf_add_display(b, dir, 4096);
	buf_printf(b, " (%s) under its front library from ",
		   list->v[at].source);
	buf_add_display(b, list->v[at].want, 4096);
	buf_adds(b, ": a mixed cuDNN");
	strv_release(&names);
	free(dir);
}

/* Is list->v[at] a MIXED issue whose folder an earlier one said? */
static bool mixed_said(const struct pyload_issues *list,
		       const struct pyload_issues *except, size_t at)
{
	char *dir = doctor_parent(list->v[at].path);
	bool said = false;

	for (size_t i = 0; i < at && !said; i++) {
		char *d;

		if (list->v[i].kind != PYLOAD_MIXED ||
		    (except && has_issue(except, &list->v[i])))
			continue;
		d = doctor_parent(list->v[i].path);
		said = !strcmp(d, dir);
		free(d);
	}
	free(dir);
	return said;
}

/* "libnvJitLink.so.12 from DIR (LD_LIBRARY_PATH): DETAIL" for each. */
static void add_issues(struct buf *b, const struct pyload_issues *list,
		       const struct pyload_issues *except)
{
	size_t k = 0;

	for (size_t i = 0; i < list->n; i++) {
		const struct pyload_issue *is = &list->v[i];

		if ((except && has_issue(except, is)) ||
		    (is->kind == PYLOAD_MIXED && mixed_said(list, except, i)))
			continue;
		buf_adds(b, k++ ? "; " : "");
		if (is->kind == PYLOAD_IMPORT) {
			buf_printf(b, "`import %s` fails: ", is->name);
			buf_add_display(b, is->detail, 4096);
			continue;
		}
		if (is->kind == PYLOAD_MIXED) {
			add_mixed(b, list, except, i);
			continue;
		}
		if (is->path) {
			buf_printf(b, "%s from ", is->name);
			buf_add_display(b, is->path, 4096);
			buf_printf(b, " (%s): ", is->source);
		}
		buf_add_display(b, is->detail, 4096);
	}
}

/* Issues of list that except lacks, as a count. */
static size_t count_new(const struct pyload_issues *list,
			const struct pyload_issues *except)
{
	size_t n = 0;

	for (size_t i = 0; i < list->n; i++)
		n += !except || !has_issue(except, &list->v[i]);
	return n;
}

static const char why_runpath[] =
	"torch's own libraries (libtorch_cuda.so) carry DT_RPATH into the "
	"wheels' nvidia/*/lib folders, which the loader searches before "
	"LD_LIBRARY_PATH; but NVIDIA's wheel libraries carry DT_RUNPATH "
	"($ORIGIN, $ORIGIN/../../nvjitlink/lib), and for an object with "
	"DT_RUNPATH the loader searches LD_LIBRARY_PATH first, for its "
	"DT_NEEDED entries and its dlopen calls alike: what they load in turn "
	"(nvJitLink under cuSPARSE, cuDNN's sub-libraries under its front "
	"library) comes from ";

/* Does list hold an issue of kind k? */
static bool has_kind(const struct pyload_issues *list, enum pyload_kind k)
{
	for (size_t i = 0; i < list->n; i++)
		if (list->v[i].kind == k)
			return true;
	return false;
}

/*
 * How list's issues break fw, into b: the RUNPATH rule for a copy from
 * elsewhere (from: where those copies come from), the CUDA majors, the
 * import that failed.
 */
static void add_why(struct buf *b, const struct pyload_issues *list,
		    const char *from)
{
	const char *sep = "";
	bool runpath = has_kind(list, PYLOAD_SYMBOL) ||
		       has_kind(list, PYLOAD_MIXED) ||
		       has_kind(list, PYLOAD_OLDER),
	     absent = false;

	for (size_t i = 0; i < list->n; i++)
		if (list->v[i].kind == PYLOAD_MISSING) {
			runpath |= list->v[i].want != NULL;
			absent |= list->v[i].want == NULL;
		}
	if (runpath) {
		buf_adds(b, why_runpath);
		buf_adds(b, from);
		buf_adds(b, ", not from the environment's wheels");
		sep = "; ";
	}
	if (absent) {
		buf_printf(b,
			   "%sno folder the loader searches holds a library "
			   "the framework needs, and the environment has no "
			   "wheel that provides it",
			   sep);
		sep = "; ";
	}
	if (has_kind(list, PYLOAD_MAJOR)) {
		buf_printf(b,
			   "%sa CUDA library of another major than the "
			   "framework's build (the CUDA sonames its own "
			   "libraries need, else its wheels' -cuNN names) is "
			   "another ABI: it fails to load, or fails at its "
			   "first call on a GPU",
			   sep);
		sep = "; ";
	}
	if (has_kind(list, PYLOAD_IMPORT))
		buf_printf(b,
			   "%sthe import was run in a child with this "
			   "environment, and failed as quoted",
			   sep);
}

/* ---- what it loads ------------------------------------------------------ */

static void loads_finding(struct audit *au, const struct pyload_fw *fw,
			  const struct outcome *o)
{
	struct draft d = DRAFT_INIT;
	size_t n = 0, from_site = 0, later = 0;
	struct strv others = STRV_INIT;
	const char *python = au->in->python ? au->in->python : "python3";
	char *site = plat_realpath(fw->site);
	bool seen = o->obs.ran;

	for (size_t i = o->span.first; i < o->span.on_use; i++) {
		const struct loader_obj *ob = &o->l.obj[i];
		const char *name =
			ob->elf.soname ? ob->elf.soname : ob->names.v[0];
		char *real;

		if (!nvlib_is_cuda_file(name))
			continue;
		n++;
		strv_push(&d.paths, ob->path);
		real = plat_realpath(ob->path);
		if (real && site && !strncmp(real, site, strlen(site)))
			from_site++;
		else {
			char *dir = doctor_parent(ob->path);

			doctor_push_unique(&others, dir);
			free(dir);
		}
		free(real);
	}
	/* then what it loads when it computes: paths lists those too */
	for (size_t i = o->span.on_use; i < o->l.nobj; i++) {
		const struct loader_obj *ob = &o->l.obj[i];

		if (nvlib_is_cuda_file(ob->elf.soname ? ob->elf.soname
						      : ob->names.v[0])) {
			later++;
			strv_push(&d.paths, ob->path);
		}
	}
	buf_printf(&d.what, "%s in ", fw->name);
	buf_add_display(&d.what, fw->site, 4096);
	buf_printf(&d.what,
		   " (%s) %s %zu CUDA libraries at import, %zu "
		   "of them from that environment",
		   python, seen ? "mapped" : "loads", n, from_site);
	if (others.n) {
		buf_adds(&d.what, ", the rest from ");
		doctor_list(&d.what, &others);
	}
	if (later)
		buf_printf(&d.what, "; %zu more when it computes (predicted)",
			   later);
	if (seen)
		buf_printf(&d.why,
			   "observed: `import %s` run by %s in a child with "
			   "the environment programs get here%s; the files "
			   "it mapped (/proc/self/maps) come first in paths, "
			   "then what the loader model predicts it loads "
			   "only on a GPU, from that state",
			   fw->name, python,
			   o->obs.imported ? "" : " (the import failed)");
	else
		buf_printf(&d.why,
			   "predicted, nothing imported (%s): as the loader "
			   "model predicts it for the environment programs "
			   "get here (each file is in paths, those loaded at "
			   "import first), with no GPU",
			   o->obs.why ? o->obs.why : "--no-import");
	doctor_emit(au->out, "python-loads", DOCTOR_INFO, &d);
	strv_release(&others);
	free(site);
}

/* ---- fixes the model checks --------------------------------------------- */

/*
 * LD_LIBRARY_PATH without the folders the issues' copies came from
 * there, into out (NULL when nothing is left). True when a folder went.
 */
static bool drop_folders(const char *ld, const struct pyload_issues *list,
			 struct strv *kept)
{
	struct strv dirs = STRV_INIT, bad = STRV_INIT;
	bool dropped = false;

	for (size_t i = 0; i < list->n; i++)
		if (list->v[i].path && list->v[i].source &&
		    !strcmp(list->v[i].source, "LD_LIBRARY_PATH"))
			strv_push_take(&bad, doctor_parent(list->v[i].path));
	if (ld)
		strv_split(&dirs, ld, ':');
	for (size_t i = 0; i < dirs.n; i++) {
		if (strv_find(&bad, dirs.v[i]) >= 0 || !*dirs.v[i]) {
			dropped |= *dirs.v[i] != '\0';
			continue;
		}
		strv_push(kept, dirs.v[i]);
	}
	STRV_RELEASE_EACH(&dirs, &bad);
	return dropped;
}

/* The wheels' folders holding the copies issues want instead. */
static void want_folders(const struct pyload_issues *list, struct strv *out)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct pyload_issue *is = &list->v[i];
		char *dir;

		if (!is->want)
			continue;
		dir = is->kind == PYLOAD_MIXED ? xstrdup(is->want)
					       : doctor_parent(is->want);
		doctor_push_unique(out, dir);
		free(dir);
	}
}

/*
 * Does fw load cleanly in base with LD_LIBRARY_PATH ld (NULL: unset)?
 * Observed again when the finding was: a fix is checked as it was found.
 * Where it does not, the folders of the environment's own copies of what
 * is still wrong are added to want (when not NULL).
 */
static bool clean_with(const struct audit *au, const struct pyload_fw *fw,
		       const struct envmap *base, const char *ld,
		       struct strv *want)
{
	struct outcome o;
	bool clean;

	predict_ld(au, fw, base, ld, &o);
	clean = o.issues.n == 0;
	if (want)
		want_folders(&o.issues, want);
	outcome_release(&o);
	return clean;
}

/* "export LD_LIBRARY_PATH=..." or "unset LD_LIBRARY_PATH" for dirs. */
static void ld_command(const struct strv *dirs, struct buf *b)
{
	struct buf v = BUF_INIT;

	strv_join(dirs, ':', &v);
	if (v.len) {
		buf_adds(b, "export LD_LIBRARY_PATH=");
		shell_quote(SHELL_SH, v.data, b);
	} else {
		buf_adds(b, "unset LD_LIBRARY_PATH");
	}
	buf_release(&v);
}

/* Is fw clean with LD_LIBRARY_PATH dirs (none: unset)? Its command into
 * fix when it is; clean_with's want otherwise. */
static bool try_ld(const struct audit *au, const struct pyload_fw *fw,
		   const struct envmap *base, const struct strv *dirs,
		   struct strv *want, struct buf *fix)
{
	struct buf v = BUF_INIT;
	bool clean;

	strv_join(dirs, ':', &v);
	clean = clean_with(au, fw, base, v.len ? v.data : NULL, want);
	if (clean)
		ld_command(dirs, fix);
	buf_release(&v);
	return clean;
}

/*
 * The first LD_LIBRARY_PATH fw loads cleanly with, as a command into
 * fix: without the folders that gave the bad copies, then unset, then
 * the environment's own folders for what is wrong first, each try's
 * remaining issues adding theirs (TensorFlow 2.16 finds its wheels'
 * cuBLAS that way, and then takes CUDA 13's cuRAND from the loader
 * cache: its wheel's folder is next). False when none does.
 */
static bool foreign_fix(const struct audit *au, const struct pyload_fw *fw,
			const struct envmap *base,
			const struct pyload_issues *list, struct buf *fix)
{
	const char *ld = envmap_get(base, "LD_LIBRARY_PATH");
	struct strv kept = STRV_INIT, want = STRV_INIT, none = STRV_INIT;
	bool found = false;

	if (drop_folders(ld, list, &kept) && kept.n)
		found = try_ld(au, fw, base, &kept, NULL, fix);
	if (!found && ld && *ld)
		found = try_ld(au, fw, base, &none, NULL, fix);
	want_folders(list, &want);
	for (size_t round = 0, tried = 0; !found && want.n > tried && round < 4;
	     round++) {
		struct strv t = STRV_INIT;

		tried = want.n;
		for (size_t i = 0; i < want.n; i++)
			strv_push(&t, want.v[i]);
		for (size_t i = 0; i < kept.n; i++)
			doctor_push_unique(&t, kept.v[i]);
		found = try_ld(au, fw, base, &t, &want, fix);
		strv_release(&t);
	}
	STRV_RELEASE_EACH(&kept, &want);
	return found;
}

/*
 * A wheel's library missing from the environment (deleted, or never
 * installed): the exact pins the framework's metadata gives for each
 * missing library, as one `PYTHON -m pip install` into fix. False when
 * a missing library has no such pin, or nothing is missing.
 */
static bool pip_fix(const struct audit *au, const struct pyload_fw *fw,
		    const struct pyload_issues *list, struct buf *fix)
{
	struct strv reqs = STRV_INIT;
	struct buf req = BUF_INIT;
	bool all = true;

	for (size_t i = 0; all && i < list->n; i++) {
		if (list->v[i].kind != PYLOAD_MISSING)
			continue;
		/* a wheel that is there: installing it again changes nothing */
		all = !list->v[i].want &&
		      pyload_wheel_pin(fw->site, list->v[i].name, &req);
		if (all)
			doctor_push_unique(&reqs, req.data);
	}
	if (all && reqs.n && au->in->python) {
		shell_quote(SHELL_SH, au->in->python, fix);
		buf_adds(fix, " -m pip install");
		for (size_t i = 0; i < reqs.n; i++) {
			buf_addc(fix, ' ');
			shell_quote(SHELL_SH, reqs.v[i], fix);
		}
	}
	strv_release(&reqs);
	buf_release(&req);
	return fix->len > 0;
}

/*
 * No LD_LIBRARY_PATH finds fw whole here and no pin names what is
 * missing (onnxruntime 1.18, a CUDA 11 build, on a machine with CUDA 12
 * and 13 only): the command that decides it, `cuenv needs SITE/PKG`,
 * which names the CUDA and cuDNN the package's files ask for and the
 * install line that gives them.
 */
static void needs_fix(const struct pyload_fw *fw, struct draft *d)
{
	struct buf pkg = BUF_INIT;

	buf_path(&pkg, fw->site, fw->name);
	buf_adds(&d->fix, "cuenv needs ");
	shell_quote(SHELL_SH, pkg.data, &d->fix);
	buf_adds(&d->why, "; no LD_LIBRARY_PATH here finds the framework "
			  "whole and no wheel its metadata pins gives what "
			  "is missing: the fix names the CUDA and cuDNN its "
			  "files ask for and the command that installs them");
	buf_release(&pkg);
}

/* Who judged o: "the import, observed," or "the loader model". */
static const char *judge_of(const struct outcome *o)
{
	return o->obs.ran ? "the import (observed, and predicted on from "
			    "there)"
			  : "the loader model";
}

/* ---- the findings ------------------------------------------------------- */

static void selection_finding(struct audit *au, const struct pyload_fw *fw,
			      const struct outcome *s, const struct outcome *n,
			      const char *ldfix)
{
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what, "the selection (%s) breaks %s in ", au->label.data,
		   fw->name);
	buf_add_display(&d.what, fw->site, 4096);
	buf_adds(&d.what, ": ");
	add_issues(&d.what, &s->issues, &n->issues);
	add_why(&d.why, &s->issues,
		"the selection, and the import fails (\"undefined symbol ..., "
		"version libnvJitLink.so.12\", \"cuDNN version "
		"incompatibility\") or runs a mixed cuDNN");
	/* n is the prediction with cuenv off: none of these is in it */
	doctor_setter(au, &d.fix);
	buf_adds(&d.fix, " system");
	if (ldfix) { /* what breaks without it too, cleared with it */
		buf_printf(&d.fix, " && %s", ldfix);
		buf_printf(&d.why,
			   "; with cuenv off here and that LD_LIBRARY_PATH (the "
			   "fix) %s finds every library it loads whole",
			   judge_of(n));
	} else if (n->issues.n) {
		/* cuenv off breaks it too, and no LD_LIBRARY_PATH mends it:
		 * the wheels its metadata pins, or the selection it needs */
		struct buf pip = BUF_INIT;

		if (pip_fix(au, fw, &n->issues, &pip)) {
			buf_printf(&d.fix, " && %s", pip.data);
			buf_printf(&d.why,
				   "; with cuenv off here %s finds what the "
				   "fix's wheels give missing (not tried "
				   "here: it downloads)",
				   judge_of(n));
		} else {
			buf_reset(&d.fix);
			needs_fix(fw, &d);
		}
		buf_release(&pip);
	} else
		buf_printf(&d.why,
			   "; with cuenv off here (the fix) %s finds every "
			   "library it loads whole: its wheels are the CUDA it "
			   "runs on",
			   judge_of(n));
	for (size_t i = 0; i < s->issues.n; i++)
		if (s->issues.v[i].path)
			doctor_push_unique(&d.paths, s->issues.v[i].path);
	doctor_emit(au->out, "python-selection", DOCTOR_PROBLEM, &d);
}

/*
 * The framework asks for the driver's library and the loader finds
 * none. With no driver on this machine (a login node, a build
 * container) that is no fault of the environment: said, as information,
 * with what was checked. With a driver, the loader not finding its
 * library is a problem.
 */
static void driver_finding(struct audit *au, const struct pyload_fw *fw)
{
	struct buf where = BUF_INIT;

	buf_add_display(&where, fw->site, 4096);
	if (!au->in->driver)
		doctor_emitf(au->out, "python-no-driver", DOCTOR_INFO,
			     "the driver's library is the machine's, not the "
			     "environment's; what the framework loads from "
			     "the environment and the selection is checked "
			     "above all the same",
			     "on a machine with an NVIDIA driver: cuenv doctor",
			     "the GPU path of %s in %s cannot be checked here: "
			     "no driver (its " NVLIB_DRIVER_SO ".1 is not on "
			     "this machine)",
			     fw->name, where.data);
	else
		doctor_emitf(
			au->out, "python-no-driver", DOCTOR_PROBLEM,
			"the driver is installed, but the loader's "
			"search (LD_LIBRARY_PATH, the loader cache, the "
			"default folders) finds no " NVLIB_DRIVER_SO ".1",
			"ldconfig -p | grep " NVLIB_DRIVER_SO ".1",
			"%s in %s cannot load the driver %s's " NVLIB_DRIVER_SO
			".1",
			fw->name, where.data, au->in->driver);
	buf_release(&where);
}

/*
 * What the model leaves out in fw (pyload_issues.unseen): said as
 * information, never as "no problem" about it: whether an add-on's
 * module or another product's plugin loads is decided where that
 * add-on or product is installed.
 */
static void unseen_finding(struct audit *au, const struct pyload_fw *fw,
			   const struct strv *unseen)
{
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what, "not judged here in %s in ", fw->name);
	buf_add_display(&d.what, fw->site, 4096);
	buf_adds(&d.what, ": ");
	for (size_t i = 0; i < unseen->n; i++) {
		if (i)
			buf_adds(&d.what, "; ");
		buf_add_display(&d.what, unseen->v[i], 4096);
	}
	buf_adds(&d.why, "these load only where what they need is installed "
			 "(an add-on the package leaves to the user, or "
			 "another product): nothing here says which version "
			 "that would be, so they are neither predicted nor "
			 "judged; doctor there judges them");
	doctor_emit(au->out, "python-unseen", DOCTOR_INFO, &d);
}

/* Does list hold any issue of other? */
static bool shares_issue(const struct pyload_issues *list,
			 const struct pyload_issues *other)
{
	for (size_t i = 0; i < list->n; i++)
		if (has_issue(other, &list->v[i]))
			return true;
	return false;
}

/*
 * What LD_LIBRARY_PATH or the loader's search breaks in fw (n's issues),
 * ldfix the LD_LIBRARY_PATH that clears them (foreign_fix), or NULL.
 * sev: a problem for the state the user is in; information for the state
 * without the selection (au->a->ok), unless the selection leaves those
 * issues in place.
 */
static void foreign_finding(struct audit *au, const struct pyload_fw *fw,
			    const struct outcome *n, const char *ldfix,
			    enum doctor_severity sev)
{
	struct draft d = DRAFT_INIT;
	bool ld_source = false, copies = false;
	const char *hyp = au->a->ok ? " (without the selection)" : "";

	for (size_t i = 0; i < n->issues.n; i++) {
		ld_source |= n->issues.v[i].source &&
			     !strcmp(n->issues.v[i].source, "LD_LIBRARY_PATH");
		copies |= n->issues.v[i].kind != PYLOAD_IMPORT;
	}
	if (copies)
		buf_printf(&d.what, "%s%s breaks %s in ",
			   ld_source ? "LD_LIBRARY_PATH"
				     : "the loader's search",
			   hyp, fw->name);
	else
		buf_printf(&d.what, "%s%s fails in ", fw->name, hyp);
	buf_add_display(&d.what, fw->site, 4096);
	buf_adds(&d.what, ": ");
	add_issues(&d.what, &n->issues, NULL);
	add_why(&d.why, &n->issues,
		ld_source ? "LD_LIBRARY_PATH's folders"
			  : "the loader cache or the default folders where "
			    "the wheels' own RUNPATH does not name the folder");
	if (ldfix) {
		/* under a selection, cuenv's folders would come first again */
		if (au->a->ok) {
			doctor_setter(au, &d.fix);
			buf_adds(&d.fix, " system && ");
		}
		buf_adds(&d.fix, ldfix);
		buf_printf(&d.why,
			   "; with the fix %s finds every library it "
			   "loads whole",
			   judge_of(n));
	} else if (pip_fix(au, fw, &n->issues, &d.fix))
		buf_adds(&d.why, "; the fix installs the wheels its metadata "
				 "pins (not tried here: it downloads)");
	else
		needs_fix(fw, &d);
	for (size_t i = 0; i < n->issues.n; i++)
		if (n->issues.v[i].path)
			doctor_push_unique(&d.paths, n->issues.v[i].path);
	doctor_emit(au->out, "python-foreign", sev, &d);
}

static void check_fw(struct audit *au, const struct pyload_fw *fw)
{
	const struct envmap *base = au->a->ok ? &au->a->base : au->eff;
	struct outcome s, n;
	struct buf ld = BUF_INIT; /* the LD_LIBRARY_PATH that clears n */
	bool have_ld = false;

	predict(au, fw, au->eff, &s);
	loads_finding(au, fw, &s);
	if (s.issues.driver_missing)
		driver_finding(au, fw);
	if (s.issues.unseen.n)
		unseen_finding(au, fw, &s.issues.unseen);
	if (au->a->ok) {
		predict(au, fw, base, &n);
		if (n.issues.n && foreign_fix(au, fw, base, &n.issues, &ld))
			have_ld = true;
		if (count_new(&s.issues, &n.issues))
			selection_finding(au, fw, &s, &n,
					  have_ld ? ld.data : NULL);
		if (n.issues.n)
			foreign_finding(au, fw, &n, have_ld ? ld.data : NULL,
					shares_issue(&n.issues, &s.issues)
						? DOCTOR_PROBLEM
						: DOCTOR_INFO);
		outcome_release(&n);
	} else if (s.issues.n) {
		have_ld = foreign_fix(au, fw, au->eff, &s.issues, &ld);
		foreign_finding(au, fw, &s, have_ld ? ld.data : NULL,
				DOCTOR_PROBLEM);
	}
	outcome_release(&s);
	buf_release(&ld);
}

void doctor_check_python(struct audit *au)
{
	struct pyload_fws fws = { 0 };

	pyload_find(au->in->site_dirs, &fws);
	for (size_t i = 0; i < fws.n; i++)
		check_fw(au, &fws.v[i]);
	pyload_fws_release(&fws);
}

bool doctor_python_modelled(const struct audit *au, const char *site)
{
	struct pyload_fws fws = { 0 };
	struct strv one = STRV_INIT;
	bool found;

	strv_push(&one, site);
	pyload_find(&one, &fws);
	found = fws.n > 0;
	pyload_fws_release(&fws);
	strv_release(&one);
	(void)au;
	return found;
}
