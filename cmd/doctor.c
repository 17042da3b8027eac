/*
 * doctor.c: `cuenv doctor`, gathering what core/doctor audits: the
 * activation here, the driver's version, the loader cache and its
 * configuration, and the folders Python searches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/doctor.h"
#include "../core/plat_fs.h"
#include "../core/plat_path.h"
#include "../core/plat_sys.h"
#include "../core/proc.h"
#include "../core/version.h"
#include "../core/wrap.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv doctor " CMD_SYN_OPTS "\n"
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
	[O_JSON] = { "json",
		     .help = "the findings as JSON: {id, severity, what, "
			     "why, fix, paths}" },
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
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
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

/*
 * A virtualenv's site-packages, in case its python did not answer:
 * lib/python*\/site-packages (POSIX), Lib\site-packages (Windows).
 */
static void venv_dirs(const struct envmap *env, struct strv *dirs)
{
	const char *venv = envmap_get(env, "VIRTUAL_ENV");
	struct strv found = STRV_INIT;
	struct buf lib = BUF_INIT, p = BUF_INIT;
	struct plat_dir *d;
	struct plat_stat st;
	const char *name;

	if (!venv || !plat_path_is_abs(plat_path_native(), venv))
		return;
	buf_path(&lib, venv, "lib");
	if ((d = plat_opendir(lib.data))) {
		while ((name = plat_readdir(d)))
			if (!strncmp(name, "python", 6)) {
				buf_reset(&p);
				buf_path(&p, lib.data, name);
				buf_path(&p, p.data, "site-packages");
				strv_push(&found, p.data);
			}
		plat_closedir(d);
	}
	strv_sort(&found);
	buf_reset(&p);
	buf_path(&p, venv, "Lib/site-packages");
	strv_push(&found, p.data);
	for (size_t i = 0; i < found.n; i++)
		if (!plat_stat(found.v[i], &st) && st.type == PLAT_F_DIR &&
		    strv_find(dirs, found.v[i]) < 0)
			strv_push(dirs, found.v[i]);
	strv_release(&found);
	buf_release(&lib);
	buf_release(&p);
}

/* Does folder dir hold a file called name (dllsearch's question)? */
static bool dll_exists(void *ctx, const char *dir, const char *name)
{
	char *p = plat_path_join(plat_path_native(), dir, name);
	struct plat_stat st;
	bool found = !plat_stat(p, &st) && st.type != PLAT_F_DIR;

	(void)ctx;
	free(p);
	return found;
}

/* python's "3.10", or NULL when it does not answer. */
static char *python_version(const char *python, char *const *envp)
{
	static const char script[] = "import sys\n"
				     "print('%d.%d' % sys.version_info[:2])\n";
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	char *v = NULL;

	p.argv = argv;
	p.envp = envp;
	p.out_fd = 1;
	p.max_output = 64;
	p.kill_on_overflow = 1;
	p.timeout_ms = PYTHON_TIMEOUT_MS;
	if (!proc_run(&p, &e) && p.exit_code == 0 && p.out.len) {
		unsigned maj, min;
		struct buf b = BUF_INIT;

		if (sscanf(p.out.data, "%u.%u", &maj, &min) == 2) {
			buf_printf(&b, "%u.%u", maj, min);
			v = buf_detach(&b);
		}
		buf_release(&b);
	}
	proc_release(&p);
	err_release(&e);
	return v;
}

/* ---- printing ----------------------------------------------------------- */

#define WIDTH 79

