/*
 * doctor.c: `cuenv doctor`, gathering what core/doctor audits: the
 * activation here, the driver's version, the loader cache and its
 * configuration, and the folders Python searches.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/doctor.h"
#include "../core/proc.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
    "usage: cuenv doctor [--json]\n"
    "\n"
    "Audit, without a GPU, what the selection here would really load:\n"
    "foreign CUDA folders on LD_LIBRARY_PATH or in the loader cache,\n"
    "sonames the selection lacks, cuDNN built for another CUDA, a driver\n"
    "older than the toolkit needs, a .cuenv naming a version that is not\n"
    "installed, CUDA_HOME and PATH's nvcc disagreeing, and NVIDIA's pip\n"
    "wheels or a conda environment that frameworks load instead. Each\n"
    "finding says what is wrong, why it breaks, and the command that\n"
    "fixes it.\n";

static const char notes[] =
    "Exit status: 0 when no problem was found (warnings allowed), 15 when\n"
    "one was.\n"
    "\n"
    "Environment:\n"
    "  CUENV_DRIVER_VERSION  the driver to check against (\"\": none),\n"
    "                        instead of /sys/module/nvidia/version\n"
    "  CUENV_LD_SO_CACHE     the loader cache to read (/etc/ld.so.cache)\n"
    "  CUENV_LD_SO_CONF      its configuration (/etc/ld.so.conf)\n"
    "  CUENV_MANIFESTS       the catalogue, for the driver table\n";

enum { O_JSON };

static const struct cmd_option opts[] = {
    [O_JSON] = {"json", .help = "the findings as JSON: {id, severity, what, "
				"why, fix, paths}"},
};

#define PYTHON_TIMEOUT_MS 10000
#define PYTHON_OUT_MAX (1u << 20)

/* ---- gathering ---------------------------------------------------------- */

/* The compatibility tables, or NULL (the driver check then says so). */
static char *compat_dir(const struct cuenv_ctx *ctx)
{
	struct buf dir = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	char *out = NULL;

	if (!cmd_compat_dir(ctx, &dir, &e))
		out = buf_detach(&dir);
	buf_release(&dir);
	err_release(&e);
	return out;
}

/*
 * Ask python for its sys.path (one folder a line), with this process's
 * environment, so that a virtualenv, PYTHONPATH or the user's site count
 * as they do for the user's programs. Best effort: nothing on failure.
 */
static void python_path(const char *python, char *const *envp,
			struct strv *dirs)
{
	static const char script[] = "import sys\n"
				     "for p in sys.path:\n"
				     "    if p: print(p)\n";
	char *argv[] = {(char *)python, (char *)"-c", (char *)script, NULL};
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;

	p.argv = argv;
	p.envp = envp;
	p.out_fd = 1;
	p.max_output = PYTHON_OUT_MAX;
	p.kill_on_overflow = 1;
	p.timeout_ms = PYTHON_TIMEOUT_MS;
	if (!proc_run(&p, &e) && p.exit_code == 0) {
		struct strv lines = STRV_INIT;

		strv_split(&lines, p.out.data, '\n');
		for (size_t i = 0; i < lines.n; i++)
			if (lines.v[i][0] == '/' &&
			    strv_find(dirs, lines.v[i]) < 0)
				strv_push(dirs, lines.v[i]);
		strv_release(&lines);
	}
	proc_release(&p);
	err_release(&e);
}

