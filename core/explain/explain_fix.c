/*
 * explain_fix.c: `cuenv explain`'s fix (what to run, decided from the
 * store's and the catalogue's answers) and its JSON report.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "explain/explain.h"
#include "base/json_util.h"
#include "base/version.h"
#include "base/xalloc.h"

/* explain_found's values in --json */
static const char *const found_names[] = {
	[EXPLAIN_FOUND_NOT_SAID] = NULL,
	[EXPLAIN_FOUND_NO_ENTRY] = "entry-point-missing",
	[EXPLAIN_FOUND_INIT_FAILED] = "initialisation-failed",
	[EXPLAIN_FOUND_NO_MEMORY] = "no-memory",
	[EXPLAIN_FOUND_BAD_FILE] = "not-a-library-for-this-machine",
};

/* the command that reads the frameworks installed for python3 */
#define DECIDE_PYTHON "cuenv needs --python"

void explain_fix_init(struct explain_fix *fx)
{
	memset(fx, 0, sizeof(*fx));
	needs_scan_init(&fx->s);
	needs_installed_init(&fx->in);
	needs_offer_init(&fx->o);
}

void explain_fix_release(struct explain_fix *fx)
{
	needs_scan_release(&fx->s);
	needs_installed_release(&fx->in);
	needs_offer_release(&fx->o);
	STRV_RELEASE_EACH(&fx->lines, &fx->decide);
	FREE_EACH(fx->state, fx->unknown, fx->undecided, fx->note);
	explain_fix_init(fx);
}

/* "cuenv local 11.2.2 --cudnn 8.1.1.33" for combo c. */
static void local_line(const struct needs_combo *c, struct buf *b)
{
	buf_printf(b, "cuenv local %s", c->cuda->version);
	if (c->cudnn)
		buf_printf(b, " --cudnn %s", c->cudnn->version);
	if (c->cupti)
		buf_printf(b, " --cupti %s", c->cupti->version);
}

/* The CUDA majors that ship every toolkit library s asks for (nvlib's
 * rules: libcusolver.so.11 is in 11.1-11.8 and 12.x), and in *shared the
 * first soname that more than one major ships; 0 when s asks for none. */
static unsigned long toolkit_majors(const struct needs_scan *s,
				    const struct needs_want **shared)
{
	unsigned long mask = 0;
	bool any = false;

	*shared = NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct nvlib *lib = nvlib_get(s->v[i].lib);
		unsigned long m;

		if (lib->flags & NVLIB_OWN_VERSION)
			continue;
		m = nvlib_majors(lib, s->v[i].version);
		if (!*shared && (m & (m - 1)))
			*shared = &s->v[i];
		mask = any ? mask & m : m;
		any = true;
	}
	return mask;
}

bool explain_fix_cuda_named(const struct needs_scan *s)
{
	const struct needs_want *shared;
	unsigned long mask;

	for (size_t i = 0; i < s->nrep; i++)
		if (s->rep[i].cuda)
			return true;
	mask = toolkit_majors(s, &shared);
	/* one major, or names no one major ships together (the catalogue
	 * then says so); several: the text does not decide */
	for (size_t i = 0; i < s->n; i++)
		if (!(nvlib_get(s->v[i].lib)->flags & NVLIB_OWN_VERSION))
			return !(mask & (mask - 1));
	return false;
}

/*
 * The finding whose release the text cannot give, when it asks nothing
 * else: a library missing under a name without a version (libcudart.so,
 * the development link of every release) or a framework's DLL whose
 * missing import Windows does not name. NULL when a finding says no
 * install helps (copies mixed, a symbol version, Windows' 127) or is read
 * otherwise (a mismatch, a library too old, CUPTI loaded).
 */
