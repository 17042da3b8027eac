#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/compat.h"
#include "select/env.h"
#include "install/gc.h"
#include "install/install.h"
#include "install/install_request.h"
#include "install/lockfile.h"
#include "nvidia/manifests.h"
#include "install/plan_index.h"
#include "install/progress.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "cmd.h"
#include "cli/install.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* ---- one release ----------------------------------------------------------- */

/* The install's messages (core/progress): to stderr. */
static void to_stderr(void *ctx, const char *text)
{
	(void)ctx;
	fputs(text, stderr);
}

/* One release; *installed counts it when it was not there before. */
static int install_one(struct cuenv_ctx *ctx, const struct release *rel,
		       struct install_opts *o, int quiet, int *installed,
		       struct cuenv_err *err)
{
	struct progress_show s;
	struct store_version done;
	struct buf line = BUF_INIT;
	int rc;

	progress_show_init(&s, rel, quiet, to_stderr, NULL);
	progress_show_attach(&s, o);
	rc = install_run(&ctx->store, rel, o, &done, err);
	if (rc == CUENV_OK)
		(*installed)++;
	/* s lives on this stack: leave no pointer to it behind */
	progress_show_detach(o);
	rc = progress_show_result(&s, rc, &done, o->mirror, &line, err);
	fputs(line.data, stdout);
	store_version_release(&done);
	progress_show_release(&s);
	buf_release(&line);
	return rc;
}

/* What the download cache keeps after an install, and how to free it. */
static void cache_note(const char *root)
{
	uint64_t bytes = gc_cache_bytes(root);
	struct buf size = BUF_INIT;

	if (bytes) {
		progress_size(&size, (double)bytes, PROGRESS_TB);
		cmd_note("the download cache keeps %s of archives for "
			 "later installs; to free it: cuenv gc --cache",
			 size.data);
	}
	buf_release(&size);
}

/* Each step's release in turn, with o narrowed as the step says. */
static int install_steps(struct cuenv_ctx *ctx, const struct plan_step *steps,
			 size_t n, const struct install_opts *o, int quiet,
			 struct cuenv_err *err)
{
	int rc = store_open(&ctx->store, ctx->root, true, err);
	int installed = 0;

	if (rc)
		return rc;
	cmd_store_waiting(&ctx->store, "install");
	fetch_global_init();
	for (size_t i = 0; i < n && !rc; i++) {
		struct install_opts so = *o;

		so.plan = steps[i].opts;
		so.keep_partial = steps[i].keep_partial;
		rc = install_one(ctx, &steps[i].rel, &so, quiet, &installed,
				 err);
	}
	if (!rc && installed && !quiet)
		cache_note(ctx->root);
	return rc;
}

/* --locked: the releases the nearest .cuenv.lock pins, checked against
 * the catalogue, through the normal install path. */
static int install_locked(struct cuenv_ctx *ctx, struct install_opts *o,
			  int quiet, struct cuenv_err *err)
{
	struct buf path = BUF_INIT;
	struct lockfile lk;
	struct catalog cat = { 0 };
	struct plan_step steps[KIT_KINDS];
	struct strv names[KIT_KINDS];
	size_t n = 0;
	int rc;

	lock_init(&lk);
	rc = cmd_catalog(ctx, &cat, err);
	if (!rc)
		rc = install_request_lock(ctx->cwd, catalog_platform_of(&cat),
					  &path, &lk, err);
	/* A lock comes with a clone: its wheels must be the index's in
	 * force (plain http only when that index is http, as any install
	 * allows), or a mirror's copies of them. */
	if (!rc)
		rc = lock_verify(&lk, &cat,
				 o->mirror && *o->mirror
					 ? NULL
					 : install_request_index(o->pypi_index),
				 err);
	/* A mirror keeps the wheels as pypi/packages/<file name> (cuenv
	 * mirror --source pypi). */
	for (size_t i = 0; !rc && i < lk.nparts; i++) {
		struct lock_part *lp = &lk.parts[i];

		if (lp->source != SRC_PYPI)
			continue;
		if (o->mirror && *o->mirror) {
			struct buf u = BUF_INIT;

			buf_adds(&u, o->mirror);
			while (u.len && u.data[u.len - 1] == '/')
				buf_setlen(&u, u.len - 1);
			buf_printf(&u, "/pypi/packages/%s",
				   strrchr(lp->url, '/') + 1);
			free(lp->url);
			lp->url = buf_detach(&u);
		}
	}
	if (!rc) {
		n = lock_steps(&lk, &o->plan, steps, names);
		rc = install_steps(ctx, steps, n, o, quiet, err);
	}
	lock_steps_release(steps, names, n);
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&path);
	return rc;
}