/* A virtualenv's site-packages, in case its python did not answer. */
static void venv_dirs(const struct envmap *env, struct strv *dirs)
{
	const char *venv = envmap_get(env, "VIRTUAL_ENV");
	struct buf pat = BUF_INIT;
	glob_t g;

	if (!venv || venv[0] != '/')
		return;
	buf_path(&pat, venv, "lib/python*/site-packages");
	if (!glob(pat.data, 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (strv_find(dirs, g.gl_pathv[i]) < 0)
				strv_push(dirs, g.gl_pathv[i]);
	globfree(&g);
	buf_release(&pat);
}

/* ---- printing ----------------------------------------------------------- */

#define WIDTH 79

/* first, then text wrapped at spaces, further lines indented by indent. */
static void print_wrapped(const char *first, size_t indent, const char *text)
{
	size_t col = strlen(first);
	int words = 0, sep = 1;

	fputs(first, stdout);
	while (*text) {
		size_t n = strcspn(text, " ");

		if (words && col + 1 + n > WIDTH) {
			printf("\n%*s", (int)indent, "");
			col = indent;
			words = 0;
			sep = 0;
		}
		if (sep) {
			fputc(' ', stdout);
			col++;
		}
		col += fwrite(text, 1, n, stdout);
		words++;
		sep = 1;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', stdout);
}

/*
 * The fix, one alternative a line: "; or " starts the next, "; and " a
 * step to take as well.
 */
static void print_fix(const char *fix)
{
	const char *p = fix, *lead = "    fix: ";

	while (*p) {
		const char * or = strstr(p, "; or "),
			     *and = strstr(p, "; and ");
		const char *next = or &&(!and || or < and) ? or : and;
		size_t n = next ? (size_t)(next - p) : strlen(p);

		printf("%s%.*s\n", lead, (int)n, p);
		if (!next)
			break;
		lead = next == or ? "     or: " : "    and: ";
		p = next + (next == or ? 5 : 6);
	}
}

static void describe_selection(const struct activation *a, struct buf *out)
{
	const struct selection *sel = &a->sel;

	if (a->ok) {
		buf_printf(out, "cuda %s", a->act.cuda->version);
		if (a->act.cudnn)
			buf_printf(out, " + cudnn %s", a->act.cudnn->version);
		if (a->act.cupti)
			buf_printf(out, " + cupti %s", a->act.cupti->version);
		if (a->act.isolate)
			buf_adds(out, ", isolated");
	} else if (selection_active(sel)) {
		buf_adds(out, "cuda ");
		buf_add_display(out, sel->cuda, 64);
		if (sel->cudnn) {
			buf_adds(out, " + cudnn ");
			buf_add_display(out, sel->cudnn, 64);
		}
		if (sel->cupti) {
			buf_adds(out, " + cupti ");
			buf_add_display(out, sel->cupti, 64);
		}
		buf_adds(out, ", not available");
	} else if (sel->origin != SEL_NONE) {
		buf_adds(out, "cuda = system");
	} else {
		buf_adds(out, "nothing selected");
	}
	if (sel->origin != SEL_NONE) {
		buf_adds(out, " (");
		selection_describe_origin(sel, out);
		buf_adds(out, ")");
	}
}

static void print_text(const struct activation *a, const struct findings *f)
{
	static const char *const heads[] = {"problems", "warnings", "info"};
	struct buf sel = BUF_INIT;
	size_t np = findings_count(f, DOCTOR_PROBLEM),
	       nw = findings_count(f, DOCTOR_WARNING),
	       ni = findings_count(f, DOCTOR_INFO);

	describe_selection(a, &sel);
	printf("selection: %s\n", sel.data);
	for (int s = DOCTOR_PROBLEM; s <= DOCTOR_INFO; s++) {
		if (!findings_count(f, (enum doctor_severity)s))
			continue;
		printf("\n%s:\n", heads[s]);
		for (size_t i = 0; i < f->n; i++) {
			const struct finding *x = &f->v[i];
			struct buf first = BUF_INIT;

			if ((int)x->severity != s)
				continue;
			buf_printf(&first, "  * [%s]", x->id);
			print_wrapped(first.data, 4, x->what);
			if (*x->why)
				print_wrapped("    why:", 9, x->why);
			if (*x->fix)
				print_fix(x->fix);
			buf_release(&first);
		}
	}
	printf("\n%zu problem%s, %zu warning%s, %zu info: %s\n", np,
	       np == 1 ? "" : "s", nw, nw == 1 ? "" : "s", ni,
	       np   ? "this selection will fail as described above"
	       : nw ? "no problem found; the warnings can still bite"
		    : "no problem found");
	buf_release(&sel);
}

static void print_json(const struct activation *a, const struct findings *f)
{
	json_t *j = json_object(), *arr = json_array(), *sel;
	struct buf desc = BUF_INIT;
	int shell_lacks = 0;
	char *s;

	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].id, "not-activated"))
			shell_lacks = 1;
	describe_selection(a, &desc);
	sel = json_object();
	json_object_set_new(sel, "description", json_string(desc.data));
	/*
	 * resolved: the selection names what is installed; active: and this
	 * shell carries it (no not-activated finding beside it).
	 */
	json_object_set_new(sel, "resolved", json_boolean(a->ok));
	json_object_set_new(sel, "active", json_boolean(a->ok && !shell_lacks));
	if (a->ok) {
		json_object_set_new(sel, "cuda",
				    json_string(a->act.cuda->version));
		json_object_set_new(sel, "cudnn",
				    a->act.cudnn
					? json_string(a->act.cudnn->version)
					: json_null());
		json_object_set_new(sel, "cupti",
				    a->act.cupti
					? json_string(a->act.cupti->version)
					: json_null());
	}
	json_object_set_new(j, "selection", sel);
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		json_t *o = json_object(), *paths = json_array();

		json_object_set_new(o, "id", json_string(x->id));
		json_object_set_new(
		    o, "severity",
		    json_string(doctor_severity_name(x->severity)));
		json_object_set_new(o, "what", json_string(x->what));
		json_object_set_new(o, "why", json_string(x->why));
		json_object_set_new(o, "fix", json_string(x->fix));
		for (size_t k = 0; k < x->paths.n; k++)
			json_array_append_new(paths,
					      json_string(x->paths.v[k]));
		json_object_set_new(o, "paths", paths);
		json_array_append_new(arr, o);
	}
	json_object_set_new(j, "findings", arr);
	json_object_set_new(
	    j, "problems",
	    json_integer((json_int_t)findings_count(f, DOCTOR_PROBLEM)));
	json_object_set_new(
	    j, "warnings",
	    json_integer((json_int_t)findings_count(f, DOCTOR_WARNING)));
	json_object_set_new(
	    j, "info",
	    json_integer((json_int_t)findings_count(f, DOCTOR_INFO)));
	s = json_dumps(j, JSON_INDENT(2));
	if (s)
		printf("%s\n", s);
	free(s);
	json_decref(j);
	buf_release(&desc);
}