static const struct explain_finding *unversioned(const struct explain *ex)
{
	const struct explain_finding *u = NULL;

	for (size_t i = 0; i < ex->n; i++) {
		const struct explain_finding *f = &ex->v[i];

		if (f->kind == EXPLAIN_MIXED || f->kind == EXPLAIN_SYMBOL ||
		    f->kind == EXPLAIN_CUDNN_MISMATCH ||
		    f->kind == EXPLAIN_TOO_OLD ||
		    f->kind == EXPLAIN_CUPTI_PRIVILEGES || f->found)
			return NULL;
		if (!u && f->kind == EXPLAIN_LIBRARY && f->missing &&
		    !f->soname && !f->releases &&
		    (f->imports || nvlib_kit(f->lib) != NVLIB_KIT_OTHER))
			u = f;
	}
	return u;
}

/* Why the CUDA cannot be known, and the commands that find it out; u:
 * unversioned's finding, or NULL. */
static void unknown_cuda(struct explain_fix *fx, const struct explain *ex,
			 const struct explain_finding *u)
{
	const struct explain_context *c = &ex->ctx;
	const struct needs_want *shared;
	struct buf b = BUF_INIT, r = BUF_INIT;

	toolkit_majors(&fx->s, &shared);
	if (c->cuda_other)
		buf_printf(&b, "the text names CUDA %s (%s) and CUDA %s (%s)",
			   c->cuda, c->cuda_from, c->cuda_other,
			   c->cuda_other_from);
	else if (shared && nvlib_describe_releases(nvlib_get(shared->lib),
						   shared->version, &r))
		buf_printf(&b,
			   "the text names no CUDA release, and %s ships "
			   "with CUDA %s",
			   shared->soname, r.data);
	else if (u && u->imports)
		buf_printf(&b,
			   "the text names no CUDA release, and Windows' "
			   "error does not say which DLL %s imports is missing",
			   u->name);
	else if (u)
		buf_printf(&b,
			   "the text names no CUDA release, and %s has no "
			   "version in its name: every release gives it",
			   u->name);
	else
		buf_adds(&b, "the text names no CUDA release, and the cuDNN "
			     "asked for is built for more than one");
	fx->unknown = buf_detach(&b);
	if (c->pin) {
		buf_printf(&b, "cuenv needs %s", c->pin);
		strv_push(&fx->decide, b.data);
		buf_reset(&b);
	}
	strv_push(&fx->decide, DECIDE_PYTHON);
	BUF_RELEASE_EACH(&b, &r);
}

void explain_fix_frameworks(struct explain_fix *fx,
			    const struct needs_python *py, const char *python)
{
	long at = strv_find(&fx->decide, DECIDE_PYTHON);
	struct buf b = BUF_INIT;

	if (at < 0 || (py->finder && py->nfound))
		return;
	strv_remove(&fx->decide, (size_t)at);
	if (py->finder)
		buf_printf(&b,
			   "no package in the %zu folder%s of %s's sys.path "
			   "links a CUDA library",
			   py->sites.n, py->sites.n == 1 ? "" : "s",
			   py->finder);
	else
		buf_printf(&b, "there is no %s to read", python);
	if (!fx->decide.n)
		buf_adds(&b, "; give the build that failed: its NAME==VERSION "
			     "on the package index (cuenv needs "
			     "onnxruntime-gpu==1.18.0) or the folder of its "
			     "files (cuenv needs FOLDER)");
	fx->undecided = buf_detach(&b);
}

/*
 * The oldest CUDA release of cat whose copy of f's library (its
 * component) is f->built or newer, of the same major, as "M.m" into
 * out; false when the catalogue has none.
 */
static bool release_shipping(const struct catalog *cat,
			     const struct explain_finding *f, struct buf *out)
{
	const struct release *best = NULL;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (r->kind != KIT_CUDA ||
		    (best && version_cmp_str(r->version, best->version) >= 0))
			continue;
		for (size_t k = 0; k < r->nparts; k++) {
			const struct part *p = &r->parts[k];

			if (!strcmp(p->name, f->lib->component) &&
			    version_major(p->version) ==
				    version_major(f->built) &&
			    version_cmp_str(p->version, f->built) >= 0) {
				best = r;
				break;
			}
		}
	}
	buf_reset(out);
	if (best)
		buf_printf(out, "%lu.%lu", version_major(best->version),
			   strtoul(strchr(best->version, '.') + 1, NULL, 10));
	return best != NULL;
}

