#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/compat.h"
#include "../core/install_request.h"
#include "../core/manifests.h"
#include "../core/mirror.h"
#include "../core/mirror_args.h"
#include "../core/mirror_render.h"
#include "../core/plat_fs.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv mirror DIR [SPEC...] " CMD_SYN_OPTS "\n"
	"\n"
	"Download into DIR, sha256-checked, what `cuenv install SPEC` (with\n"
	"the same --cudnn, --cupti, --components or --runtime-only) fetches,\n"
	"laid out as on NVIDIA's host, with the redistrib_<version>.json\n"
	"manifests, a catalogue folder (DIR/cuenv-catalogue) and a README.txt,\n"
	"so that nodes that reach nothing else install from it:\n"
	"\n"
	"  cuenv install --mirror file://DIR SPEC     (a shared filesystem)\n"
	"  cuenv install --mirror http://HOST:PORT SPEC\n"
	"                                    (any static HTTP server over DIR)\n"
	"\n"
	"Running it again adds what is missing: files already there and\n"
	"verified are not downloaded again, damaged ones are. A download\n"
	"goes to DIR/.cuenv-mirror/tmp and is renamed into place once its\n"
	"sha256 matched; runs into one DIR take turns.\n";

static const char notes[] =
	"Downloads are retried and bounded as install's are\n"
	"(CUENV_FETCH_RETRIES, CUENV_FETCH_TIMEOUT, ...: see cuenv help install).\n";

enum {
	O_FOR,
	O_CUDNN,
	O_CUPTI,
	O_PLATFORM,
	O_COMPONENTS,
	O_RUNTIME,
	O_SOURCE,
	O_MIRROR,
	O_NOCACHE,
	O_VERIFY,
	O_QUIET
};

static const struct cmd_option opts[] = {
	[O_FOR] = { "for", .arg = "F==V", .flags = OPT_REPEAT,
		    .help = "the CUDA and cuDNN that framework F release V\n"
			    "was built with, as install --for picks them\n"
			    "(repeatable)" },
	[O_CUDNN] = CMD_VERSION_OPTION("cudnn", "remote cudnn",
				       "cuDNN V for each SPEC's CUDA major"),
	[O_CUPTI] = CMD_VERSION_OPTION("cupti", "remote cuda",
				       "also CUPTI from CUDA release V"),
	[O_PLATFORM] = { "platform", .arg = "LIST",
			 .words = "linux-x86_64 linux-sbsa linux-aarch64 "
				  "linux-ppc64le windows-x86_64",
			 .help = "comma-separated: linux-x86_64, linux-sbsa,\n"
				 "linux-aarch64, linux-ppc64le, windows-x86_64\n"
				 "(default: this machine's)" },
	[O_COMPONENTS] = { "components", .arg = "LIST",
			   .help = "comma-separated redist components" },
	[O_RUNTIME] = { "runtime-only", .flags = OPT_ALT,
			.help = "only the archives of the runtime libraries (the\n"
				"nodes then install with --runtime-only)" },
	/* OPT_TEXT: the body says what to do for pypi */
	[O_SOURCE] = { "source", .arg = "S", .words = "redist runfile",
		       .help = "redist (default from 11.4) or runfile" },
	[O_MIRROR] = { "mirror", .arg = "URL",
		       .help = "fetch from URL in NVIDIA's place (https://,\n"
			       "http://, file://); also CUENV_MIRROR" },
	[O_NOCACHE] = { "no-cache",
			.help = "do not copy archives from $CUENV_ROOT/cache" },
	[O_VERIFY] = { "verify",
		       .help = "hash every file in DIR again, even those\n"
			       "verified before" },
	[O_QUIET] = { "quiet", .help = "errors only" },
};

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
	rc = plan_opts_check(cmd_mirror.name, q->io, err);
	if (!rc)
		rc = mirror_platforms_check(&q->plats, err);
	if (rc)
		return rc;
	if (mo->upstream && *mo->upstream)
		rc = install_request_mirror_url(cmd_mirror.name, mo->upstream,
						&mo->fetch, err);
	if (rc)
		return rc;
	if (mo->upstream && !*mo->upstream)
		mo->upstream = NULL;
	for (int i = 0; i < q->nspecs; i++)
		if ((rc = version_check("cuda", q->specs[i], 0, err)))
			return rc;
	if ((q->cudnn && (rc = version_check("cudnn", q->cudnn, 0, err))) ||
	    (q->cupti && (rc = version_check("cupti", q->cupti, 0, err))))
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

		rc = manifests_catalog_env(ctx->envp, ctx->root, ctx->exe,
					   q->plats.v[p], &cat, err);
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
	rc = plan_opts_parse(cmd_mirror.name, ctx->opt.arg[O_COMPONENTS],
			     cmd_opt_given(&ctx->opt, O_RUNTIME), &comps, &io,
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
	no_cache = cmd_opt_given(&ctx->opt, O_NOCACHE);
	mo.verify = cmd_opt_given(&ctx->opt, O_VERIFY);
	show.quiet = q.quiet = cmd_opt_given(&ctx->opt, O_QUIET);
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

CUENV_CMD(mirror, "mirror", 1, -1,
	  "download what installs need into a folder, for air-gapped nodes",
	  .notes = notes, CMD_OPTIONS(opts), .flags = CMD_EXTERNAL,
	  .run = CMD_NET_RUN(run));
