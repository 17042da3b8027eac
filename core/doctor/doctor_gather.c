/*
 * doctor_gather.c: what `cuenv doctor` reads of this machine before it
 * audits (see the header).
 */
#include "doctor/doctor_gather.h"
#include "artifact/pyobs.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/catalog.h"
#include "select/env.h"
#include "artifact/loader.h"
#include "nvidia/manifests.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/plat_sys.h"
#include "plat/proc.h"
#include "artifact/pydirs.h"
#include "base/xalloc.h"

int doctor_settings_read(char *const *envp, struct doctor_settings *s,
			 struct cuenv_err *err)
{
	const char *v = env_get(envp, "CUENV_DRIVER_VERSION");

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
	if (pyobs_timeout(env_get(envp, "CUENV_IMPORT_TIMEOUT"), &s->import_ms,
			  err))
		return CUENV_E_USAGE;
	s->cache_path = env_get(envp, "CUENV_LD_SO_CACHE");
	if (!s->cache_path || !*s->cache_path)
		s->cache_path = "/etc/ld.so.cache";
	s->conf_path = env_get(envp, "CUENV_LD_SO_CONF");
	if (!s->conf_path || !*s->conf_path)
		s->conf_path = "/etc/ld.so.conf";
	return CUENV_OK;
}

void doctor_gathered_init(struct doctor_gathered *g)
{
	memset(g, 0, sizeof(*g));
	activation_init(&g->a);
	err_init(&g->act_err);
	buf_init(&g->driver);
	buf_init(&g->driver_from);
	buf_init(&g->cache_error);
	buf_init(&g->compat);
}

void doctor_gathered_release(struct doctor_gathered *g)
{
	activation_release(&g->a);
	envmap_release(&g->env);
	err_release(&g->act_err);
	BUF_RELEASE_EACH(&g->driver, &g->driver_from, &g->cache_error,
			 &g->compat);
	catalog_release(&g->cat);
	driver_req_release(&g->need);
	ldcache_release(&g->cache);
	ldconf_release(&g->conf);
	strv_release(&g->sites);
	strv_release(&g->defaults);
	FREE_EACH(g->python, g->win_root, g->win_python, g->loader_lib);
	free(g->win_python_version);
}

void doctor_gather_tables(struct doctor_where *w, const char *exe,
			  struct doctor_gathered *g)
{
	struct cuenv_err e = CUENV_ERR_INIT;

	if (!manifests_catalog_env(w->envp, w->root, exe, NULL, &g->cat, &e))
		w->cat = &g->cat;
	if (!manifests_compat_env(w->envp, exe, &g->compat, &e))
		w->compat = g->compat.data;
	err_release(&e);
}

/*
 * Windows' loader: System32's folder (its parent is %SystemRoot%), and
 * the python.exe on PATH, whose version says how it loads the DLLs of
 * extension modules. Nothing where the system is not Windows.
 */
static void gather_win(const struct doctor_where *w, struct doctor_gathered *g)
{
	char *sys = plat_sys_system_dir();

	if (!sys)
		return;
	g->win_root = plat_path_parent(plat_path_native(), sys);
	free(sys);
	g->win_python = env_which(&g->env, "python");
	if (g->win_python)
		g->win_python_version = pydirs_version(g->win_python, w->envp);
	g->win = (struct doctor_win){
		.system_root = g->win_root,
		.cwd = w->cwd,
		.python = g->win_python,
		.python_version = g->win_python_version,
		.exists = doctor_dll_exists,
	};
	g->in.win = &g->win;
}

/* The driver's version: the setting's, else the first file's. */
static void gather_driver(const struct doctor_where *w,
			  const struct doctor_settings *s,
			  struct doctor_gathered *g)
{
	static const char *const driver_files[] = {
		"/sys/module/nvidia/version", "/proc/driver/nvidia/version",
		NULL
	};
	const char *const *files =
		w->driver_files ? w->driver_files : driver_files;
	const char *v = s->driver;
	int found;

	if (v) {
		buf_sets(&g->driver, v);
		buf_sets(&g->driver_from, "CUENV_DRIVER_VERSION");
		found = *v && strcmp(v, "none");
	} else if (g->in.win) {
		/* Windows: no /sys; nvcuda.dll's presence is no-driver-dll */
		buf_sets(&g->driver_from, "its version is not read on Windows: "
					  "set CUENV_DRIVER_VERSION");
		found = 0;
	} else {
		found = doctor_read_driver(files, &g->driver, &g->driver_from);
		if (!found) {
			buf_sets(&g->driver_from, "looked at ");
			for (size_t i = 0; files[i]; i++)
				buf_printf(&g->driver_from, "%s%s",
					   !i		  ? ""
					   : files[i + 1] ? ", "
							  : " and ",
					   files[i]);
		}
	}
	g->in.driver = found ? g->driver.data : NULL;
	g->in.driver_from = g->driver_from.data;
}