/* first, then text wrapped at spaces, further lines indented by indent. */
static void print_wrapped(const char *first, size_t indent, const char *text)
{
	struct strv words = STRV_INIT;
	struct buf out = BUF_INIT;

	wrap_split(text, strlen(text), &words, 0);
	buf_adds(&out, first);
	if (words.n)
		buf_addc(&out, ' ');
	wrap_words(&out, out.len, indent, &words, WIDTH, 0);
	fputs(out.data, stdout);
	buf_release(&out);
	strv_release(&words);
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

static void print_text(const struct activation *a, const struct findings *f)
{
	static const char *const heads[] = { "problems", "warnings", "info" };
	struct buf sel = BUF_INIT;
	size_t np = findings_count(f, DOCTOR_PROBLEM),
	       nw = findings_count(f, DOCTOR_WARNING),
	       ni = findings_count(f, DOCTOR_INFO);

	doctor_describe_selection(a, &sel);
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
	json_t *j = doctor_report_json(a, f);

	cmd_print_json(j);
	json_decref(j);
}

/* ---- the command -------------------------------------------------------- */

/* What the environment asks of doctor, read and checked first. */
struct settings {
	const char *driver;	/* CUENV_DRIVER_VERSION, or NULL: unset */
	const char *cache_path; /* CUENV_LD_SO_CACHE or the system's */
	const char *conf_path;	/* CUENV_LD_SO_CONF or the system's */
	int json;		/* --json */
};

static int read_settings(const struct cuenv_ctx *ctx, struct settings *s,
			 struct cuenv_err *err)
{
	const char *v = env_get(ctx->envp, "CUENV_DRIVER_VERSION");

	s->json = cmd_opt_given(&ctx->opt, O_JSON);
	/* The driver, before anything that could fail on a bad setting. */
	if (v && *v && strcmp(v, "none") && compat_driver_cmp(v, v)) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "CUENV_DRIVER_VERSION: '%s' is not a driver "
			   "version",
			   v);
		cuenv_hint(err, "such as 550.54.15; empty or none: no driver");
		return CUENV_E_USAGE;
	}
	s->driver = v;
	s->cache_path = env_get(ctx->envp, "CUENV_LD_SO_CACHE");
	if (!s->cache_path || !*s->cache_path)
		s->cache_path = "/etc/ld.so.cache";
	s->conf_path = env_get(ctx->envp, "CUENV_LD_SO_CONF");
	if (!s->conf_path || !*s->conf_path)
		s->conf_path = "/etc/ld.so.conf";
	return CUENV_OK;
}

/* Everything doctor_run() is given, and what holds it. */
struct gathered {
	struct envmap env;
	struct activation a;
	int act_rc;
	struct cuenv_err aerr;
	struct buf driver, driver_from, cache_error;
	int have_driver, have_need, have_cache, have_cat;
	struct driver_req need;
	struct ldcache cache;
	struct ldconf conf;
	struct strv sites;
	struct catalog cat;
	char *python;
	/* Windows' loader (plat_sys_system_dir), when it is the system's */
	struct doctor_win win;
	char *win_root, *win_python, *win_python_version;
};

static void gathered_release(struct gathered *g)
{
	activation_release(&g->a);
	envmap_release(&g->env);
	err_release(&g->aerr);
	buf_release(&g->driver);
	buf_release(&g->driver_from);
	buf_release(&g->cache_error);
	driver_req_release(&g->need);
	ldcache_release(&g->cache);
	ldconf_release(&g->conf);
	catalog_release(&g->cat);
	strv_release(&g->sites);
	free(g->python);
	free(g->win_root);
	free(g->win_python);
	free(g->win_python_version);
}

/*
 * Windows' loader: System32's folder (its parent is %SystemRoot%), and
 * the python.exe on PATH, whose version says how it loads the DLLs of
 * extension modules. Nothing where the system is not Windows.
 */
static void gather_win(const struct cuenv_ctx *ctx, struct gathered *g)
{
	char *sys = plat_sys_system_dir();

	if (!sys)
		return;
	g->win_root = plat_path_parent(plat_path_native(), sys);
	free(sys);
	g->win_python = env_which(&g->env, "python");
	if (g->win_python)
		g->win_python_version =
			python_version(g->win_python, ctx->envp);
	g->win = (struct doctor_win){
		.system_root = g->win_root,
		.cwd = ctx->cwd,
		.python = g->win_python,
		.python_version = g->win_python_version,
		.exists = dll_exists,
	};
}

/* The driver's version: the setting's, else the kernel module's. */
static void gather_driver(const struct settings *s, struct gathered *g)
{
	static const char *const driver_files[] = {
		"/sys/module/nvidia/version", "/proc/driver/nvidia/version",
		NULL
	};
	const char *v = s->driver;

	if (v) {
		g->have_driver = *v && strcmp(v, "none");
		buf_sets(&g->driver, v);
		buf_sets(&g->driver_from, "CUENV_DRIVER_VERSION");
		return;
	}
	if (g->win.exists) {
		/* Windows: no /sys; nvcuda.dll's presence is no-driver-dll */
		buf_sets(&g->driver_from, "its version is not read on Windows: "
					  "set CUENV_DRIVER_VERSION");
		return;
	}
	g->have_driver =
		doctor_read_driver(driver_files, &g->driver, &g->driver_from);
	if (!g->have_driver)
		buf_sets(&g->driver_from, "looked at "
					  "/sys/module/nvidia/version and "
					  "/proc/driver/nvidia/version");
}

