#include "doctor.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "detect.h"
#include "file.h"
#include "nvlib.h"
#include "shell.h"
#include "version.h"
#include "xalloc.h"

#define SHOW_MAX 6	      /* library names listed in one sentence */
#define RECORD_MAX (8u << 20) /* a wheel's RECORD file */
#define META_MAX (32u << 20)  /* a conda-meta/<package>.json file */
#define DRIVER_TEXT_MAX 4096
#define CUDNN_FILES_MAX 8		 /* cuDNN libraries looked into */
#define CUDNN_FILE_MAX ((off_t)64 << 20) /* ... each at most this big */

/* ---- findings ----------------------------------------------------------- */

void findings_release(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].what);
		free(f->v[i].why);
		free(f->v[i].fix);
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
	switch (s) {
	case DOCTOR_PROBLEM:
		return "problem";
	case DOCTOR_WARNING:
		return "warning";
	case DOCTOR_INFO:
		break;
	}
	return "info";
}

/* A finding being written. */
struct draft {
	struct buf what, why, fix;
	struct strv paths;
};

#define DRAFT_INIT                                                             \
	{                                                                      \
		BUF_INIT, BUF_INIT, BUF_INIT, STRV_INIT                        \
	}

/* Append d to out as a finding; d is left empty. */
static void emit(struct findings *out, const char *id, enum doctor_severity s,
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

/* ---- small helpers ------------------------------------------------------ */

static void push_unique(struct strv *sv, const char *s)
{
	if (strv_find(sv, s) < 0)
		strv_push(sv, s);
}

/* The folder part of path ("/a/b/c" -> "/a/b"), heap. */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Do a and b name the same folder (as given, or through links)? */
static int same_dir(const char *a, const char *b)
{
	char *ra, *rb;
	int same;

	if (!strcmp(a, b))
		return 1;
	ra = realpath(a, NULL);
	rb = realpath(b, NULL);
	same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

/* Append s as one shell word, quoted only when it needs to be. */
static void add_word(struct buf *b, const char *s)
{
	if (*s &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_./:@%+=,-") == strlen(s))
		buf_adds(b, s);
	else
		shell_quote(SHELL_SH, s, b);
}

/* "a, b, c and 4 more" */
static void add_list(struct buf *b, const struct strv *names)
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

/* Is name a CUDA shared library ("libcublasLt.so.12", "libcudnn.so")? */
static int cuda_lib(const char *name)
{
	return nvlib_is_cuda_file(name);
}

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

static unsigned libs_major(const struct strv *libs)
{
	unsigned m = 0;

	for (size_t i = 0; i < libs->n && !m; i++)
		m = soname_major(libs->v[i]);
	return m;
}

/* The N of the first libcudnn.so.N in libs, or 0. */
static unsigned cudnn_soname_major(const struct strv *libs)
{
	for (size_t i = 0; i < libs->n; i++) {
		const char *p = libs->v[i];

		if (!strncmp(p, "libcudnn.so.", 12) && p[12] >= '1' &&
		    p[12] <= '9')
			return (unsigned)strtoul(p + 12, NULL, 10);
	}
	return 0;
}

/* The CUDA library file names in dir, sorted. */
static void cuda_libs_in(const char *dir, struct strv *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (cuda_lib(de->d_name))
			push_unique(out, de->d_name);
	closedir(d);
	strv_sort(out);
}

/* ---- the driver --------------------------------------------------------- */

int doctor_parse_driver(const char *text, struct buf *out)
{
	const char *p = strstr(text, "Kernel Module");
	static const char ws[] = " \t\r\n";

	p = p ? p + strlen("Kernel Module") : text;
	while (*(p += strspn(p, ws))) {
		size_t n = strcspn(p, ws);
		char *tok = xstrndup(p, n);
		int ok =
		    memchr(tok, '.', n) && compat_driver_cmp(tok, tok) == 0;

		if (ok) {
			buf_sets(out, tok);
			free(tok);
			return 0;
		}
		free(tok);
		p += n;
	}
	return -1;
}

int doctor_read_driver(const char *const *paths, struct buf *version,
		       struct buf *from)
{
	for (; *paths; paths++) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf text = BUF_INIT;
		int found = !file_read(*paths, DRIVER_TEXT_MAX,
				       FILE_MAY_BE_MISSING, &text, &err) &&
			    !doctor_parse_driver(text.data, version);

		buf_release(&text);
		err_release(&err);
		if (found) {
			buf_sets(from, *paths);
			return 1;
		}
	}
	return 0;
}

const char *doctor_cuda_version(const struct activation *a)
{
	if (a->ok)
		return a->act.cuda->version;
	if (selection_active(&a->sel) && version_is_valid(a->sel.cuda))
		return a->sel.cuda;
	return NULL;
}

/* ---- the audit ---------------------------------------------------------- */

struct audit {
	const struct doctor_in *in;
	struct findings *out;
	const struct activation *a;
	const struct envmap *eff; /* the environment programs get */
	int shell_active;	  /* eff is this shell's own environment */
	struct buf label;	  /* "cuda 12.4.1 + cudnn 9.1.0.70" */
	struct strv dirs;	  /* the selection's library folders */
	struct strv real_dirs;	  /* ... through links */
	struct strv provides;	  /* library file names in them */
	struct strv missing;	  /* sonames expected there but absent */
};

/* The command that changes the selection where it was made. */
static void add_setter(const struct audit *au, struct buf *b)
{
	const struct selection *sel = &au->a->sel;

	if (sel->origin == SEL_FILE && sel->origin_path) {
		char *dir = parent_of(sel->origin_path);

		buf_adds(b, "cd ");
		add_word(b, dir);
		buf_adds(b, " && cuenv local");
		free(dir);
	} else if (sel->origin == SEL_GLOBAL) {
		buf_adds(b, "cuenv global");
	} else {
		buf_adds(b, "cuenv use");
	}
}

/* "cuenv install SPEC [--cudnn V] [--cupti V]" for what sel asks. */
static void add_install(const struct selection *sel, const char *cuda,
			struct buf *b)
{
	buf_adds(b, "cuenv install ");
	add_word(b, cuda);
	if (sel->cudnn) {
		buf_adds(b, " --cudnn ");
		add_word(b, sel->cudnn);
	}
	if (sel->cupti) {
		buf_adds(b, " --cupti ");
		add_word(b, sel->cupti);
	}
}

/* Can `cuenv install CUDA` work: is it in the catalogue (or none read)? */
static bool installable(const struct audit *au, const char *cuda)
{
	return !au->in->cat ||
	       catalog_find(au->in->cat, KIT_CUDA, cuda, 0, -1) != NULL;
}

/*
 * Before a command that selects CUDA cuda (and cuDNN cudnn, or NULL):
 * "cuenv install CUDA [--cudnn V] && " for what is not installed, when
 * the catalogue has it. When it has not, b gets the manual step instead
 * and false is returned: a fix is a command that works as printed from
 * the current state, or says that it is not one.
 */
static bool add_get_first(const struct audit *au, const char *cuda,
			  const char *cudnn, struct buf *b)
{
	const struct install *have = select_pick(&au->a->cudas, cuda, 0);
	const struct release *r;
	unsigned major;

	if (have && (!cudnn || select_pick(&au->a->cudnns, cudnn,
					   have->cuda_major)))
		return true;
	r = au->in->cat ? catalog_find(au->in->cat, KIT_CUDA, cuda, 0, -1)
			: NULL;
	major = have ? have->cuda_major : r ? r->cuda_major : 0;
	if (!au->in->cat ||
	    (r && (!cudnn || catalog_find(au->in->cat, KIT_CUDNN, cudnn,
					  major, -1)))) {
		buf_adds(b, "cuenv install ");
		add_word(b, cuda);
		if (cudnn) {
			buf_adds(b, " --cudnn ");
			add_word(b, cudnn);
		}
		buf_adds(b, " && ");
		return true;
	}
	buf_printf(b,
		   "CUDA %s%s%s is neither installed nor in cuenv's "
		   "catalogue (cuenv list-remote lists it), so by hand: "
		   "register what you have (cuenv add cuda PATH, cuenv add "
		   "cudnn PATH), then: ",
		   cuda, cudnn ? " with cuDNN " : "", cudnn ? cudnn : "");
	return false;
}

/*
 * "cuenv install CUDA --cudnn V" for a cuDNN that cuda's major lacks,
 * when the catalogue has such a build; else the manual step.
 */
static void add_cudnn_install(const struct audit *au,
			      const struct install *cuda, const char *cudnn,
			      struct buf *b)
{
	if (au->in->cat && (!installable(au, cuda->version) ||
			    !catalog_find(au->in->cat, KIT_CUDNN, cudnn,
					  cuda->cuda_major, -1))) {
		buf_printf(b,
			   "by hand, as cuenv's catalogue has no cuDNN %s "
			   "build for CUDA %s (cuenv list-remote cudnn): "
			   "register one you have (cuenv add cudnn PATH)",
			   cudnn, cuda->version);
		return;
	}
	buf_adds(b, "cuenv install ");
	add_word(b, cuda->version);
	buf_adds(b, " --cudnn ");
	add_word(b, cudnn);
}

static void add_origin(const struct selection *sel, struct strv *paths)
{
	if ((sel->origin == SEL_FILE || sel->origin == SEL_GLOBAL) &&
	    sel->origin_path)
		strv_push(paths, sel->origin_path);
}

/* ---- the selection itself ----------------------------------------------- */

static void not_installed(struct audit *au)
{
	const struct activation *a = au->a;
	const struct selection *sel = &a->sel;
	const char *msg = au->in->act_err ? au->in->act_err->msg.data : "";
	const struct install *cuda = select_pick(&a->cudas, sel->cuda, 0);
	struct draft d = DRAFT_INIT;
	const char *id = "selection-not-installed";

	add_origin(sel, &d.paths);
	if (!cuda) {
		char *rt = detect_soname("cudart", sel->cuda);

		buf_adds(&d.what, msg);
		buf_adds(&d.why, "the shell hook then activates nothing here "
				 "and cuenv exec refuses to run, so programs "
				 "get whatever CUDA the system has");
		if (rt)
			buf_printf(&d.why,
				   ", or none: \"Could not load dynamic "
				   "library '%s'\"",
				   rt);
		if (installable(au, sel->cuda)) {
			add_install(sel, sel->cuda, &d.fix);
			buf_adds(&d.fix, "; or register a toolkit you have: "
					 "cuenv add cuda PATH");
		} else {
			buf_printf(&d.fix,
				   "cuda %s is not in cuenv's catalogue "
				   "(cuenv list-remote cuda lists what it "
				   "can install): register a toolkit you "
				   "have (cuenv add cuda PATH)",
				   sel->cuda);
		}
		if (a->cudas.n) {
			const struct install *have =
			    a->cudas.v[a->cudas.n - 1];

			buf_adds(&d.fix, "; or choose one installed: ");
			add_setter(au, &d.fix);
			buf_adds(&d.fix, " ");
			add_word(&d.fix, have->version);
		}
		free(rt);
	} else if (sel->cudnn &&
		   !select_pick(&a->cudnns, sel->cudnn, cuda->cuda_major)) {
		const struct install *other =
		    select_pick(&a->cudnns, sel->cudnn, 0);

		if (other && other->cuda_major != cuda->cuda_major) {
			const struct install *pair = NULL;
			struct buf spec = BUF_INIT;

			id = "cudnn-cuda-mismatch";
			buf_printf(&spec, "%u", other->cuda_major);
			pair = select_pick(&a->cudas, spec.data, 0);
			buf_printf(&d.what,
				   "cudnn %s is installed only for CUDA %u "
				   "(%s, from its receipt's cuda_major), but "
				   "the selected runtime is cuda %s, CUDA %u",
				   other->version, other->cuda_major,
				   other->name, cuda->version,
				   cuda->cuda_major);
			buf_printf(&d.why,
				   "a cuDNN build belongs to one CUDA major: "
				   "cuDNN %s for CUDA %u loads "
				   "libcublasLt.so.%u and the CUDA %u runtime, "
				   "which CUDA %u does not provide, so cuenv "
				   "will not pair them, and a framework that "
				   "finds this cuDNN some other way stops with "
				   "\"Could not load dynamic library "
				   "'libcublasLt.so.%u'\" or fails its first "
				   "convolution; with no cuDNN found it says "
				   "\"libcudnn.so.%lu: cannot open shared "
				   "object file\"",
				   other->version, other->cuda_major,
				   other->cuda_major, other->cuda_major,
				   cuda->cuda_major, other->cuda_major,
				   strtoul(other->version, NULL, 10));
			buf_printf(&d.fix, "the cuDNN build for CUDA %u: ",
				   cuda->cuda_major);
			add_cudnn_install(au, cuda, sel->cudnn, &d.fix);
			if (pair) {
				buf_printf(&d.fix,
					   "; or pair it with CUDA %u: ",
					   other->cuda_major);
				add_setter(au, &d.fix);
				buf_printf(&d.fix, " %s --cudnn ",
					   pair->version);
				add_word(&d.fix, sel->cudnn);
			}
			strv_push(&d.paths, other->prefix);
			strv_push(&d.paths, cuda->prefix);
			buf_release(&spec);
		} else {
			buf_adds(&d.what, msg);
			buf_printf(
			    &d.why,
			    "the shell hook then activates nothing here "
			    "and cuenv exec refuses to run; frameworks "
			    "that find no cuDNN stop with \"libcudnn.so: "
			    "cannot open shared object file\" or "
			    "\"Could not load dynamic library "
			    "'libcudnn.so.N'\"");
			add_cudnn_install(au, cuda, sel->cudnn, &d.fix);
		}
	} else {
		buf_adds(&d.what, msg);
		buf_adds(&d.why, "the shell hook then activates nothing here "
				 "and cuenv exec refuses to run; a framework "
				 "that loads CUPTI by name says \"Could not "
				 "load dynamic library 'libcupti.so...'\"");
		buf_adds(&d.fix, "cuenv install ");
		add_word(&d.fix, cuda->version);
		if (sel->cupti) {
			buf_adds(&d.fix, " --cupti ");
			add_word(&d.fix, sel->cupti);
		}
	}
	emit(au->out, id, DOCTOR_PROBLEM, &d);
}

static void check_selection(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const struct selection *sel = &au->a->sel;
	struct draft d = DRAFT_INIT;

	if (in->act_rc == CUENV_E_NOT_INSTALLED) {
		not_installed(au);
		return;
	}
	if (in->act_rc) {
		buf_adds(&d.what, in->act_err ? in->act_err->msg.data
					      : "the selection cannot be read");
		buf_adds(&d.why, "cuenv cannot tell what to activate here: the "
				 "shell hook deactivates cuenv and cuenv exec "
				 "refuses to run, so programs get whatever "
				 "CUDA the system has");
		if (in->act_err && in->act_err->hint.len)
			buf_adds(&d.fix, in->act_err->hint.data);
		else if (sel->origin_path)
			buf_printf(&d.fix, "fix or remove %s",
				   sel->origin_path);
		add_origin(sel, &d.paths);
		emit(au->out, "selection-invalid", DOCTOR_PROBLEM, &d);
		return;
	}
	if (sel->origin == SEL_NONE) {
		buf_adds(&d.what, "nothing is selected here: no CUENV_VERSION, "
				  "no .cuenv from this folder up, no global "
				  "default");
		buf_adds(&d.why, "cuenv leaves the environment alone, so "
				 "programs load whatever CUDA their RPATH, "
				 "LD_LIBRARY_PATH and the loader cache give");
		buf_adds(&d.fix, "choose one for this project: cuenv local "
				 "VERSION (see cuenv versions)");
		emit(au->out, "nothing-selected", DOCTOR_INFO, &d);
	} else if (!selection_active(sel)) {
		buf_adds(&d.what, "cuda = system here (");
		selection_describe_origin(sel, &d.what);
		buf_adds(&d.what, "): cuenv stays out of the way");
		buf_adds(&d.why, "programs load whatever CUDA their RPATH, "
				 "LD_LIBRARY_PATH and the loader cache give");
		add_origin(sel, &d.paths);
		emit(au->out, "nothing-selected", DOCTOR_INFO, &d);
	}
}

/* Which environment do programs started here get? */
static void choose_env(struct audit *au)
{
	const struct envmap *env = au->in->env;
	const char *have = envmap_get(env, "CUENV_ACTIVE");
	const char *want = envmap_get(&au->a->after, "CUENV_ACTIVE");
	struct draft d = DRAFT_INIT;

	au->eff = env;
	if (!au->a->ok)
		return;
	if (envmap_get(env, ENV_STATE_VAR) && have && want &&
	    !strcmp(have, want)) {
		au->shell_active = 1;
		return;
	}
	au->eff = &au->a->after;
	if (envmap_get(env, ENV_STATE_VAR) && have) {
		buf_printf(&d.what,
			   "this shell carries cuda %s, but here %s is "
			   "selected",
			   have, au->label.data);
		buf_adds(&d.why,
			 "programs started from this shell load the "
			 "other selection's libraries; the shell hook "
			 "switches at the next prompt, but a shell "
			 "that ran eval \"$(cuenv env)\" elsewhere keeps "
			 "what it got (doctor checked what the hook "
			 "gives here)");
		buf_adds(&d.fix, "eval \"$(cuenv env)\" here, or set up the "
				 "hook: eval \"$(cuenv init bash)\" in "
				 "~/.bashrc (see cuenv init)");
		emit(au->out, "not-activated", DOCTOR_WARNING, &d);
		return;
	}
	buf_printf(&d.what,
		   "this shell does not carry the selection (%s): doctor "
		   "checked the environment the shell hook and cuenv exec "
		   "give here",
		   au->label.data);
	buf_adds(&d.why, "programs started from this shell without cuenv "
			 "exec see none of the selection's folders and load "
			 "whatever CUDA the system has, or none");
	buf_adds(&d.fix, "eval \"$(cuenv init bash)\" in ~/.bashrc (zsh: "
			 "~/.zshrc; fish: cuenv init fish | source), or run "
			 "programs with: cuenv exec -- CMD");
	emit(au->out, "not-activated", DOCTOR_INFO, &d);
}

static void add_dirs(struct audit *au, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n; i++) {
		char *real;
		DIR *d;
		struct dirent *de;

		if (strv_find(&au->dirs, dirs->v[i]) >= 0)
			continue;
		strv_push(&au->dirs, dirs->v[i]);
		real = realpath(dirs->v[i], NULL);
		if (real)
			strv_push_take(&au->real_dirs, real);
		d = opendir(dirs->v[i]);
		if (!d)
			continue;
		while ((de = readdir(d)))
			if (strstr(de->d_name, ".so"))
				push_unique(&au->provides, de->d_name);
		closedir(d);
	}
}

/* The selection's label and what its folders hold. */
static void take_stock(struct audit *au)
{
	const struct active *act = &au->a->act;

	if (!au->a->ok)
		return;
	buf_printf(&au->label, "cuda %s", act->cuda->version);
	if (act->cudnn)
		buf_printf(&au->label, " + cudnn %s", act->cudnn->version);
	if (act->cupti)
		buf_printf(&au->label, " + cupti %s", act->cupti->version);
	/* The order activation puts them on LD_LIBRARY_PATH. */
	if (act->cudnn)
		add_dirs(au, &act->cudnn->lib);
	add_dirs(au, &act->cuda->lib);
	add_dirs(au, &act->cuda->cupti);
	if (act->cupti)
		add_dirs(au, &act->cupti->cupti);
}

static int provides(const struct audit *au, const char *name)
{
	return strv_find(&au->provides, name) >= 0;
}

/* ---- sonames the selection lacks ---------------------------------------- */

/* How to rebuild an install whose files lack something. */
static void add_reinstall(const struct install *in, const char *cuda,
			  struct buf *b)
{
	const char *kind = kit_kind_name(in->kind);

	buf_printf(b, "cuenv %s %s ", in->registered ? "remove" : "uninstall",
		   kind);
	add_word(b, in->name);
	buf_adds(b, " && cuenv install ");
	if (in->kind == KIT_CUDNN) {
		add_word(b, cuda);
		buf_adds(b, " --cudnn ");
	}
	add_word(b, in->version);
}

static void missing_soname(struct audit *au, const char *soname,
			   const struct install *in, const char *stem)
{
	const struct active *act = &au->a->act;
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what,
		   "the selection (%s) has no %s: %s %s at %s lacks it",
		   au->label.data, soname, kit_kind_name(in->kind), in->version,
		   in->prefix);
	for (size_t i = 0; i < au->dirs.n; i++)
		strv_push(&d.paths, au->dirs.v[i]);
	if (!strcmp(stem, "cupti")) {
		struct buf mm = BUF_INIT;

		version_major_minor(act->cuda->version, &mm);

		buf_printf(&d.why,
			   "frameworks load CUPTI by this exact name "
			   "(TensorFlow at start-up and for its profiler, "
			   "PyTorch's profiler, JAX): \"Could not load "
			   "dynamic library '%s'\"; where another folder on "
			   "the loader's path has one, that copy, from "
			   "another release, loads instead: \"incompatible "
			   "libcupti version\"",
			   soname);
		if (act->cupti) {
			buf_adds(&d.fix, "cuenv install ");
			add_word(&d.fix, act->cuda->version);
			buf_adds(&d.fix, " --cupti ");
			add_word(&d.fix, act->cupti->version);
			buf_adds(&d.fix, " (the CUPTI-only install is "
					 "incomplete: remove its folder "
					 "first)");
		} else {
			buf_adds(&d.fix, "cuenv install ");
			add_word(&d.fix, act->cuda->version);
			buf_printf(&d.fix, " --cupti %s && ", mm.data);
			add_setter(au, &d.fix);
			buf_adds(&d.fix, " ");
			add_word(&d.fix, au->a->sel.cuda);
			if (au->a->sel.cudnn) {
				buf_adds(&d.fix, " --cudnn ");
				add_word(&d.fix, au->a->sel.cudnn);
			}
			buf_printf(&d.fix, " --cupti %s", mm.data);
		}
		buf_release(&mm);
	} else if (!strcmp(stem, "cudnn")) {
		buf_printf(&d.why,
			   "frameworks load cuDNN by this name: \"%s: cannot "
			   "open shared object file\", \"Could not load "
			   "dynamic library '%s'\"",
			   soname, soname);
		add_reinstall(in, act->cuda->version, &d.fix);
	} else {
		buf_printf(&d.why,
			   "every CUDA program and framework loads the runtime "
			   "by this name: \"Could not load dynamic library "
			   "'%s'\" (TensorFlow then runs without the GPU), "
			   "\"%s: cannot open shared object file\"",
			   soname, soname);
		add_reinstall(in, act->cuda->version, &d.fix);
	}
	emit(au->out, "missing-soname", DOCTOR_PROBLEM, &d);
}

