#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/compat.h"
#include "../core/mirror.h"
#include "../core/mirror_args.h"
#include "../core/mirror_render.h"
#include "../core/plat_fs.h"
#include "../core/xalloc.h"
#include "cmd.h"
#include "cli/mirror.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* ---- output ----------------------------------------------------------------- */

struct show {
	int quiet;
};

static void on_file(void *ctx, const struct mirror_file *f, enum mirror_how how,
		    uint64_t bytes)
{
	struct show *s = ctx;
	struct buf line = BUF_INIT;

	if (s->quiet)
		return;
	mirror_render_file(&line, f, how, bytes);
	fputs(line.data, stderr);
	buf_release(&line);
}

static void on_waiting(void *ctx, const char *dir)
{
	struct show *s = ctx;

	if (!s->quiet)
		fprintf(stderr,
			"cuenv: another cuenv mirror is writing '%s'; "
			"waiting for it\n",
			dir);
}

/* ---- what to mirror ----------------------------------------------------------- */

struct request {
	const char *cuda, *cudnn;
};

/* What the words and options ask for. */
struct asked {
	char **specs; /* the SPECs */
	int nspecs;
	struct strv fors; /* --for, each */
	const char *cudnn, *cupti;
	int source, quiet;
	struct strv plats;
	const struct plan_opts *io;
};

/* The request checked, before anything is read or fetched. */
static int check_asked(struct asked *q, struct mirror_opts *mo, const char *dir,
		       struct cuenv_err *err)
{
	int rc;

	if (!q->nspecs && !q->fors.n) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "mirror: give at least one SPEC or --for");
		return cuenv_hint(err,
				  "for example: cuenv mirror %s 12.4 "
				  "--cudnn 9",
				  dir);
	}
	rc = cmd_plan_opts_check(&cmd_mirror, q->io, err);
	if (!rc)
		rc = mirror_platforms_check(&q->plats, err);
	if (rc)
		return rc;
	if (mo->upstream && *mo->upstream)
		rc = cmd_mirror_url(&cmd_mirror, mo->upstream, &mo->fetch, err);
	if (rc)
		return rc;
	if (mo->upstream && !*mo->upstream)
		mo->upstream = NULL;
	for (int i = 0; i < q->nspecs; i++)
		if ((rc = cmd_check_version("cuda", q->specs[i], 0, err)))
			return rc;
	if ((q->cudnn && (rc = cmd_check_version("cudnn", q->cudnn, 0, err))) ||
	    (q->cupti && (rc = cmd_check_version("cupti", q->cupti, 0, err))))
		return rc;
	return mirror_check_dir(dir, err);
}

/* What to fetch: every request on every platform, into plan. */
static int plan_all(const struct cuenv_ctx *ctx, const struct asked *q,
		    struct mirror_plan *plan, struct cuenv_err *err)
{
	struct request *reqs =
		xcalloc((size_t)q->nspecs + q->fors.n + 1, sizeof(*reqs));
	struct framework_builds *fws = xcalloc(q->fors.n + 1, sizeof(*fws));
	size_t nreq = 0;
	int rc = CUENV_OK;

	for (int i = 0; i < q->nspecs; i++)
		reqs[nreq++] = (struct request){ q->specs[i], q->cudnn };
	for (size_t p = 0; p < q->plats.n && !rc; p++) {
		struct catalog cat = { 0 };

		rc = cmd_catalog_for(ctx, q->plats.v[p], &cat, err);
		/* --for picks with the first platform's catalogue. */
		for (size_t i = 0; !rc && p == 0 && i < q->fors.n; i++) {
			rc = cmd_framework_pick(ctx, q->fors.v[i], &cat,
						q->cudnn, q->source, q->quiet,
						&fws[i], err);
			if (!rc)
				reqs[nreq++] = (struct request){
					fws[i].v[0].cuda,
					q->cudnn ? q->cudnn : fws[i].v[0].cudnn
				};
		}
		for (size_t i = 0; !rc && i < nreq; i++)
			rc = mirror_plan_request(plan, &cat, reqs[i].cuda,
						 reqs[i].cudnn, q->cupti,
						 q->source, q->plats.v[p],
						 q->io, err);
		catalog_release(&cat);
	}
	for (size_t i = 0; i < q->fors.n; i++)
		framework_builds_release(&fws[i]);
	free(fws);
	free(reqs);
	return rc;
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
	struct asked q = {
		.fors = STRV_INIT, .plats = STRV_INIT, .source = -1, .io = &io
	};
	struct buf cache = BUF_INIT, compat = BUF_INIT, command = BUF_INIT;
	struct show show = { 0 };
	const char *dir;
	int rc = CUENV_OK, no_cache = 0;

	mirror_plan_init(&plan);
	mo.upstream = env_get(ctx->envp, "CUENV_MIRROR");
	rc = cmd_fetch_env(ctx, &mo.fetch, err);
	if (rc)
		goto out;
	q.cudnn = ctx->opt.arg[O_CUDNN];
	q.cupti = ctx->opt.arg[O_CUPTI];
	rc = cmd_plan_opts(&cmd_mirror, ctx->opt.arg[O_COMPONENTS],
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
	no_cache = opt_given(&ctx->opt, O_NO_CACHE);
	mo.verify = opt_given(&ctx->opt, O_VERIFY);
	show.quiet = q.quiet = opt_given(&ctx->opt, O_QUIET);
	dir = argv[optind];
	q.specs = argv + optind + 1;
	q.nspecs = argc - optind - 1;
	rc = check_asked(&q, &mo, dir, err);
	if (!rc)
		rc = plan_all(ctx, &q, &plan, err);
	if (rc)
		goto out;

	if (!no_cache) {
		buf_path(&cache, ctx->root, "cache");
		if (store_is_dir(cache.data))
			mo.cache = cache.data;
	}
	{
		struct cuenv_err e = CUENV_ERR_INIT;

		if (!cmd_compat_dir(ctx, &compat, &e))
			mo.compat = compat.data;
		err_release(&e);
	}
	buf_adds(&command, "cuenv");
	for (int i = 0; i < argc; i++)
		buf_printf(&command, " %s", argv[i]);
	mo.command = command.data;
	mo.dir = dir;
	mo.on_file = on_file;
	mo.waiting = on_waiting;
	mo.ctx = &show;
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