/* --list: list-remote's listing, with its words and options. */
static int list(struct cuenv_ctx *ctx, int argc, char **argv,
		struct cuenv_err *err)
{
	char **v = xcalloc((size_t)argc + 3, sizeof(*v));
	int n = 0, rc, help;

	v[n++] = (char *)"list-remote";
	for (int i = optind; i < argc; i++)
		v[n++] = argv[i];
	if (opt_given(&ctx->opt, O_ALL))
		v[n++] = (char *)"--all";
	if (opt_given(&ctx->opt, O_JSON))
		v[n++] = (char *)"--json";
	rc = opts_parse(&cmd_list_remote.cli, 0, n, v, &ctx->opt, &help, err);
	if (!rc)
		rc = cmd_list_remote.run(ctx, n, v, err);
	free(v);
	return rc;
}

/* What one `cuenv install` asks for, from its words and options. */
struct request {
	struct install_request r;
	int quiet;
	struct strv comps;
	struct selection sel;
	struct framework_builds fw;
	struct buf index; /* --mirror's pypi/simple, for --source pypi */
};

/* The options into o (over what the environment said) and q. */
static int read_options(struct cuenv_ctx *ctx, struct install_opts *o,
			struct request *q, struct cuenv_err *err)
{
	enum source_kind sk;
	int rc;

	q->r.cudnn = ctx->opt.arg[O_CUDNN];
	q->r.cupti = ctx->opt.arg[O_CUPTI];
	rc = plan_opts_parse(cmd_install.cli.name, ctx->opt.arg[O_COMPONENTS],
			     opt_given(&ctx->opt, O_RUNTIME_ONLY), &q->comps,
			     &o->plan, err);
	if (rc)
		return rc;
	if (ctx->opt.arg[O_SOURCE] &&
	    !source_parse(ctx->opt.arg[O_SOURCE], &sk))
		q->r.source = (int)sk;
	else if ((rc = install_request_source(ctx->envp, ctx->cwd, &q->r.source,
					      err)))
		return rc;
	if (ctx->opt.arg[O_MIRROR])
		o->mirror = ctx->opt.arg[O_MIRROR];
	if (ctx->opt.arg[O_INDEX]) {
		o->pypi_index = ctx->opt.arg[O_INDEX];
	} else if (ctx->opt.arg[O_MIRROR] && *ctx->opt.arg[O_MIRROR] &&
		   q->r.source == SRC_PYPI) {
		/* a cuenv mirror's wheels: its pypi/simple is an index */
		buf_adds(&q->index, ctx->opt.arg[O_MIRROR]);
		while (q->index.len && q->index.data[q->index.len - 1] == '/')
			buf_setlen(&q->index, q->index.len - 1);
		buf_adds(&q->index, "/pypi/simple");
		o->pypi_index = q->index.data;
	}
	/* the catalogue's platform (cmd_catalog) is the wheels' too */
	rc = manifests_platform(env_get(ctx->envp, "CUENV_PLATFORM"),
				&o->platform, err);
	if (rc)
		return rc;
	if (opt_given(&ctx->opt, O_JOBS))
		o->jobs = (unsigned)ctx->opt.num[O_JOBS];
	o->no_cache = opt_given(&ctx->opt, O_NO_CACHE);
	q->quiet = opt_given(&ctx->opt, O_QUIET);
	q->r.for_spec = ctx->opt.arg[O_FOR];
	q->r.locked = opt_given(&ctx->opt, O_LOCKED);
	if (opt_given(&ctx->opt, O_TIMEOUT))
		o->fetch.timeout_seconds = (unsigned)ctx->opt.num[O_TIMEOUT];
	if (opt_given(&ctx->opt, O_MAX_DOWNLOAD))
		o->fetch.max_bytes = ctx->opt.num[O_MAX_DOWNLOAD];
	if (opt_given(&ctx->opt, O_MAX_EXPANSION))
		o->expand_ratio = (unsigned)ctx->opt.num[O_MAX_EXPANSION];
	return CUENV_OK;
}