static void check_sonames(struct audit *au)
{
	const struct active *act = &au->a->act;
	struct strv absent = STRV_INIT;
	char *want;

	if (!au->a->ok)
		return;
	want = detect_soname("cudart", act->cuda->version);
	if (want && !provides(au, want)) {
		strv_push(&au->missing, want);
		missing_soname(au, want, act->cuda, "cudart");
	}
	free(want);
	want = detect_soname("cupti", act->cupti ? act->cupti->version
						  : act->cuda->version);
	if (want && !provides(au, want)) {
		strv_push(&au->missing, want);
		missing_soname(au, want, act->cupti ? act->cupti : act->cuda,
			       "cupti");
	}
	free(want);
	if (act->cudnn) {
		want = detect_soname("cudnn", act->cudnn->version);
		if (want && !provides(au, want)) {
			strv_push(&au->missing, want);
			missing_soname(au, want, act->cudnn, "cudnn");
		}
		free(want);
	}
	/* What frameworks load beside: a runtime-only or partial install. */
	for (int i = 0; i < 2; i++) {
		want = detect_soname(i ? "cublasLt" : "cublas",
				     act->cuda->version);
		if (want && !provides(au, want)) {
			strv_push(&au->missing, want);
			strv_push(&absent, want);
		}
		free(want);
	}
	/* The math libraries frameworks load by name (nvlib.h's table). */
	for (int id = 0; id < NVLIB_COUNT; id++) {
		const struct nvlib *e = nvlib_get((enum nvlib_id)id);
		int found = 0;

		if (!(e->flags & NVLIB_MATH))
			continue;
		for (size_t j = 0; j < au->provides.n && !found; j++)
			found = nvlib_match_file(au->provides.v[j], NULL) == e;
		if (!found) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "lib%s.so.*", e->stem);
			strv_push_take(&absent, buf_detach(&b));
		}
	}
	if (absent.n) {
		struct draft d = DRAFT_INIT;

		buf_printf(&d.what, "the selection (%s) has no ",
			   au->label.data);
		add_list(&d.what, &absent);
		buf_adds(&d.why,
			 "TensorFlow loads cuBLAS, cuFFT, cuRAND, "
			 "cuSOLVER and cuSPARSE at start-up (\"Could "
			 "not load dynamic library 'libcublas.so...'\") "
			 "and leaves the GPU unused when one is "
			 "missing; PyTorch and JAX need them for the "
			 "operations that use them; the loader cache "
			 "or another folder may also fill the gap with "
			 "another release's copy");
		add_reinstall(act->cuda, act->cuda->version, &d.fix);
		buf_adds(&d.fix, " (a toolkit with its default components)");
		for (size_t i = 0; i < au->dirs.n; i++)
			strv_push(&d.paths, au->dirs.v[i]);
		emit(au->out, "missing-libraries", DOCTOR_WARNING, &d);
	}
	strv_release(&absent);
}