void explain_fix_minimums(struct explain_fix *fx, const struct explain *ex,
			  const struct catalog *cat)
{
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < ex->n; i++) {
		const struct explain_finding *f = &ex->v[i];

		if (f->kind != EXPLAIN_TOO_OLD)
			continue;
		if (release_shipping(cat, f, &b)) {
			needs_scan_report(&fx->s, f->framework, "the message",
					  b.data, NULL);
		} else if (!fx->note) {
			buf_printf(&b,
				   "no CUDA release in the catalogue ships "
				   "%s %s or newer",
				   f->name, f->built);
			fx->note = buf_detach(&b);
		}
	}
	buf_release(&b);
}

void explain_fix_decide(struct explain_fix *fx, const struct explain *ex,
			const struct catalog *cat)
{
	struct buf b = BUF_INIT;

	if (!needs_asked(&fx->s, NULL)) {
		/* asked nothing, though a release is missing: which one the
		 * text cannot say */
		if (unversioned(ex))
			unknown_cuda(fx, ex, unversioned(ex));
		goto out;
	}
	if (!explain_fix_cuda_named(&fx->s) || ex->ctx.cuda_other) {
		unknown_cuda(fx, ex, NULL);
		goto out;
	}
	if (fx->in.pick.cuda) {
		needs_combo_describe(&fx->in.pick, &b);
		if (fx->in.active) {
			buf_adds(&b, ", the selection in force here, gives it");
			fx->state = buf_detach(&b);
			fx->note = xstrdup("nothing to install: run the "
					   "program under the selection, "
					   "cuenv exec -- PROGRAM");
		} else {
			buf_adds(&b, " (installed) gives it");
			fx->state = buf_detach(&b);
			local_line(&fx->in.pick, &b);
			strv_push(&fx->lines, b.data);
		}
		goto out;
	}
	needs_find_offer(cat, &fx->s, NULL, &fx->o);
	if (fx->o.line) {
		strv_push(&fx->lines, fx->o.line);
		buf_printf(&b, "cuenv local %s",
			   fx->o.line + strlen("cuenv install "));
		strv_push(&fx->lines, b.data);
	}
out:
	buf_release(&b);
}

/* A command line as its arguments: words split at spaces, a '...' word
 * (shell_quote's, for a folder list) taken as it reads. */
static json_t *argv_json(const char *line)
{
	json_t *a = json_array();
	struct buf w = BUF_INIT;
	const char *p = line;

	while (*p) {
		p += strspn(p, " ");
		if (!*p)
			break;
		buf_reset(&w);
		while (*p && *p != ' ') {
			const char *q;

			if (*p != '\'' || !(q = strchr(p + 1, '\''))) {
				buf_addc(&w, *p++);
				continue;
			}
			buf_add(&w, p + 1, (size_t)(q - p - 1));
			p = q + 1;
			/* '\'' inside quotes: one quote */
			if (p[0] == '\\' && p[1] == '\'') {
				buf_addc(&w, '\'');
				p += 2;
			}
		}
		json_array_append_new(a, json_stringn(w.data, w.len));
	}
	buf_release(&w);
	return a;
}

static json_t *commands_json(const struct strv *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, argv_json(v->v[i]));
	return a;
}

static json_t *context_json(const struct explain_context *c)
{
	json_t *j = json_object();

	json_object_set_new(j, "framework", json_str_or_null(c->framework));
	json_object_set_new(j, "framework_from",
			    json_str_or_null(c->framework_from));
	json_object_set_new(j, "pin", json_str_or_null(c->pin));
	json_object_set_new(j, "cuda",
			    json_str_or_null(explain_context_cuda_known(c)));
	json_object_set_new(j, "cuda_from", json_str_or_null(c->cuda_from));
	json_object_set_new(j, "cuda_other", json_str_or_null(c->cuda_other));
	json_object_set_new(j, "cuda_other_from",
			    json_str_or_null(c->cuda_other_from));
	json_object_set_new(j, "cudnn", json_str_or_null(c->cudnn));
	json_object_set_new(j, "cudnn_from", json_str_or_null(c->cudnn_from));
	json_object_set_new(j, "loaded", json_strv(&c->loaded));
	return j;
}