/* --for: the CUDA and cuDNN of the framework's build (the framework's
 * own wheel first; the shipped table offline); --cudnn still wins. */
static int for_request(const struct cuenv_ctx *ctx, struct request *q,
		       const struct install_opts *o, struct catalog *cat,
		       struct cuenv_err *err)
{
	struct buf said = BUF_INIT;
	int rc = CUENV_OK;

	/* The row is chosen by what the catalogue can install. */
	if (q->r.cudnn)
		rc = version_check("cudnn", q->r.cudnn, 0, err);
	if (!rc)
		rc = cmd_catalog(ctx, cat, err);
	if (!rc) {
		rc = plan_index_for(q->r.for_spec,
				    install_request_index(o->pypi_index),
				    &o->fetch, cat, &q->fw, &said);
		if (said.len && !q->quiet)
			cmd_note("%s", said.data);
		if (rc == CUENV_NO)
			rc = cmd_framework_pick(ctx, q->r.for_spec, cat,
						q->r.cudnn, q->r.source,
						q->quiet, &q->fw, err);
	}
	buf_release(&said);
	if (!rc)
		install_request_build(&q->r, &q->fw.v[0]);
	return rc;
}

/* The options into o and q, checked; not for --list. */
static int install_setup(struct cuenv_ctx *ctx, int argc, char **argv,
			 struct install_opts *o, struct request *q,
			 struct cuenv_err *err)
{
	int used = 0;
	int rc = install_request_list_only(opt_given(&ctx->opt, O_ALL),
					   opt_given(&ctx->opt, O_JSON), err);

	if (!rc)
		rc = read_options(ctx, o, q, err);
	if (!rc)
		rc = install_request_kind(&q->r, argc - optind, argv + optind,
					  &used, err);
	optind += used;
	if (!rc)
		rc = cmd_check_args(&cmd_install, argc - optind, err);
	if (!rc)
		rc = plan_opts_check(cmd_install.cli.name, &o->plan, err);
	if (!rc && o->mirror && *o->mirror &&
	    (rc = install_request_mirror_url(cmd_install.cli.name, o->mirror,
					     &o->fetch, err)))
		cuenv_hint(err, "for example: --mirror file:///srv/nvidia");
	if (!rc && install_request_index_http(o->pypi_index))
		o->fetch.allow_http = 1;
	return rc;
}

/*
 * What to install into q, by its mode: from --for (which loads cat),
 * the SPEC given, or the selection here; its versions checked. *locked
 * when it is what .cuenv.lock pins instead.
 */
static int request_spec(struct cuenv_ctx *ctx, int argc, char **argv,
			struct request *q, struct install_opts *o,
			struct catalog *cat, int *locked, struct cuenv_err *err)
{
	enum install_mode mode;
	int rc = install_request_mode(&q->r, argc - optind, &mode, err);

	if (rc)
		return rc;
	switch (mode) {
	case INSTALL_LOCKED:
		*locked = 1;
		return CUENV_OK;
	case INSTALL_FOR:
		rc = for_request(ctx, q, o, cat, err);
		break;
	case INSTALL_SPEC:
		q->r.spec = argv[optind];
		break;
	case INSTALL_SELECTED: /* what the nearest .cuenv or cuenv use asks */
		rc = install_request_select(&q->r, ctx->cwd, ctx->root,
					    ctx->envp, &q->sel, err);
		break;
	}
	if (!rc)
		rc = install_request_check(&q->r, err);
	if (!rc && mode != INSTALL_FOR) /* else loaded above */
		rc = cmd_catalog(ctx, cat, err);
	return rc;
}

/*
 * --dry-run from the package index: each step's wheels, resolved as the
 * install resolves them (install_resolve), and what the index lacks.
 */