/* The driver the selected CUDA needs, from the compatibility tables. */
static void gather_need(const struct cuenv_ctx *ctx, struct gathered *g)
{
	const char *cuda = doctor_cuda_version(&g->a);
	char *compat = cuda ? compat_dir(ctx) : NULL;
	struct cuenv_err cerr = CUENV_ERR_INIT;

	if (compat && !compat_driver(compat, cuda, &g->need, &cerr))
		g->have_need = 1;
	err_release(&cerr);
	free(compat);
}

/* The loader cache and its configuration. */
static void gather_cache(const struct settings *s, struct gathered *g)
{
	struct cuenv_err cerr = CUENV_ERR_INIT;

	switch (ldcache_read(s->cache_path, &g->cache, &cerr)) {
	case CUENV_OK:
		g->have_cache = 1;
		break;
	case CUENV_NO:
		break;
	default:
		buf_sets(&g->cache_error, cerr.msg.data);
		break;
	}
	err_release(&cerr);
	ldconf_read(s->conf_path, &g->conf);
}

static int gather(const struct cuenv_ctx *ctx, const struct settings *s,
		  struct gathered *g, struct cuenv_err *err)
{
	struct cuenv_err cerr = CUENV_ERR_INIT;

	gather_win(ctx, g);
	gather_driver(s, g);
	g->act_rc = activation_compute(ctx->root, ctx->cwd, &g->env, 0, &g->a,
				       &g->aerr);
	if (g->act_rc && g->act_rc != CUENV_E_MANIFEST &&
	    g->act_rc != CUENV_E_NOT_INSTALLED) {
		cuenv_fail(err, g->act_rc, "%s", g->aerr.msg.data);
		if (g->aerr.hint.len)
			cuenv_hint(err, "%s", g->aerr.hint.data);
		return g->act_rc;
	}
	gather_need(ctx, g);
	if (!g->win.exists) /* Linux's loader cache */
		gather_cache(s, g);
	g->python = env_which(&g->env, "python3");
	if (g->python)
		python_path(g->python, ctx->envp, &g->sites);
	venv_dirs(&g->env, &g->sites);
	/* What the printed fixes may install; none read: they assume all. */
	g->have_cat = !cmd_catalog(ctx, &g->cat, &cerr);
	err_release(&cerr);
	return CUENV_OK;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct settings s = { 0 };
	struct gathered g = { .aerr = CUENV_ERR_INIT,
			      .driver = BUF_INIT,
			      .driver_from = BUF_INIT,
			      .cache_error = BUF_INIT,
			      .sites = STRV_INIT };
	struct findings f = { 0 };
	int rc;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&g.a);
	envmap_from(&g.env, ctx->envp);
	rc = read_settings(ctx, &s, err);
	if (!rc)
		rc = gather(ctx, &s, &g, err);
	if (!rc) {
		struct doctor_in in = {
			.env = &g.env,
			.a = &g.a,
			.act_rc = g.act_rc,
			.act_err = &g.aerr,
			.driver = g.have_driver ? g.driver.data : NULL,
			.driver_from = g.driver_from.data,
			.need = g.have_need ? &g.need : NULL,
			.cache = g.have_cache ? &g.cache : NULL,
			.cache_path = s.cache_path,
			.cache_error =
				g.cache_error.len ? g.cache_error.data : NULL,
			.conf = &g.conf,
			.site_dirs = &g.sites,
			.python = g.python,
			.cat = g.have_cat ? &g.cat : NULL,
			.win = g.win.exists ? &g.win : NULL,
		};

		doctor_run(&in, &f);
		if (s.json)
			print_json(&g.a, &f);
		else
			print_text(&g.a, &f);
		rc = findings_count(&f, DOCTOR_PROBLEM) ? CUENV_E_DOCTOR
							: CUENV_OK;
	}
	findings_release(&f);
	gathered_release(&g);
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