/* ---- JSON ------------------------------------------------------------------ */

static const char *const kind_names[] = {
	[EXPLAIN_LIBRARY] = "library",
	[EXPLAIN_NO_RELEASE] = "no-release",
	[EXPLAIN_DRIVER] = "driver",
	[EXPLAIN_CUDNN_MISMATCH] = "cudnn-mismatch",
	[EXPLAIN_CUPTI_PRIVILEGES] = "cupti-privileges",
	[EXPLAIN_CUPTI_LOAD] = "cupti-load",
	[EXPLAIN_DRIVER_OLD] = "driver-too-old",
	[EXPLAIN_MIXED] = "mixed-copies",
	[EXPLAIN_SYMBOL] = "symbol-version",
	[EXPLAIN_TOO_OLD] = "library-too-old",
	[EXPLAIN_TOOLKIT_MISMATCH] = "toolkit-mismatch",
};

/* The loader model's reading (explain_loader.h), for a symbol version
 * and a cuDNN mismatch. */
static void model_json(json_t *x, const struct explain_finding *f)
{
	json_t *copies = json_array(), *loads = json_null();

	if (f->model_file) {
		loads = json_object();
		json_object_set_new(loads, "file", json_string(f->model_file));
		json_object_set_new(loads, "from",
				    json_str_or_null(f->model_from));
		json_object_set_new(loads, "version",
				    json_str_or_null(f->model_version));
		json_object_set_new(loads, "satisfies",
				    json_boolean(f->model_ok));
	}
	json_object_set_new(x, "observed", json_str_or_null(f->model_observed));
	json_object_set_new(x, "import_error",
			    json_str_or_null(f->model_error));
	for (size_t k = 0; k < f->ncopies; k++) {
		json_t *c = json_object();

		json_object_set_new(c, "path", json_string(f->copies[k].path));
		json_object_set_new(c, "where",
				    json_string(f->copies[k].where));
		json_object_set_new(c, "version",
				    json_str_or_null(f->copies[k].version));
		json_object_set_new(c, "satisfies",
				    json_boolean(f->copies[k].satisfies));
		json_array_append_new(copies, c);
	}
	json_object_set_new(x, "modelled", json_boolean(f->modelled));
	json_object_set_new(x, "absent", json_str_or_null(f->absent));
	json_object_set_new(x, "site", json_str_or_null(f->site));
	json_object_set_new(x, "loads", loads);
	json_object_set_new(x, "copies", copies);
}