/* ---- cuDNN built for another CUDA --------------------------------------- */

struct sized {
	char *path;
	off_t size;
};

static int cmp_sized(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/*
 * The CUDA major cuDNN's own libraries name (libcublasLt.so.N inside
 * them), looking at the smallest few first; the file is put in file.
 */
static unsigned cudnn_files_major(const struct install *cudnn, struct buf *file)
{
	struct sized *v = NULL;
	size_t n = 0;
	unsigned major = 0;

	for (size_t i = 0; i < cudnn->lib.n; i++) {
		DIR *d = opendir(cudnn->lib.v[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			struct buf p = BUF_INIT;
			struct stat st;

			if (strncmp(de->d_name, "libcudnn", 8) ||
			    !strstr(de->d_name, ".so"))
				continue;
			buf_path(&p, cudnn->lib.v[i], de->d_name);
			/* Past the small ones, the answer is known. */
			if (lstat(p.data, &st) || !S_ISREG(st.st_mode) ||
			    st.st_size > CUDNN_FILE_MAX) {
				buf_release(&p);
				continue;
			}
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].path = buf_detach(&p);
			v[n++].size = st.st_size;
		}
		if (d)
			closedir(d);
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_sized);
	for (size_t i = 0; i < n; i++) {
		if (!major && i < CUDNN_FILES_MAX) {
			major = detect_cuda_major_in_file(v[i].path);
			if (major)
				buf_sets(file, v[i].path);
		}
		free(v[i].path);
	}
	free(v);
	return major;
}

static void check_cudnn(struct audit *au)
{
	const struct active *act = &au->a->act;
	struct buf file = BUF_INIT;
	struct draft d = DRAFT_INIT;
	unsigned want, built;

	if (!au->a->ok || !act->cudnn)
		return;
	want = act->cuda->cuda_major;
	built = cudnn_files_major(act->cudnn, &file);
	if (built && built != want) {
		buf_printf(&d.what,
			   "cudnn %s (at %s) is recorded as built for CUDA "
			   "%u, but its libraries load CUDA %u libraries "
			   "(%s names libcublasLt.so.%u or the like); the "
			   "selected runtime is cuda %s, CUDA %u",
			   act->cudnn->version, act->cudnn->prefix,
			   act->cudnn->cuda_major, built, file.data, built,
			   act->cuda->version, want);
		strv_push(&d.paths, file.data);
	} else if (act->cudnn->cuda_major && act->cudnn->cuda_major != want) {
		built = act->cudnn->cuda_major;
		buf_printf(&d.what,
			   "cudnn %s (at %s) was built for CUDA %u (its "
			   "receipt's cuda_major), but the selected runtime "
			   "is cuda %s, CUDA %u",
			   act->cudnn->version, act->cudnn->prefix, built,
			   act->cuda->version, want);
	} else {
		buf_release(&file);
		return;
	}
	buf_printf(&d.why,
		   "a cuDNN build belongs to one CUDA major: this one loads "
		   "libcublasLt.so.%u and the CUDA %u runtime, which CUDA %u "
		   "does not provide, so frameworks stop with \"Could not "
		   "load dynamic library 'libcublasLt.so.%u'\" or fail at "
		   "their first convolution (CUDNN_STATUS_NOT_INITIALIZED, "
		   "CUDNN_STATUS_EXECUTION_FAILED)",
		   built, built, want, built);
	buf_adds(&d.fix, "cuenv install ");
	add_word(&d.fix, act->cuda->version);
	buf_adds(&d.fix, " --cudnn ");
	add_word(&d.fix,
		 au->a->sel.cudnn ? au->a->sel.cudnn : act->cudnn->version);
	buf_printf(&d.fix, " (the cuDNN build for CUDA %u)", want);
	if (act->cudnn->registered) {
		buf_adds(&d.fix, "; and register this one for what it is: "
				 "cuenv remove cudnn ");
		add_word(&d.fix, act->cudnn->name);
		buf_adds(&d.fix, " && cuenv add cudnn ");
		add_word(&d.fix, act->cudnn->prefix);
		buf_printf(&d.fix, " --cuda %u", built);
	}
	strv_push(&d.paths, act->cudnn->prefix);
	strv_push(&d.paths, act->cuda->prefix);
	emit(au->out, "cudnn-cuda-mismatch", DOCTOR_PROBLEM, &d);
	buf_release(&file);
}

/* ---- LD_LIBRARY_PATH ---------------------------------------------------- */

/* How to keep foreign CUDA folders out; export is the value without them. */
static void add_isolate_fix(const struct audit *au, const struct strv *drop,
			    struct buf *b)
{
	const struct selection *sel = &au->a->sel;
	const char *cur = envmap_get(au->in->env, "LD_LIBRARY_PATH");
	struct strv list = STRV_INIT, kept = STRV_INIT;
	struct buf val = BUF_INIT;

	if (au->a->act.isolate) {
		buf_adds(b, "isolate is on: re-activate so that it strips "
			    "them again: eval \"$(cuenv env)\"");
	} else if (sel->origin == SEL_FILE && sel->origin_path) {
		buf_adds(b, "set 'isolate = true' in ");
		buf_add_display(b, sel->origin_path, 4096);
		buf_adds(b, " (activation then strips them)");
	} else {
		buf_adds(b, sel->origin == SEL_GLOBAL ? "cuenv global "
						      : "cuenv use ");
		add_word(b, sel->cuda);
		buf_adds(b, " --isolate");
	}
	buf_adds(b, "; or for one command: cuenv exec --isolate -- CMD");
	if (cur)
		strv_split(&list, cur, ':');
	for (size_t i = 0; i < list.n; i++) {
		int foreign = 0;

		for (size_t j = 0; j < drop->n && !foreign; j++)
			foreign = !strcmp(list.v[i], drop->v[j]);
		if (!foreign && *list.v[i])
			strv_push(&kept, list.v[i]);
	}
	strv_join(&kept, ':', &val);
	buf_adds(b, "; or drop them: ");
	if (val.len) {
		buf_adds(b, "export LD_LIBRARY_PATH=");
		shell_quote(SHELL_SH, val.data, b);
	} else {
		buf_adds(b, "unset LD_LIBRARY_PATH");
	}
	strv_release(&list);
	strv_release(&kept);
	buf_release(&val);
}

/* Does libs hold a libcupti? */
static int has_cupti(const struct strv *libs)
{
	for (size_t i = 0; i < libs->n; i++)
		if (!strncmp(libs->v[i], "libcupti.", 9))
			return 1;
	return 0;
}

static void check_ld_path(struct audit *au)
{
	const char *ld;
	struct strv list = STRV_INIT, drop = STRV_INIT;
	long first = -1;

	if (!au->a->ok)
		return;
	ld = envmap_get(au->eff, "LD_LIBRARY_PATH");
	if (ld)
		strv_split(&list, ld, ':');
	for (size_t i = 0; i < list.n; i++) {
		char *real = *list.v[i] ? realpath(list.v[i], NULL) : NULL;

		if (real && strv_find(&au->real_dirs, real) >= 0) {
			if (first < 0)
				first = (long)i;
		} else if (*list.v[i]) {
			struct strv libs = STRV_INIT;

			cuda_libs_in(list.v[i], &libs);
			if (libs.n)
				push_unique(&drop, list.v[i]);
			strv_release(&libs);
		}
		free(real);
	}
	if (au->shell_active && first < 0 && au->dirs.n) {
		struct draft d = DRAFT_INIT;

		buf_printf(&d.what,
			   "this shell's LD_LIBRARY_PATH no longer holds the "
			   "selection's folders (%s): it was set again after "
			   "cuenv activated it",
			   au->label.data);
		buf_adds(&d.why, "programs started from this shell load "
				 "whatever the rest of LD_LIBRARY_PATH and the "
				 "loader cache give, not the selection");
		buf_adds(&d.fix, "eval \"$(cuenv env)\" (or start a new "
				 "shell)");
		emit(au->out, "not-activated", DOCTOR_WARNING, &d);
	}
	for (size_t i = 0; i < list.n; i++) {
		struct strv libs = STRV_INIT, both = STRV_INIT,
			    fills = STRV_INIT, other = STRV_INIT;
		struct draft d = DRAFT_INIT;
		int before = first < 0 || (long)i < first;
		long seen = strv_find(&drop, list.v[i]);

		/* Each foreign folder once, where it first appears. */
		if (seen < 0 || strv_find(&list, list.v[i]) != (long)i)
			continue;
		cuda_libs_in(list.v[i], &libs);
		for (size_t j = 0; j < libs.n; j++) {
			if (provides(au, libs.v[j]))
				strv_push(&both, libs.v[j]);
			else
				strv_push(&other, libs.v[j]);
			if (strv_find(&au->missing, libs.v[j]) >= 0)
				strv_push(&fills, libs.v[j]);
		}
		strv_push(&d.paths, list.v[i]);
		if (before && both.n) {
			buf_adds(&d.what, "LD_LIBRARY_PATH has ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " before the selection's folders, "
					  "and it holds ");
			add_list(&d.what, &both);
			buf_printf(&d.what,
				   ", which the selection (%s) has too",
				   au->label.data);
			buf_adds(&d.why,
				 "the loader takes the first folder on "
				 "LD_LIBRARY_PATH that holds the soname "
				 "it wants, so these copies load instead "
				 "of the selection's, and a library of "
				 "another release runs with this one's");
			buf_adds(&d.why,
				 has_cupti(&both)
				     ? ": \"incompatible libcupti "
				       "version\", CUPTI_ERROR_... at "
				       "profiler start"
				     : ": undefined symbols, \"version "
				       "... not found\", or CUDA errors at "
				       "start-up");
			add_isolate_fix(au, &drop, &d.fix);
			emit(au->out, "ld-library-path-shadow", DOCTOR_PROBLEM,
			     &d);
		} else if (fills.n) {
			buf_adds(&d.what, "LD_LIBRARY_PATH entry ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " holds ");
			add_list(&d.what, &fills);
			buf_printf(&d.what, ", which the selection (%s) lacks",
				   au->label.data);
			buf_adds(&d.why, "programs asking for ");
			add_list(&d.why, &fills);
			buf_adds(&d.why, " get this folder's copy, from "
					 "another install, mixed with the "
					 "selection's libraries");
			buf_adds(&d.why, has_cupti(&fills)
					     ? ": \"incompatible libcupti "
					       "version\""
					     : ": undefined symbols or CUDA "
					       "errors at start-up");
			add_isolate_fix(au, &drop, &d.fix);
			buf_adds(&d.fix, "; and give the selection what it "
					 "lacks (see the missing-soname "
					 "finding)");
			emit(au->out, "foreign-ld-library-path", DOCTOR_PROBLEM,
			     &d);
		} else {
			buf_adds(&d.what, "LD_LIBRARY_PATH entry ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " holds CUDA libraries that are not "
					  "the selection's: ");
			add_list(&d.what, &libs);
			if (other.n) {
				buf_adds(&d.why,
					 "the selection's folders "
					 "come first, so where both "
					 "have a soname the selection's "
					 "copy loads; but a framework "
					 "asking for one the selection "
					 "lacks (");
				add_list(&d.why, &other);
				buf_adds(&d.why, ") gets this folder's, from "
						 "another release, and two "
						 "releases mix in one process");
				if (has_cupti(&other))
					buf_adds(&d.why,
						 ": \"incompatible libcupti "
						 "version\"");
			} else {
				buf_adds(&d.why,
					 "the selection's folders come "
					 "first and have every soname "
					 "here, so nothing loads from "
					 "it while the selection is "
					 "active; one change of order "
					 "(an export in a script, "
					 "another tool's activation) and "
					 "these copies shadow the "
					 "selection's");
			}
			add_isolate_fix(au, &drop, &d.fix);
			emit(au->out, "foreign-ld-library-path", DOCTOR_WARNING,
			     &d);
		}
		strv_release(&libs);
		strv_release(&both);
		strv_release(&fills);
		strv_release(&other);
	}
	strv_release(&list);
	strv_release(&drop);
}

/* ---- the loader cache --------------------------------------------------- */

/* Is dir a CUDA folder by its name (and not /usr/lib, /usr/local/lib)? */
static int cuda_folder(const char *dir)
{
	static const char *const words[] = {"cuda", "cudnn", "cupti", "nvidia",
					    "nccl"};
	struct buf low = BUF_INIT;
	int hit = 0;

	for (const char *p = dir; *p; p++)
		buf_addc(&low, (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
	for (size_t i = 0; i < sizeof(words) / sizeof(*words) && !hit; i++)
		hit = strstr(low.data, words[i]) != NULL;
	buf_release(&low);
	return hit;
}

static void check_cache(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const char *cpath =
	    in->cache_path ? in->cache_path : "/etc/ld.so.cache";
	struct strv dirs = STRV_INIT;
	struct strv *names = NULL;

	if (!in->cache)
		return;
	for (size_t i = 0; i < in->cache->n; i++) {
		const struct ldcache_entry *e = &in->cache->v[i];
		char *dir, *real;
		long at;

		/* Programs ask for versioned sonames only. */
		if (!cuda_lib(e->soname) || !strstr(e->soname, ".so.") ||
		    e->path[0] != '/')
			continue;
		/* A link to the selection's own copy is the selection's. */
		real = realpath(e->path, NULL);
		dir = real ? parent_of(real) : NULL;
		free(real);
		if (dir && strv_find(&au->real_dirs, dir) >= 0) {
			free(dir);
			continue;
		}
		free(dir);
		dir = parent_of(e->path);
		at = strv_find(&dirs, dir);
		if (at < 0) {
			strv_push(&dirs, dir);
			names = xrealloc(names, dirs.n * sizeof(*names));
			memset(&names[dirs.n - 1], 0, sizeof(*names));
			at = (long)dirs.n - 1;
		}
		push_unique(&names[at], e->soname);
		free(dir);
	}
	for (size_t i = 0; i < dirs.n; i++) {
		struct strv fills = STRV_INIT, lacks = STRV_INIT;
		struct draft d = DRAFT_INIT;
		const char *dir = dirs.v[i];
		const char *conf =
		    in->conf ? ldconf_file_for(in->conf, dir) : NULL;
		char *real = realpath(dir, NULL);
		unsigned major;
		enum doctor_severity sev;
		const char *example = NULL;

		if (real && strv_find(&au->real_dirs, real) >= 0) {
			free(real);
			continue;
		}
		free(real);
		strv_sort(&names[i]);
		major = libs_major(&names[i]);
		for (size_t j = 0; j < names[i].n; j++) {
			const char *s = names[i].v[j];

			if (strv_find(&au->missing, s) >= 0)
				strv_push(&fills, s);
			if (!provides(au, s))
				strv_push(&lacks, s);
		}
		/* A soname frameworks ask for: cuDNN's, when none is chosen. */
		for (size_t j = 0; j < lacks.n && !example; j++)
			if (!strncmp(lacks.v[j], "libcudnn.so.", 12) &&
			    au->a->ok && !au->a->act.cudnn)
				example = lacks.v[j];
		if (!example && lacks.n)
			example = lacks.v[0];
		sev = !au->a->ok ? DOCTOR_INFO
		      : fills.n	 ? DOCTOR_PROBLEM
		      : lacks.n	 ? DOCTOR_WARNING
				 : DOCTOR_INFO;
		buf_printf(&d.what, "the loader cache (%s) lists ", cpath);
		if (major)
			buf_printf(&d.what, "CUDA %u ", major);
		buf_adds(&d.what, "libraries in ");
		buf_add_display(&d.what, dir, 4096);
		buf_adds(&d.what, ": ");
		add_list(&d.what, &names[i]);
		buf_adds(&d.why, "the loader searches the cache after "
				 "LD_LIBRARY_PATH");
		if (!au->a->ok) {
			buf_adds(&d.why, ", and with no selection active these "
					 "are what programs load for these "
					 "sonames");
		} else if (fills.n) {
			buf_printf(&d.why, ": the selection (%s) lacks ",
				   au->label.data);
			add_list(&d.why, &fills);
			buf_adds(&d.why, ", so the cache's copy is loaded "
					 "silently, from another install, and "
					 "mixes with the selection's "
					 "libraries");
		} else if (example) {
			buf_printf(&d.why,
				   ": where the selection has a soname its "
				   "copy wins, but for one it lacks (here %s) "
				   "the cache's copy is loaded silently, ",
				   example);
			if (major)
				buf_printf(&d.why,
					   "a CUDA %u library mixed "
					   "with %s",
					   major, au->label.data);
			else
				buf_printf(&d.why, "mixed with %s",
					   au->label.data);
		} else {
			buf_adds(&d.why, ": the selection has every soname "
					 "listed here and comes first while it "
					 "is active; outside it (other shells, "
					 "services) these are what loads");
		}
		if (!cuda_folder(dir)) {
			buf_adds(&d.fix,
				 "the folder is shared with other "
				 "software: remove these CUDA libraries "
				 "(or links) from it, or the package that "
				 "put them there (dpkg -S ");
			add_word(&d.fix, dir);
			buf_adds(&d.fix, "/");
			add_word(&d.fix, names[i].v[0]);
			buf_adds(&d.fix, "), then run: sudo ldconfig");
			if (conf)
				strv_push(&d.paths, conf);
		} else if (conf) {
			buf_adds(&d.fix, "remove ");
			add_word(&d.fix, dir);
			buf_adds(&d.fix, " from ");
			add_word(&d.fix, conf);
			buf_adds(&d.fix, " (or delete that file), then run: "
					 "sudo ldconfig");
			strv_push(&d.paths, conf);
		} else {
			buf_adds(&d.fix, "no loader configuration file names "
					 "this folder (the loader searches it "
					 "anyway): remove the package that put "
					 "these libraries there (dpkg -S ");
			add_word(&d.fix, dir);
			buf_adds(&d.fix, " or rpm -qf), then run: sudo "
					 "ldconfig");
		}
		if (sev == DOCTOR_PROBLEM) {
			buf_adds(&d.fix, "; or make the selection complete: ");
			add_install(&au->a->sel, au->a->act.cuda->version,
				    &d.fix);
		} else if (sev == DOCTOR_WARNING && example &&
			   !strncmp(example, "libcudnn.so.", 12)) {
			/* The cache's build fits only its own CUDA major. */
			buf_adds(&d.fix,
				 "; or select the cuDNN your framework "
				 "needs, so that the selection provides "
				 "it: ");
			add_setter(au, &d.fix);
			buf_adds(&d.fix, " ");
			add_word(&d.fix, au->a->sel.cuda);
			if (major == au->a->act.cuda->cuda_major)
				buf_printf(&d.fix, " --cudnn %s", example + 12);
			else
				buf_adds(&d.fix, " --cudnn VERSION");
		}
		strv_push(&d.paths, dir);
		strv_push(&d.paths, cpath);
		emit(au->out, "loader-cache", sev, &d);
		strv_release(&fills);
		strv_release(&lacks);
	}
	for (size_t i = 0; i < dirs.n; i++)
		strv_release(&names[i]);
	free(names);
	strv_release(&dirs);
	if (in->cache_error) {
		struct draft d = DRAFT_INIT;

		buf_adds(&d.what, in->cache_error);
		buf_adds(&d.why, "doctor cannot tell which libraries the "
				 "loader hands out for sonames the selection "
				 "lacks");
		buf_adds(&d.fix, "rebuild it: sudo ldconfig");
		strv_push(&d.paths, cpath);
		emit(au->out, "loader-cache", DOCTOR_INFO, &d);
	}
}

/* ---- the driver --------------------------------------------------------- */

static void check_driver(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const struct driver_req *need = in->need;
	const char *cuda = doctor_cuda_version(au->a);
	struct draft d = DRAFT_INIT;
	struct buf mm = BUF_INIT;
	char *pkg;
	unsigned long major;

	if (!cuda)
		return;
	version_major_minor(cuda, &mm);
	pkg = xstrdup(mm.data); /* the package is cuda-compat-12-4 */
	for (char *p = pkg; *p; p++)
		if (*p == '.')
			*p = '-';
	major = strtoul(cuda, NULL, 10);
	if (!in->driver) {
		buf_adds(&d.what, "no NVIDIA driver found");
		if (in->driver_from)
			buf_printf(&d.what, " (%s)", in->driver_from);
		buf_adds(&d.why,
			 "doctor needs no GPU; on the machine that runs "
			 "the work, ");
		if (need && need->release)
			buf_printf(&d.why, "cuda %s needs driver %s or newer",
				   cuda, need->release);
		else
			buf_printf(&d.why,
				   "cuda %s needs a driver new enough for it "
				   "(which one is not known here: no "
				   "compatibility table, or no row for it)",
				   cuda);
		if (need && need->compat)
			buf_printf(
			    &d.why,
			    " (%s or newer under CUDA %lu.x minor-version "
			    "compatibility)",
			    need->compat, major);
		buf_adds(&d.fix, "to check against that machine's driver: "
				 "CUENV_DRIVER_VERSION=<version> cuenv doctor");
		emit(au->out, "no-driver", DOCTOR_INFO, &d);
	} else if (!need || (!need->release && !need->compat)) {
		buf_printf(&d.what,
			   "no minimum driver known for cuda %s (no "
			   "compatibility table, or no row for it); the "
			   "driver is %s",
			   cuda, in->driver);
		buf_adds(&d.why, "doctor cannot tell whether this driver runs "
				 "it");
		buf_adds(&d.fix, "see NVIDIA's CUDA release notes, table "
				 "\"CUDA Toolkit and Corresponding Driver "
				 "Versions\"");
		emit(au->out, "driver-requirement-unknown", DOCTOR_INFO, &d);
	} else if (need->release &&
		   compat_driver_cmp(in->driver, need->release) >= 0) {
		/* new enough */
	} else if (need->compat &&
		   compat_driver_cmp(in->driver, need->compat) >= 0) {
		if (!need->release)
			goto out;
		buf_printf(&d.what,
			   "driver %s is older than the %s that cuda %s was "
			   "released with; it meets CUDA %lu.x's minimum %s "
			   "only through minor-version compatibility",
			   in->driver, need->release, cuda, major,
			   need->compat);
		buf_printf(&d.why,
			   "programs built with CUDA %s run, but PTX made by "
			   "this toolkit cannot be JIT-compiled by the older "
			   "driver (cudaErrorUnsupportedPtxVersion: \"the "
			   "provided PTX was compiled with an unsupported "
			   "toolchain\"), and calls that need the newer driver "
			   "fail with cudaErrorCallRequiresNewerDriver",
			   mm.data);
		buf_printf(&d.fix,
			   "upgrade the NVIDIA driver to %s or newer; or, on "
			   "data-center GPUs, install NVIDIA's forward-"
			   "compatibility package for it (cuda-compat-%s) and "
			   "put /usr/local/cuda-%s/compat first on "
			   "LD_LIBRARY_PATH",
			   need->release, pkg, mm.data);
		if (in->driver_from)
			strv_push(&d.paths, in->driver_from);
		emit(au->out, "driver-minor-compat", DOCTOR_WARNING, &d);
	} else {
		const char *min = need->compat ? need->compat : need->release;

		buf_printf(&d.what, "driver %s is older than cuda %s needs: %s",
			   in->driver, cuda,
			   need->release ? need->release : min);
		if (need->compat)
			buf_printf(&d.what,
				   " (or %s for any CUDA %lu.x under minor-"
				   "version compatibility)",
				   need->compat, major);
		buf_adds(&d.why,
			 "the CUDA runtime refuses to start on it: "
			 "cudaErrorInsufficientDriver, \"CUDA driver "
			 "version is insufficient for CUDA runtime "
			 "version\"; frameworks then report no GPU "
			 "(TensorFlow: \"Cannot dlopen some GPU "
			 "libraries\", PyTorch: torch.cuda.is_available() "
			 "is False)");
		buf_printf(&d.fix,
			   "upgrade the NVIDIA driver to %s or newer; or, on "
			   "data-center GPUs (not GeForce), install NVIDIA's "
			   "forward-compatibility package (cuda-compat-%s) and "
			   "put /usr/local/cuda-%s/compat first on "
			   "LD_LIBRARY_PATH; or select an older CUDA that this "
			   "driver supports",
			   need->release ? need->release : min, pkg, mm.data);
		if (in->driver_from)
			strv_push(&d.paths, in->driver_from);
		emit(au->out, "driver-too-old", DOCTOR_PROBLEM, &d);
	}
out:
	buf_release(&mm);
	free(pkg);
	buf_release(&d.what);
	buf_release(&d.why);
	buf_release(&d.fix);
	strv_release(&d.paths);
}

/* ---- CUDA_HOME ---------------------------------------------------------- */

/* The toolkit of an nvcc: the folder above its bin/. */
static char *toolkit_of(const char *nvcc)
{
	char *bin = parent_of(nvcc), *top = parent_of(bin);

	free(bin);
	return top;
}

static void check_cuda_home(struct audit *au)
{
	static const char *const vars[] = {"CUDA_HOME", "CUDA_PATH"};
	char *nvcc = env_which(au->eff, "nvcc");
	char *top = nvcc ? toolkit_of(nvcc) : NULL;
	char *real_top = NULL;

	if (nvcc) {
		char *r = realpath(nvcc, NULL);

		if (r)
			real_top = toolkit_of(r);
		free(r);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *home = envmap_get(au->eff, vars[i]);
		struct draft d = DRAFT_INIT;
		int sel_home, sel_has_nvcc = 0;

		if (!home || !*home)
			continue;
		if (store_is_dir(home) && (!nvcc || same_dir(home, top) ||
				     (real_top && same_dir(home, real_top))))
			continue;
		sel_home = au->a->ok && same_dir(home, au->a->act.cuda->prefix);
		if (au->a->ok) {
			struct buf p = BUF_INIT;

			for (size_t j = 0; j < au->a->act.cuda->bin.n; j++) {
				buf_reset(&p);
				buf_path(&p, au->a->act.cuda->bin.v[j], "nvcc");
				sel_has_nvcc |= !access(p.data, X_OK);
			}
			buf_release(&p);
		}
		strv_push(&d.paths, home);
		if (!store_is_dir(home)) {
			buf_printf(&d.what, "%s is ", vars[i]);
			buf_add_display(&d.what, home, 4096);
			buf_adds(&d.what, ", which is not a folder");
			buf_adds(&d.why,
				 "build tools that take the toolkit from "
				 "it (PyTorch's C++/CUDA extensions, "
				 "CMake, TensorFlow's configure) fail "
				 "to find nvcc, headers or libraries");
		} else {
			buf_printf(&d.what, "%s is ", vars[i]);
			buf_add_display(&d.what, home, 4096);
			buf_adds(&d.what, ", but the nvcc first on PATH is ");
			buf_add_display(&d.what, nvcc, 4096);
			buf_adds(&d.why,
				 "build tools take the toolkit from "
				 "CUDA_HOME or CUDA_PATH (PyTorch's "
				 "C++/CUDA extensions, CMake, "
				 "TensorFlow's configure, Numba) while "
				 "Makefiles and shells run the nvcc on "
				 "PATH: one build then compiles with one "
				 "toolkit and takes headers and "
				 "libraries from another, and fails to "
				 "link or breaks at run time");
			strv_push(&d.paths, nvcc);
		}
		if (sel_home && !sel_has_nvcc) {
			buf_adds(&d.fix, "give the selection its compiler: ");
			add_reinstall(au->a->act.cuda, au->a->act.cuda->version,
				      &d.fix);
			buf_adds(&d.fix, " (nvcc is one of the default "
					 "components)");
			if (top)
				buf_adds(&d.fix, "; or ");
		}
		if (top) {
			buf_printf(&d.fix, "export %s=", vars[i]);
			add_word(&d.fix, top);
			buf_adds(&d.fix, " (the toolkit of that nvcc)");
		} else if (!(sel_home && !sel_has_nvcc)) {
			buf_printf(&d.fix, "unset %s", vars[i]);
		}
		if (au->a->ok && !sel_home)
			buf_adds(&d.fix, "; or let cuenv set it again: eval "
					 "\"$(cuenv env)\"");
		emit(au->out, "cuda-home-mismatch", DOCTOR_WARNING, &d);
	}
	free(nvcc);
	free(top);
	free(real_top);
}

/* ---- frameworks' own copies: pip wheels and conda ----------------------- */

/* What a group of bundled libraries is, against the selection. */
struct bundle {
	struct strv pkgs;  /* "nvidia-cudnn-cu11 8.9.2.26" */
	struct strv names; /* package names alone, for the fix */
	struct strv libs;  /* library file names */
	struct strv dirs;  /* the lib folders */
	unsigned major;	   /* CUDA major they are built for, or 0 */
	char *cuda;	   /* the CUDA version they carry ("11.8"), or NULL */
	char *cudnn;	   /* the cuDNN version ("8.9"), or NULL */
};

static void bundle_release(struct bundle *b)
{
	strv_release(&b->pkgs);
	strv_release(&b->names);
	strv_release(&b->libs);
	strv_release(&b->dirs);
	free(b->cuda);
	free(b->cudnn);
}

/* Note package name (pip or conda spelling) at version in b. */
static void bundle_package(struct bundle *b, const char *name,
			   const char *version)
{
	struct buf p = BUF_INIT, mm = BUF_INIT;
	const char *cu = strstr(name, "-cu");

	if (strv_find(&b->names, name) >= 0)
		return;
	strv_push(&b->names, name);
	buf_printf(&p, "%s %s", name, version);
	strv_push_take(&b->pkgs, buf_detach(&p));
	if (cu && cu[3] >= '1' && cu[3] <= '9' && !b->major)
		b->major = (unsigned)strtoul(cu + 3, NULL, 10);
	version_major_minor(version, &mm);
	if (version_is_valid(version) &&
	    (strstr(name, "cuda-runtime") || strstr(name, "cuda-cudart") ||
	     !strcmp(name, "cudatoolkit")) &&
	    !b->cuda)
		b->cuda = xstrdup(mm.data);
	if (version_is_valid(version) && strstr(name, "cudnn") && !b->cudnn)
		b->cudnn = xstrdup(mm.data);
	buf_release(&mm);
}

/* Finish: the major from the sonames when the names did not say. */
static void bundle_done(struct bundle *b)
{
	if (!b->major)
		b->major = libs_major(&b->libs);
	if (!b->major && b->cuda)
		b->major = (unsigned)strtoul(b->cuda, NULL, 10);
	if (!b->cuda && b->major) {
		struct buf v = BUF_INIT;

		buf_printf(&v, "%u", b->major);
		b->cuda = buf_detach(&v);
	}
	if (!b->cudnn) {
		unsigned m = cudnn_soname_major(&b->libs);

		if (m) {
			struct buf v = BUF_INIT;

			buf_printf(&v, "%u", m);
			b->cudnn = buf_detach(&v);
		}
	}
}

/*
 * How much a bundle matters: a different CUDA major from the selection's
 * is a problem (two majors end up in one process), a different cuDNN
 * major a warning, the rest information.
 */
static enum doctor_severity bundle_severity(const struct audit *au,
					    const struct bundle *b)
{
	const struct active *act = &au->a->act;

	if (!au->a->ok)
		return DOCTOR_INFO;
	if (b->major && b->major != act->cuda->cuda_major)
		return DOCTOR_PROBLEM;
	if (act->cudnn && b->cudnn &&
	    strtoul(b->cudnn, NULL, 10) !=
		strtoul(act->cudnn->version, NULL, 10))
		return DOCTOR_WARNING;
	return DOCTOR_INFO;
}

static void add_bundle_why(const struct audit *au, const struct bundle *b,
			   enum doctor_severity sev, const char *how,
			   struct buf *why)
{
	const struct active *act = &au->a->act;

	buf_printf(why,
		   "frameworks installed there %s, before "
		   "LD_LIBRARY_PATH is searched, so cuenv's selection "
		   "does not apply to them",
		   how);
	if (sev == DOCTOR_PROBLEM) {
		buf_printf(why,
			   ": they run on CUDA %u from here, not on the "
			   "selection's CUDA %u, and a soname missing here "
			   "comes from the selection, another major: "
			   "\"libcublasLt.so.%u: cannot open shared object "
			   "file\", \"libcudnn.so.N: cannot open shared "
			   "object file\", or two CUDA runtimes in one process",
			   b->major, act->cuda->cuda_major, b->major);
	} else if (sev == DOCTOR_WARNING) {
		buf_printf(why,
			   ": they load cuDNN %s from here while the "
			   "selection has cuDNN %s, and a library that "
			   "reaches the selection's copy mixes the two",
			   b->cudnn, act->cudnn->version);
	} else if (au->a->ok) {
		buf_adds(why, "; they are the same CUDA major as the "
			      "selection, so this works as long as the "
			      "versions agree");
	}
}

static void add_select_bundle(const struct audit *au, const struct bundle *b,
			      struct buf *fix)
{
	if (!au->a->ok || !b->cuda)
		return;
	buf_adds(fix, "; or select what they are built for: ");
	add_get_first(au, b->cuda, b->cudnn, fix);
	add_setter(au, fix);
	buf_adds(fix, " ");
	add_word(fix, b->cuda);
	if (b->cudnn) {
		buf_adds(fix, " --cudnn ");
		add_word(fix, b->cudnn);
	}
}

/* "nvidia_cudnn_cu11-8.9.2.26.dist-info" -> name "nvidia-cudnn-cu11" */
static int dist_info_name(const char *entry, struct buf *name,
			  struct buf *version)
{
	size_t n = strlen(entry);
	const char *dash = strchr(entry, '-');
	static const char sfx[] = ".dist-info";

	if (strncmp(entry, "nvidia_", 7) || n < sizeof(sfx) ||
	    strcmp(entry + n - (sizeof(sfx) - 1), sfx) || !dash)
		return 0;
	buf_reset(name);
	buf_reset(version);
	for (const char *p = entry; p < dash; p++)
		buf_addc(name, *p == '_' ? '-' : *p);
	buf_add(version, dash + 1,
		(size_t)(entry + n - (sizeof(sfx) - 1) - (dash + 1)));
	return 1;
}

/* The wheels whose RECORD lists files under nvidia/<sub>/lib/. */
static void wheels_for(const char *site, const char *sub, struct bundle *b)
{
	DIR *d = opendir(site);
	struct dirent *de;
	struct buf name = BUF_INIT, version = BUF_INIT, want = BUF_INIT;

	buf_printf(&want, "nvidia/%s/lib/", sub);
	while (d && (de = readdir(d))) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf rec = BUF_INIT, text = BUF_INIT;

		if (!dist_info_name(de->d_name, &name, &version))
			continue;
		buf_path(&rec, site, de->d_name);
		buf_path(&rec, rec.data, "RECORD");
		if (!file_read(rec.data, RECORD_MAX, FILE_MAY_BE_MISSING, &text,
			       &err)) {
			const char *p = text.data;

			while ((p = strstr(p, want.data))) {
				if (p == text.data || p[-1] == '\n') {
					bundle_package(b, name.data,
						       version.data);
					break;
				}
				p += want.len;
			}
		}
		buf_release(&rec);
		buf_release(&text);
		err_release(&err);
	}
	if (d)
		closedir(d);
	buf_release(&name);
	buf_release(&version);
	buf_release(&want);
}

/* "CUDA 11 and 12 " for the majors in mask. */
static void add_majors(struct buf *b, unsigned long mask)
{
	unsigned n = detect_count_majors(mask), k = 0;

	buf_adds(b, "CUDA ");
	for (unsigned m = 0; m < 8 * sizeof(mask); m++) {
		if (!(mask & 1UL << m))
			continue;
		k++;
		buf_printf(b, "%u%s", m,
			   k == n ? " " : k + 1 == n ? " and " : ", ");
	}
}

/*
 * NVIDIA wheels of two CUDA majors in one site-packages: pip put both in
 * the same nvidia/<pkg>/lib, and the files both RECORDs list now hold one
 * release's copy beside the other's libraries.
 */
static void check_mixed_wheels(struct audit *au, const char *site,
			       const struct wheel_mix *mix)
{
	struct draft d = DRAFT_INIT;
	const char *python = au->in->python ? au->in->python : "python3";

	buf_adds(&d.what, "Python's ");
	buf_add_display(&d.what, site, 4096);
	buf_adds(&d.what, " mixes NVIDIA's wheels of ");
	add_majors(&d.what, mix->majors);
	buf_setlen(&d.what, d.what.len - 1);
	buf_adds(&d.what, ": ");
	add_list(&d.what, &mix->wheels);
	if (mix->shared.n) {
		buf_adds(&d.what, "; files two of them install at the same "
				  "path, so one overwrote the other's: ");
		for (size_t i = 0; i < mix->shared.n; i++)
			buf_printf(&d.what, "%s%s (%s)", i ? ", " : "",
				   mix->shared.v[i], mix->owners.v[i]);
	}
	buf_adds(&d.why,
		 "pip installs every nvidia-*-cuNN wheel into the same "
		 "nvidia/<name>/lib folders without a conflict check: what a "
		 "framework loads from there is one release's libraries with "
		 "another release's helpers (libnvperf_host.so of CUDA 11.8 "
		 "beside libcupti.so.12), which fails at run time "
		 "(\"incompatible libcupti version\", CUPTI_ERROR_UNKNOWN in "
		 "the profiler) and uninstalling either wheel deletes files "
		 "the other needs");
	buf_printf(&d.fix,
		   "by hand, as pip cannot repair it in place: %s -m pip "
		   "uninstall the wheels of the major you do not want, then "
		   "%s -m pip install --force-reinstall those of the one you "
		   "keep",
		   python, python);
	strv_push(&d.paths, site);
	emit(au->out, "pip-wheels-mixed", DOCTOR_PROBLEM, &d);
}

static void check_site(struct audit *au, const char *site)
{
	struct buf nv = BUF_INIT;
	struct wheel_mix mix = { 0 };
	bool mixed;
	struct bundle b = {0};
	struct draft d = DRAFT_INIT;
	DIR *dir;
	struct dirent *de;
	enum doctor_severity sev;
	const char *python = au->in->python ? au->in->python : "python3";

	buf_path(&nv, site, "nvidia");
	dir = opendir(nv.data);
	while (dir && (de = readdir(dir))) {
		struct buf lib = BUF_INIT;
		struct strv libs = STRV_INIT;

		if (de->d_name[0] == '.')
			continue;
		buf_path(&lib, nv.data, de->d_name);
		buf_path(&lib, lib.data, "lib");
		cuda_libs_in(lib.data, &libs);
		if (libs.n) {
			size_t before = b.names.n;

			strv_push(&b.dirs, lib.data);
			for (size_t i = 0; i < libs.n; i++)
				push_unique(&b.libs, libs.v[i]);
			wheels_for(site, de->d_name, &b);
			if (b.names.n == before) {
				struct buf guess = BUF_INIT;

				buf_printf(&guess, "nvidia/%s", de->d_name);
				bundle_package(&b, guess.data, "(no RECORD)");
				buf_release(&guess);
			}
		}
		buf_release(&lib);
		strv_release(&libs);
	}
	if (dir)
		closedir(dir);
	if (!b.libs.n)
		goto out;
	bundle_done(&b);
	mixed = detect_wheel_mix(site, &mix);
	if (mixed) {
		check_mixed_wheels(au, site, &mix);
		/* Not one major: judged against the selection's, when
		 * among them (the mix is a finding of its own). */
		if (au->a->ok &&
		    (mix.majors & 1UL << au->a->act.cuda->cuda_major))
			b.major = au->a->act.cuda->cuda_major;
	}
	sev = bundle_severity(au, &b);
	buf_adds(&d.what, "Python's ");
	buf_add_display(&d.what, site, 4096);
	buf_printf(&d.what, " (%s) holds NVIDIA's ", python);
	if (mixed)
		add_majors(&d.what, mix.majors);
	else if (b.major)
		buf_printf(&d.what, "CUDA %u ", b.major);
	buf_adds(&d.what, "wheels: ");
	add_list(&d.what, &b.pkgs);
	buf_adds(&d.what, " (");
	add_list(&d.what, &b.libs);
	buf_adds(&d.what, ")");
	add_bundle_why(au, &b, sev,
		       "(PyTorch, TensorFlow's and-cuda, JAX) find these "
		       "through their RPATH ($ORIGIN/../../nvidia/*/lib) or "
		       "load them by path",
		       &d.why);
	buf_printf(&d.fix, "%s -m pip uninstall", python);
	for (size_t i = 0; i < b.names.n; i++) {
		if (!strncmp(b.names.v[i], "nvidia/", 7))
			continue;
		buf_adds(&d.fix, " ");
		add_word(&d.fix, b.names.v[i]);
	}
	buf_adds(&d.fix, " (then a framework built to use the system's CUDA "
			 "takes the selection's), or install the framework's "
			 "build for the selected CUDA");
	add_select_bundle(au, &b, &d.fix);
	for (size_t i = 0; i < b.dirs.n; i++)
		strv_push(&d.paths, b.dirs.v[i]);
	emit(au->out, "pip-wheels", sev, &d);
out:
	wheel_mix_release(&mix);
	bundle_release(&b);
	buf_release(&nv);
}

static void check_wheels(struct audit *au)
{
	struct strv seen = STRV_INIT;

	if (!au->in->site_dirs)
		return;
	for (size_t i = 0; i < au->in->site_dirs->n; i++) {
		const char *site = au->in->site_dirs->v[i];
		char *real = realpath(site, NULL);

		if (!real)
			continue;
		if (strv_find(&seen, real) < 0) {
			strv_push(&seen, real);
			check_site(au, site);
		}
		free(real);
	}
	strv_release(&seen);
}

/* Conda packages (conda-meta/NAME.json) with files among lib/<libs>. */
static void conda_packages(const char *prefix, struct bundle *b)
{
	struct buf meta = BUF_INIT;
	DIR *d;
	struct dirent *de;

	buf_path(&meta, prefix, "conda-meta");
	d = opendir(meta.data);
	while (d && (de = readdir(d))) {
		struct buf p = BUF_INIT;
		json_t *j, *files, *f;
		json_error_t jerr;
		size_t n = strlen(de->d_name), i;
		struct stat st;
		const char *name, *version;
		int hit = 0;

		if (n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		buf_path(&p, meta.data, de->d_name);
		if (stat(p.data, &st) || !S_ISREG(st.st_mode) ||
		    st.st_size > (off_t)META_MAX) {
			buf_release(&p);
			continue;
		}
		j = json_load_file(p.data, 0, &jerr);
		buf_release(&p);
		files = j ? json_object_get(j, "files") : NULL;
		name = j ? json_string_value(json_object_get(j, "name")) : NULL;
		version =
		    j ? json_string_value(json_object_get(j, "version")) : NULL;
		json_array_foreach(files, i, f)
		{
			const char *s = json_string_value(f);

			if (!hit && s && !strncmp(s, "lib/", 4) &&
			    strv_find(&b->libs, s + 4) >= 0)
				hit = 1;
		}
		if (hit && name)
			bundle_package(b, name, version ? version : "?");
		json_decref(j);
	}
	if (d)
		closedir(d);
	buf_release(&meta);
}

static void check_conda(struct audit *au)
{
	const char *prefix = envmap_get(au->in->env, "CONDA_PREFIX");
	struct bundle b = {0};
	struct buf lib = BUF_INIT;
	struct draft d = DRAFT_INIT;
	enum doctor_severity sev;
	char *real;

	if (!prefix || prefix[0] != '/')
		return;
	buf_path(&lib, prefix, "lib");
	real = realpath(lib.data, NULL);
	if (real && strv_find(&au->real_dirs, real) < 0)
		cuda_libs_in(lib.data, &b.libs);
	free(real);
	if (!b.libs.n)
		goto out;
	conda_packages(prefix, &b);
	bundle_done(&b);
	sev = bundle_severity(au, &b);
	buf_adds(&d.what, "the conda environment ");
	buf_add_display(&d.what, prefix, 4096);
	buf_adds(&d.what, " has ");
	if (b.major)
		buf_printf(&d.what, "CUDA %u ", b.major);
	buf_adds(&d.what, "libraries in lib/: ");
	add_list(&d.what, &b.libs);
	if (b.pkgs.n) {
		buf_adds(&d.what, " (from ");
		add_list(&d.what, &b.pkgs);
		buf_adds(&d.what, ")");
	}
	add_bundle_why(au, &b, sev,
		       "find these through their RPATH ($ORIGIN/../lib)",
		       &d.why);
	if (b.names.n) {
		buf_adds(&d.fix, "conda remove");
		for (size_t i = 0; i < b.names.n; i++) {
			buf_adds(&d.fix, " ");
			add_word(&d.fix, b.names.v[i]);
		}
		buf_adds(&d.fix,
			 ", or leave the environment: conda deactivate");
	} else {
		buf_adds(&d.fix, "leave the environment: conda deactivate");
	}
	add_select_bundle(au, &b, &d.fix);
	strv_push(&d.paths, lib.data);
	emit(au->out, "conda-prefix", sev, &d);
out:
	bundle_release(&b);
	buf_release(&lib);
}

/* ---- the whole audit ---------------------------------------------------- */

/* Problems first, then warnings, then information, each in found order. */
static void sort_findings(struct findings *f, size_t from)
{
	size_t n = f->n - from, k = 0;
	struct finding *tmp;

	if (n < 2)
		return;
	tmp = xmalloc(n * sizeof(*tmp));
	for (int s = DOCTOR_PROBLEM; s <= DOCTOR_INFO; s++)
		for (size_t i = from; i < f->n; i++)
			if ((int)f->v[i].severity == s)
				tmp[k++] = f->v[i];
	memcpy(f->v + from, tmp, n * sizeof(*tmp));
	free(tmp);
}

void doctor_run(const struct doctor_in *in, struct findings *out)
{
	struct audit au = {.in = in, .out = out, .a = in->a};
	size_t from = out->n;

	au.eff = in->env;
	buf_init(&au.label);
	check_selection(&au);
	take_stock(&au);
	choose_env(&au);
	check_sonames(&au);
	check_cudnn(&au);
	check_ld_path(&au);
	check_cache(&au);
	check_driver(&au);
	check_cuda_home(&au);
	check_wheels(&au);
	check_conda(&au);
	sort_findings(out, from);
	buf_release(&au.label);
	strv_release(&au.dirs);
	strv_release(&au.real_dirs);
	strv_release(&au.provides);
	strv_release(&au.missing);
}