/* The driver the selected CUDA needs, from the compatibility tables. */
static void gather_need(const struct doctor_where *w, struct doctor_gathered *g)
{
	const char *cuda = doctor_cuda_version(&g->a);
	struct cuenv_err cerr = CUENV_ERR_INIT;
	int windows = plat_path_native()->style == PLAT_PATH_WINDOWS;

	/* Windows' drivers have their own column (NVIDIA's table) */
	if (cuda && w->compat &&
	    !compat_driver_os(w->compat, cuda, windows, &g->need, &cerr))
		g->in.need = &g->need;
	err_release(&cerr);
}

/* The loader cache and its configuration. */
static void gather_cache(const struct doctor_settings *s,
			 struct doctor_gathered *g)
{
	struct cuenv_err cerr = CUENV_ERR_INIT;

	switch (ldcache_read(s->cache_path, &g->cache, &cerr)) {
	case CUENV_OK:
		g->in.cache = &g->cache;
		break;
	case CUENV_NO:
		break;
	default:
		buf_sets(&g->cache_error, cerr.msg.data);
		g->in.cache_error = g->cache_error.data;
		break;
	}
	err_release(&cerr);
	ldconf_read(s->conf_path, &g->conf);
}

/* What `LDSO --help` prints, into out; false when it does not run. */
static bool ldso_help(const char *ldso, struct buf *out)
{
	char *argv[] = { (char *)ldso, (char *)"--help", NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	bool ok;

	p.argv = argv;
	p.out_fd = 1;
	p.max_output = 1u << 16;
	p.kill_on_overflow = 1;
	p.timeout_ms = 5000;
	ok = !proc_run(&p, &e) && p.exit_code == 0;
	if (ok)
		buf_add(out, p.out.data, p.out.len);
	proc_release(&p);
	err_release(&e);
	return ok;
}

/*
 * The loader's default folders, in its order: what its --help says
 * (glibc 2.33 on), else as glibc derives them; $PLATFORM and $LIB.
 */
static void gather_loader(const struct doctor_where *w,
			  struct doctor_gathered *g)
{
	static const char *const ldsos[] = { "/lib64/ld-linux-x86-64.so.2",
					     "/lib/ld-linux-aarch64.so.1",
					     "/lib64/ld64.so.2", NULL };
	const char *machine = catalog_platform_machine(plat_sys_platform());
	struct buf help = BUF_INIT;
	bool found = false;

	for (size_t i = 0; !found && (w->ldso ? i < 1 : ldsos[i] != NULL);
	     i++) {
		buf_reset(&help);
		found = ldso_help(w->ldso ? w->ldso : ldsos[i], &help) &&
			loader_defaults_parse(help.data, &g->defaults);
	}
	if (!found)
		loader_defaults_guess(machine, &g->defaults);
	/* $LIB: the first default folder's, "lib/x86_64-linux-gnu" */
	if (g->defaults.n && g->defaults.v[0][0] == '/')
		g->loader_lib = xstrdup(g->defaults.v[0] + 1);
	g->in.loader_defaults = &g->defaults;
	g->in.loader_platform = machine;
	g->in.loader_lib = g->loader_lib;
	buf_release(&help);
}

int doctor_gather(const struct doctor_where *w, const struct doctor_settings *s,
		  struct doctor_gathered *g, struct cuenv_err *err)
{
	int rc;

	envmap_from(&g->env, w->envp);
	gather_win(w, g);
	gather_driver(w, s, g);
	rc = activation_compute(w->root, w->cwd, &g->env, 0, &g->a,
				&g->act_err);
	if (rc && rc != CUENV_E_MANIFEST && rc != CUENV_E_NOT_INSTALLED) {
		cuenv_fail(err, rc, "%s", g->act_err.msg.data);
		if (g->act_err.hint.len)
			cuenv_hint(err, "%s", g->act_err.hint.data);
		return rc;
	}
	gather_need(w, g);
	if (!g->in.win) { /* Linux's loader: its cache and defaults */
		gather_cache(s, g);
		gather_loader(w, g);
	}
	if (w->python) {
		struct plat_stat st;

		g->python = strchr(w->python, '/')
				    ? xstrdup(w->python)
				    : env_which(&g->env, w->python);
		if (!g->python || plat_stat(g->python, &st) ||
		    st.type != PLAT_F_REG)
			return cuenv_fail(err, CUENV_E_USAGE,
					  "doctor --python: '%s' is not a "
					  "file",
					  w->python);
	} else {
		g->python = env_which(&g->env, "python3");
	}
	if (g->python) {
		/* the layout answers where python does not */
		pydirs_sites(g->python, w->envp, &g->sites);
	}
	if (!w->python) {
		pydirs_venv(envmap_get(&g->env, "VIRTUAL_ENV"), &g->sites);
		pydirs_venv(envmap_get(&g->env, "CONDA_PREFIX"), &g->sites);
	}
	g->in.env = &g->env;
	g->in.a = &g->a;
	g->in.act_rc = rc;
	g->in.act_err = &g->act_err;
	g->in.cache_path = s->cache_path;
	g->in.conf = &g->conf;
	g->in.site_dirs = &g->sites;
	g->in.python = g->python;
	g->in.observe = !w->no_import;
	g->in.import_ms = s->import_ms;
	g->in.cat = w->cat;
	return CUENV_OK;
}
