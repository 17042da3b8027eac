#include <stdio.h>

#include "install/install_request.h"
#include "install/lockfile.h"
#include "cmd.h"
#include "cli/lock.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct plan_opts o = { 0 };
	struct strv comps = STRV_INIT;
	struct selection sel;
	struct catalog cat = { 0 };
	struct lockfile have;
	struct buf path = BUF_INIT, said = BUF_INIT;
	struct lock_from from = {
		.root = ctx->root,
		.source = -1,
		.index = install_request_index(
			env_get(ctx->envp, "CUENV_PYPI_INDEX")),
	};
	enum source_kind sk;
	int rc = CUENV_OK, check = opt_given(&ctx->opt, O_CHECK);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	selection_init(&sel);
	lock_init(&have);
	rc = plan_opts_parse(cmd_lock.cli.name, ctx->opt.arg[O_COMPONENTS],
			     opt_given(&ctx->opt, O_RUNTIME_ONLY), &comps, &o,
			     err);
	if (!rc)
		rc = plan_opts_check(cmd_lock.cli.name, &o, err);
	/* --source as install takes it (main checked its word) */
	if (!rc && ctx->opt.arg[O_SOURCE] &&
	    !source_parse(ctx->opt.arg[O_SOURCE], &sk))
		from.source = (int)sk;
	else if (!rc)
		rc = install_request_source(ctx->envp, ctx->cwd, &from.source,
					    err);
	if (!rc)
		rc = lock_prepare(ctx->cwd, ctx->root, check, &sel, &path,
				  &have, &o, err);
	if (rc)
		goto out;
	rc = cmd_catalog(ctx, &cat, err);
	if (!rc)
		rc = lock_settle(&sel, &cat, &o, catalog_platform_of(&cat),
				 &from, check, path.data, &have, &said, err);
	else if (check) /* a lock the catalogue cannot check: no match */
		rc = CUENV_NO;
	fputs(said.data, stdout);
out:
	lock_release(&have);
	catalog_release(&cat);
	selection_release(&sel);
	strv_release(&comps);
	BUF_RELEASE_EACH(&path, &said);
	return rc;
}

CUENV_CMD(lock, 0, 0, .run = run);