/* ---- the command -------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	static const char *const driver_files[] = {
	    "/sys/module/nvidia/version", "/proc/driver/nvidia/version", NULL};
	struct envmap env = ENVMAP_INIT;
	struct activation a;
	struct cuenv_err aerr = CUENV_ERR_INIT, cerr = CUENV_ERR_INIT;
	struct buf driver = BUF_INIT, driver_from = BUF_INIT,
		   cache_error = BUF_INIT;
	struct driver_req need = {0};
	struct ldcache cache = {0};
	struct ldconf conf = {0};
	struct strv sites = STRV_INIT;
	struct findings f = {0};
	char *compat = NULL, *python = NULL;
	const char *cuda, *v, *cache_path, *conf_path;
	int rc = CUENV_OK, json = cmd_opt_given(&ctx->opt, O_JSON), have_driver,
		have_need = 0, have_cache = 0;
	int have_cat = 0;
	struct catalog cat = {0};

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&a);
	envmap_from(&env, ctx->environ);

	/* The driver, before anything that could fail on a bad setting. */
	v = env_get(ctx->environ, "CUENV_DRIVER_VERSION");
	if (v && *v && strcmp(v, "none") && compat_driver_cmp(v, v)) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"CUENV_DRIVER_VERSION: '%s' is not a driver "
				"version",
				v);
		cuenv_hint(err, "such as 550.54.15; empty or none: no driver");
		goto out;
	}
	if (v) {
		have_driver = *v && strcmp(v, "none");
		buf_sets(&driver, v);
		buf_sets(&driver_from, "CUENV_DRIVER_VERSION");
	} else {
		have_driver =
		    doctor_read_driver(driver_files, &driver, &driver_from);
		if (!have_driver)
			buf_sets(&driver_from, "looked at "
					       "/sys/module/nvidia/version and "
					       "/proc/driver/nvidia/version");
	}

	rc = activation_compute(ctx->root, ctx->cwd, &env, 0, &a, &aerr);
	if (rc && rc != CUENV_E_MANIFEST && rc != CUENV_E_NOT_INSTALLED) {
		cuenv_fail(err, rc, "%s", aerr.msg.data);
		if (aerr.hint.len)
			cuenv_hint(err, "%s", aerr.hint.data);
		goto out;
	}

	cuda = doctor_cuda_version(&a);
	compat = cuda ? compat_dir(ctx) : NULL;
	if (compat && !compat_driver(compat, cuda, &need, &cerr))
		have_need = 1;

	cache_path = env_get(ctx->environ, "CUENV_LD_SO_CACHE");
	if (!cache_path || !*cache_path)
		cache_path = "/etc/ld.so.cache";
	conf_path = env_get(ctx->environ, "CUENV_LD_SO_CONF");
	if (!conf_path || !*conf_path)
		conf_path = "/etc/ld.so.conf";
	err_release(&cerr);
	err_init(&cerr);
	switch (ldcache_read(cache_path, &cache, &cerr)) {
	case CUENV_OK:
		have_cache = 1;
		break;
	case CUENV_NO:
		break;
	default:
		buf_sets(&cache_error, cerr.msg.data);
		break;
	}
	ldconf_read(conf_path, &conf);

	python = env_which(&env, "python3");
	if (python)
		python_path(python, ctx->environ, &sites);
	venv_dirs(&env, &sites);

	/* What the printed fixes may install; none read: they assume all. */
	err_release(&cerr);
	err_init(&cerr);
	have_cat = !cmd_catalog(ctx, &cat, &cerr);

	struct doctor_in in = {
	    .env = &env,
	    .a = &a,
	    .act_rc = rc,
	    .act_err = &aerr,
	    .driver = have_driver ? driver.data : NULL,
	    .driver_from = driver_from.data,
	    .need = have_need ? &need : NULL,
	    .cache = have_cache ? &cache : NULL,
	    .cache_path = cache_path,
	    .cache_error = cache_error.len ? cache_error.data : NULL,
	    .conf = &conf,
	    .site_dirs = &sites,
	    .python = python,
	    .cat = have_cat ? &cat : NULL,
	};
	doctor_run(&in, &f);
	if (json)
		print_json(&a, &f);
	else
		print_text(&a, &f);
	rc = findings_count(&f, DOCTOR_PROBLEM) ? CUENV_E_DOCTOR : CUENV_OK;
out:
	findings_release(&f);
	activation_release(&a);
	envmap_release(&env);
	err_release(&aerr);
	err_release(&cerr);
	buf_release(&driver);
	buf_release(&driver_from);
	buf_release(&cache_error);
	driver_req_release(&need);
	ldcache_release(&cache);
	ldconf_release(&conf);
	catalog_release(&cat);
	strv_release(&sites);
	free(compat);
	free(python);
	return rc;
}

const struct cuenv_cmd cmd_doctor = {
    .name = "doctor",
    .summary = "explain what would break the selection here, and the fix",
    .usage = usage,
    CMD_OPTIONS(opts),
    .notes = notes,
    .min_args = 0,
    .max_args = 0,
    .run = run,
};