static int dry_run_wheels(const struct plan_step *steps, size_t n,
			  const struct install_opts *o, struct cuenv_err *err)
{
	int rc = CUENV_OK;

	for (size_t i = 0; i < n && !rc; i++) {
		struct install_opts so = *o;
		struct install_parts ip = { 0 };
		struct strv names = STRV_INIT;
		struct buf lacking = BUF_INIT;

		so.plan = steps[i].opts;
		rc = plan_archives(&steps[i].rel, &so.plan, &names, err);
		if (!rc)
			rc = install_resolve(&steps[i].rel, &so, &names, &ip,
					     err);
		for (size_t k = 0; !rc && k < ip.n; k++)
			printf("  %s %s %s\n", ip.v[k]->name, ip.v[k]->version,
			       ip.v[k]->url);
		install_lacking(&steps[i].rel, &so.plan, &lacking);
		if (!rc && lacking.len)
			printf("  pypi has no %s\n", lacking.data);
		install_parts_release(&ip);
		strv_release(&names);
		buf_release(&lacking);
	}
	return rc;
}

/* The request resolved against the catalogue and its releases installed,
 * or with --dry-run named. */
static int resolve_and_install(struct cuenv_ctx *ctx, const struct request *q,
			       const struct catalog *cat,
			       struct install_opts *o, struct cuenv_err *err)
{
	struct catalog_choice found;
	struct plan_step steps[KIT_KINDS];
	struct buf line = BUF_INIT;
	int source = q->r.source;
	int rc = catalog_resolve(cat, q->r.spec, q->r.cudnn, q->r.cupti, source,
				 &found, err);
	size_t n;

	/* No source chosen: NVIDIA's, or the index when NVIDIA's host
	 * cannot be reached (said once). */
	if (!rc && source < 0 &&
	    install_falls_back(&found, o->mirror, o->platform, &o->fetch)) {
		if (!q->quiet)
			cmd_note("NVIDIA's host cannot be reached; installing "
				 "from the package index (--source pypi)");
		source = SRC_PYPI;
		rc = catalog_resolve(cat, q->r.spec, q->r.cudnn, q->r.cupti,
				     source, &found, err);
	}
	n = rc ? 0 : plan_steps(&found, source, &o->plan, steps);

	if (!rc && opt_given(&ctx->opt, O_DRY_RUN)) {
		install_request_dry_run(&found, source, &line);
		fputs(line.data, stdout);
		if (source == SRC_PYPI)
			rc = dry_run_wheels(steps, n, o, err);
	} else if (!rc) {
		rc = install_steps(ctx, steps, n, o, q->quiet, err);
	}
	buf_release(&line);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_env env = { .fetch = FETCH_OPTS_INIT,
				   .expand_ratio =
					   INSTALL_EXPAND_RATIO_DEFAULT };
	struct install_opts o = { 0 };
	struct request q = { .r.source = -1,
			     .comps = STRV_INIT,
			     .index = BUF_INIT };
	struct catalog cat = { 0 };
	int rc, locked = 0;

	selection_init(&q.sel);
	rc = install_request_env(ctx->envp, &env, err);
	o.mirror = env.mirror;
	o.pypi_index = env.pypi_index;
	o.fetch = env.fetch;
	o.expand_ratio = env.expand_ratio;
	if (rc)
		goto out;
	if (opt_given(&ctx->opt, O_LIST)) {
		rc = list(ctx, argc, argv, err);
		goto out;
	}
	rc = install_setup(ctx, argc, argv, &o, &q, err);
	if (!rc)
		rc = request_spec(ctx, argc, argv, &q, &o, &cat, &locked, err);
	if (!rc && locked)
		rc = install_locked(ctx, &o, q.quiet, err);
	else if (!rc)
		rc = resolve_and_install(ctx, &q, &cat, &o, err);
out:
	framework_builds_release(&q.fw);
	selection_release(&q.sel);
	strv_release(&q.comps);
	buf_release(&q.index);
	catalog_release(&cat);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(install, 0, 2 /* [cuda] SPEC, cudnn V */, .flags = CMD_EXTERNAL,
	  .run = CMD_NET_RUN(run));