json_t *explain_json(const struct explain *ex, const struct explain_fix *fx,
		     const struct cuenv_err *err)
{
	json_t *j = json_object(), *a = json_array();

	json_object_set_new(j, "context", context_json(&ex->ctx));
	for (size_t i = 0; i < ex->n; i++) {
		const struct explain_finding *f = &ex->v[i];
		json_t *x = json_object(), *rows = json_array();

		json_object_set_new(x, "kind",
				    json_string(kind_names[f->kind]));
		json_object_set_new(x, "name", json_str_or_null(f->name));
		/* the driver's library is none of the table's, by design */
		json_object_set_new(x, "library",
				    json_str_or_null(f->lib ? f->lib->stem
						     : f->kind == EXPLAIN_DRIVER
							     ? NVLIB_DRIVER_STEM
							     : NULL));
		json_object_set_new(x, "product",
				    json_str_or_null(
					    f->lib ? nvlib_product(f->lib)
						   : NULL));
		json_object_set_new(x, "cuenv_installs",
				    f->lib ? json_boolean(nvlib_cuenv_installs(
						     f->lib))
					   : json_null());
		json_object_set_new(x, "dll", json_boolean(f->dll));
		json_object_set_new(x, "soname", json_str_or_null(f->soname));
		json_object_set_new(x, "releases",
				    json_str_or_null(f->releases));
		json_object_set_new(x, "missing", json_boolean(f->missing));
		/* found and not usable, why (explain_found) */
		json_object_set_new(x, "found_unusable",
				    f->found
					    ? json_string(found_names[f->found])
					    : json_null());
		json_object_set_new(x, "imports", json_boolean(f->imports));
		json_object_set_new(x, "wanted_by",
				    json_str_or_null(f->wanted_by));
		json_object_set_new(x, "framework",
				    json_str_or_null(f->framework));
		json_object_set_new(x, "built", json_str_or_null(f->built));
		json_object_set_new(x, "loaded", json_str_or_null(f->loaded));
		json_object_set_new(x, "line", json_str_or_null(f->line));
		if (f->kind == EXPLAIN_DRIVER_OLD) {
			json_object_set_new(x, "driver_cuda",
					    json_str_or_null(f->driver_cuda));
			json_object_set_new(x, "driver_min",
					    json_str_or_null(f->driver_min));
			json_object_set_new(x, "driver_compat",
					    json_str_or_null(f->driver_compat));
			json_object_set_new(x, "driver_row",
					    json_str_or_null(f->driver_row));
		}
		if (f->kind == EXPLAIN_MIXED) {
			json_object_set_new(x, "symbol",
					    json_str_or_null(f->symbol));
			json_object_set_new(x, "path",
					    json_str_or_null(f->path));
			json_object_set_new(x, "picked",
					    json_str_or_null(f->picked));
		}
		if (f->kind == EXPLAIN_SYMBOL) {
			json_object_set_new(x, "symbol",
					    json_str_or_null(f->symbol));
			json_object_set_new(x, "version",
					    json_str_or_null(f->symver));
			json_object_set_new(x, "path",
					    json_str_or_null(f->path));
		}
		if (f->kind == EXPLAIN_SYMBOL ||
		    f->kind == EXPLAIN_CUDNN_MISMATCH)
			model_json(x, f);
		for (size_t k = 0; k < f->nrows; k++) {
			json_t *r = json_object();

			json_object_set_new(r, "framework",
					    json_string(f->rows[k].framework));
			json_object_set_new(r, "versions",
					    json_string(f->rows[k].versions));
			json_object_set_new(r, "cuda",
					    json_string(f->rows[k].cuda));
			json_object_set_new(r, "cudnn",
					    json_str_or_null(f->rows[k].cudnn));
			json_object_set_new(r, "windows",
					    json_boolean(f->rows[k].windows));
			json_array_append_new(rows, r);
		}
		json_object_set_new(x, "asked_by", rows);
		json_object_set_new(x, "store", json_strv(&f->store));
		json_object_set_new(x, "loader", json_strv(&f->loader));
		json_array_append_new(a, x);
	}
	json_object_set_new(j, "findings", a);
	/* distinct names past the findings kept (EXPLAIN_KEEP) */
	json_object_set_new(j, "omitted",
			    json_integer((json_int_t)ex->omitted));
	json_object_set_new(j, "installed", json_str_or_null(fx->state));
	json_object_set_new(j, "cuda_known", json_boolean(!fx->unknown));
	json_object_set_new(j, "cuda_unknown_why",
			    json_str_or_null(fx->unknown));
	json_object_set_new(j, "fix", commands_json(&fx->lines));
	json_object_set_new(j, "decide", commands_json(&fx->decide));
	json_object_set_new(j, "undecided", json_str_or_null(fx->undecided));
	json_object_set_new(j, "note", json_str_or_null(fx->note));
	if (err && err->rc && err->msg.len)
		json_object_set_new(j, "error", json_string(err->msg.data));
	if (!fx->lines.n && !fx->state && fx->o.why.len)
		json_object_set_new(j, "catalogue_problem",
				    json_string(fx->o.why.data));
	return j;
}
