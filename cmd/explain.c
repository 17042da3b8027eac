/*
 * explain.c: `cuenv explain`: what a framework's error message, a pasted
 * log, a soname or a DLL name means, what this machine has instead, and
 * the commands that fix it.
 *
 * The reading, the reasoning, the fix and the JSON report are
 * core/explain's (the fix from what core/needs answers for the libraries
 * and cuDNN the text asks for). This file gathers the text, the tables,
 * the store, the loader's path and the catalogue, and prints.
 */
#include <stdio.h>

#include <string.h>

#include "select/activate.h"
#include "nvidia/catalog.h"
#include "select/env.h"
#include "plat/envmap.h"
#include "explain/explain.h"
#include "explain/explain_loader.h"
#include "explain/explain_render.h"
#include "needs/needs_ask.h"
#include "artifact/loader.h"
#include "artifact/pyobs.h"
#include "plat/plat_sys.h"
#include "artifact/pydirs.h"
#include "select/venvlib.h"
#include "cmd.h"
#include "cli/explain.h"

/* ---- the loader model ---------------------------------------------------- */

/*
 * The loader model's inputs for this shell (explain_loader.h): its
 * LD_LIBRARY_PATH, the selection in force in it and the commands that
 * turn it off or change it, the loader's default folders (as glibc
 * derives them), the environment in use's site-packages.
 */
static void model(const struct cuenv_ctx *ctx, struct explain *ex,
		  struct explain_fix *fx, const struct ldcache *cache,
		  unsigned import_ms)
{
	const char *machine = catalog_platform_machine(plat_sys_platform());
	struct explain_model_in mi = { 0 };
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	struct strv defaults = STRV_INIT, sites = STRV_INIT;
	struct envmap start = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;
	const char *base;
	bool asks = false;

	/* only a symbol version or a cuDNN mismatch asks the model */
	for (size_t i = 0; i < ex->n; i++)
		asks |= ex->v[i].kind == EXPLAIN_SYMBOL ||
			ex->v[i].kind == EXPLAIN_CUDNN_MISMATCH;
	if (!asks)
		return;
	activation_init(&a);
	envmap_from(&start, ctx->envp);
	mi.library_path = env_get(ctx->envp, "LD_LIBRARY_PATH");
	/* a selection the hook put in this shell: what it was before */
	if (!activation_compute(ctx->root, ctx->cwd, &start, 0, &a, &ignored) &&
	    a.ok) {
		base = envmap_get(&a.base, "LD_LIBRARY_PATH");
		mi.base_path = base ? base : "";
		mi.drop = a.sel.origin == SEL_FILE     ? "cuenv local system"
			  : a.sel.origin == SEL_GLOBAL ? "cuenv global system"
						       : "cuenv use system";
	}
	mi.cuda = selection_active(&a.sel) ? a.sel.cuda : NULL;
	mi.select = a.sel.origin == SEL_GLOBAL	? "cuenv global"
		    : a.sel.origin == SEL_SHELL ? "cuenv use"
						: "cuenv local";
	loader_defaults_guess(machine, &defaults);
	mi.defaults = &defaults;
	mi.platform = machine;
	mi.lib = defaults.n && defaults.v[0][0] == '/' ? defaults.v[0] + 1
						       : NULL;
	mi.cache = cache;
	mi.in = &fx->in;
	venv_libs_find(&start, NULL, &v);
	pydirs_venv(v.prefix, &sites);
	mi.site = sites.n ? sites.v[0] : NULL;
	if (!opt_given(&ctx->opt, O_NO_IMPORT))
		mi.envp = ctx->envp;
	mi.import_ms = import_ms;
	explain_model(ex, fx, &mi);
	activation_release(&a);
	err_release(&ignored);
	envmap_release(&start);
	venv_libs_release(&v);
	STRV_RELEASE_EACH(&defaults, &sites);
}

/* ---- the command --------------------------------------------------------- */

/* Would `cuenv needs --python`, a command fx->decide may give, find a
 * framework to read? (explain_fix_frameworks) */
static void frameworks(const struct cuenv_ctx *ctx, struct explain_fix *fx)
{
	struct needs_python py;
	struct strv warnings = STRV_INIT;
	struct cuenv_err ignored = CUENV_ERR_INIT;

	if (!fx->decide.n)
		return;
	needs_python_init(&py, NULL);
	needs_python_find(&py, "python3", ctx->envp, &warnings, &ignored);
	explain_fix_frameworks(fx, &py, "python3");
	needs_python_release(&py);
	strv_release(&warnings);
	err_release(&ignored);
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct explain ex;
	struct explain_fix fx;
	struct catalog cat = { 0 };
	struct ldcache cache = { 0 };
	struct buf dir = BUF_INIT, out = BUF_INIT;
	struct cuenv_err cerr = CUENV_ERR_INIT;
	const char *cache_path = env_get(ctx->envp, "CUENV_LD_SO_CACHE");
	int rc = CUENV_OK, have_cache = 0, json = opt_given(&ctx->opt, O_JSON);
	unsigned import_ms = 0;

	explain_init(&ex);
	explain_fix_init(&fx);
	rc = pyobs_timeout(env_get(ctx->envp, "CUENV_IMPORT_TIMEOUT"),
			   &import_ms, err);
	if (rc)
		goto report;

	rc = explain_read(&ex, argv + optind, argc - optind, 0, err);
	if (rc)
		goto report;

	/* The frameworks table; without one, say so and go on. */
	if (cmd_compat_dir(ctx, &dir, &cerr) ||
	    explain_frameworks(&ex, dir.data, &cerr))
		cmd_warn("%s; the frameworks that ask for it are not shown",
			 cerr.msg.data);
	err_release(&cerr);
	err_init(&cerr);
	if (!cache_path || !*cache_path)
		cache_path = "/etc/ld.so.cache";
	if (ldcache_read(cache_path, &cache, &cerr) == CUENV_OK)
		have_cache = 1;
	err_release(&cerr);
	err_init(&cerr);
	if (cmd_catalog(ctx, &cat, &cerr))
		cmd_warn("%s; no install line can be given", cerr.msg.data);
	err_release(&cerr);

	explain_scan(&ex, &fx.s);
	explain_fix_minimums(&fx, &ex, &cat);
	needs_scan_finish(&fx.s);
	rc = cmd_needs_installed(ctx, &fx.s, NULL, &fx.in, err);
	if (rc)
		goto report;
	explain_fix_decide(&fx, &ex, &cat);
	frameworks(ctx, &fx);
	explain_machine(&ex, &fx.in, have_cache ? &cache : NULL,
			env_get(ctx->envp, "LD_LIBRARY_PATH"));
	model(ctx, &ex, &fx, have_cache ? &cache : NULL, import_ms);
	rc = explain_verdict(&ex, err);
report:
	/* --json prints its object on every way out, the error in it */
	if (json || !rc || ex.n)
		explain_render(&out, &ex, &fx, json, err);
	cmd_print_report(&out);
	explain_release(&ex);
	explain_fix_release(&fx);
	catalog_release(&cat);
	ldcache_release(&cache);
	BUF_RELEASE_EACH(&dir, &out);
	return rc;
}

CUENV_CMD(explain, 1, -1, .flags = CMD_STOP_AT_ARG, .run = run);
