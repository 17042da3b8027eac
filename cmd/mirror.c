#include <stdlib.h>

#include "install/install_request.h"
#include "install/mirror.h"
#include "install/mirror_render.h"
#include "plat/plat_fs.h"
#include "nvidia/manifests.h"
#include "cmd.h"
#include "cli/mirror.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* A run's lines (core/mirror_render): to stderr. */
static void to_stderr(void *ctx, const char *text)
{
	(void)ctx;
	fputs(text, stderr);
}

/* What mirror_plan_all reads: the catalogues and framework tables. */
static int load_catalog(void *ctx, const char *platform, struct catalog *cat,
			struct cuenv_err *err)
{
	const struct cuenv_ctx *c = ctx;

	return manifests_catalog_env(c->envp, c->root, c->exe, platform, cat,
				     err);
}

static int pick_framework(void *ctx, const char *arg, const struct catalog *cat,
			  const char *cudnn, int source, int quiet,
			  struct framework_builds *out, struct cuenv_err *err)
{
	return cmd_framework_pick(ctx, arg, cat, cudnn, source, quiet, out,
				  err);
}

static void print_summary(const struct mirror_plan *plan,
			  const struct mirror_report *rep, const char *dir)
{
	struct buf out = BUF_INIT;
	char *abs = plat_realpath(dir);

	mirror_render_summary(&out, plan, rep, dir, abs);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	free(abs);
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct plan_opts io = { 0 };
	struct mirror_opts mo = { .fetch = FETCH_OPTS_INIT };
	struct mirror_plan plan;
	struct mirror_report rep = { 0 };
	struct strv comps = STRV_INIT;
	struct mirror_asked q = {
		.fors = STRV_INIT, .plats = STRV_INIT, .source = -1, .io = &io
	};
	struct mirror_sources src = { load_catalog, pick_framework, ctx };
	struct buf cache = BUF_INIT, compat = BUF_INIT, command = BUF_INIT;
	struct mirror_show show = { .write = to_stderr };
	struct fetch_opts pf;
	const char *dir;
	int rc = CUENV_OK;

	mirror_plan_init(&plan);
	mo.upstream = env_get(ctx->envp, "CUENV_MIRROR");
	rc = cmd_fetch_env(ctx, &mo.fetch, err);
	if (rc)
		goto out;
	q.cudnn = ctx->opt.arg[O_CUDNN];
	q.cupti = ctx->opt.arg[O_CUPTI];
	rc = plan_opts_parse(cmd_mirror.cli.name, ctx->opt.arg[O_COMPONENTS],
			     opt_given(&ctx->opt, O_RUNTIME_ONLY), &comps, &io,
			     err);
	if (rc)
		goto out;
	if (ctx->opt.arg[O_SOURCE] &&
	    (rc = mirror_source_parse(ctx->opt.arg[O_SOURCE], &q.source, err)))
		goto out;
	if (ctx->opt.arg[O_MIRROR])
		mo.upstream = ctx->opt.arg[O_MIRROR];
	for (unsigned i = 0; i < ctx->opt.nall; i++)
		if (ctx->opt.all[i].opt == O_FOR)
			strv_push(&q.fors, ctx->opt.all[i].arg);
	if (ctx->opt.arg[O_PLATFORM])
		strv_split(&q.plats, ctx->opt.arg[O_PLATFORM], ',');
	mo.verify = opt_given(&ctx->opt, O_VERIFY);
	show.quiet = q.quiet = opt_given(&ctx->opt, O_QUIET);
	dir = argv[optind];
	q.specs = argv + optind + 1;
	q.nspecs = argc - optind - 1;
	rc = mirror_args_check(&q, &mo.upstream, &mo.fetch, dir, err);
	/* --source pypi: the wheels from CUENV_PYPI_INDEX, as install's */
	plan.pypi_index =
		install_request_index(env_get(ctx->envp, "CUENV_PYPI_INDEX"));
	pf = mo.fetch;
	if (install_request_index_http(plan.pypi_index))
		pf.allow_http = mo.fetch.allow_http = 1;
	plan.pypi_fetch = &pf;
	if (!rc)
		rc = mirror_plan_all(&plan, &q, &src, err);
	if (rc)
		goto out;

	mo.cache = mirror_args_cache(ctx->root,
				     opt_given(&ctx->opt, O_NO_CACHE), &cache);
	{
		struct cuenv_err e = CUENV_ERR_INIT;

		if (!cmd_compat_dir(ctx, &compat, &e))
			mo.compat = compat.data;
		err_release(&e);
	}
	mirror_args_command(argc, argv, &command);
	mo.command = command.data;
	mo.dir = dir;
	mirror_show_attach(&show, &mo);
	fetch_global_init();
	rc = mirror_run(&plan, &mo, &rep, err);
	if (!rc && !show.quiet)
		print_summary(&plan, &rep, dir);
out:
	mirror_plan_release(&plan);
	strv_release(&comps);
	strv_release(&q.plats);
	strv_release(&q.fors);
	buf_release(&cache);
	buf_release(&compat);
	buf_release(&command);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(mirror, 1, -1, .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
