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
#include "../core/doctor_render.h"
#include "../core/plat_path.h"
#include "../core/plat_sys.h"
#include "../core/pydirs.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"
#include "cli/doctor.h"

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

/* ---- printing ----------------------------------------------------------- */

static void print_text(const struct activation *a, const struct findings *f)
{
	struct buf out = BUF_INIT;

	doctor_render_text(&out, a, f);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
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

	s->json = opt_given(&ctx->opt, O_JSON);
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
			pydirs_version(g->win_python, ctx->envp);
	g->win = (struct doctor_win){
		.system_root = g->win_root,
		.cwd = ctx->cwd,
		.python = g->win_python,
		.python_version = g->win_python_version,
		.exists = doctor_dll_exists,
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
	int windows = plat_path_native()->style == PLAT_PATH_WINDOWS;

	/* Windows' drivers have their own column (NVIDIA's table) */
	if (compat && !compat_driver_os(compat, cuda, windows, &g->need, &cerr))
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
		pydirs_ask(g->python, ctx->envp, &g->sites);
	pydirs_venv(envmap_get(&g->env, "VIRTUAL_ENV"), &g->sites);
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

CUENV_CMD(doctor, 0, 0, .run = run);
