#include <stdio.h>

#include "../core/lock.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv lock " CMD_SYN_OPTS "\n"
	"\n"
	"Resolve the nearest .cuenv's selection against the catalogue, as\n"
	"`cuenv install` with no SPEC would, and write .cuenv.lock beside it:\n"
	"every archive (component, version, platform, NVIDIA's url, sha256 and\n"
	"size). `cuenv install --locked` then installs exactly that.\n";

enum { O_CHECK, O_COMPONENTS, O_RUNTIME };

static const struct cmd_option opts[] = {
	[O_CHECK] = { "check",
		      .help = "write nothing; exit 1 with the reason when the\n"
			      "lock is missing or no longer matches the .cuenv\n"
			      "or the catalogue, 0 when it does" },
	[O_COMPONENTS] = { "components", .arg = "LIST",
			   .help = "lock these redist components (as install)" },
	[O_RUNTIME] = { "runtime-only", .flags = OPT_ALT,
			.help = "lock only the shared libraries (as install)" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct plan_opts o = { 0 };
	struct strv comps = STRV_INIT;
	struct selection sel;
	struct catalog cat = { 0 };
	struct lockfile have;
	struct buf path = BUF_INIT, said = BUF_INIT;
	int rc = CUENV_OK, check = cmd_opt_given(&ctx->opt, O_CHECK);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	selection_init(&sel);
	lock_init(&have);
	rc = cmd_plan_opts(&cmd_lock, ctx->opt.arg[O_COMPONENTS],
			   cmd_opt_given(&ctx->opt, O_RUNTIME), &comps, &o,
			   err);
	if (!rc)
		rc = cmd_plan_opts_check(&cmd_lock, &o, err);
	if (!rc)
		rc = lock_prepare(ctx->cwd, ctx->root, check, &sel, &path,
				  &have, &o, err);
	if (rc)
		goto out;
	rc = cmd_catalog(ctx, &cat, err);
	if (!rc)
		rc = lock_settle(&sel, &cat, &o, catalog_platform(), check,
				 path.data, &have, &said, err);
	else if (check) /* a lock the catalogue cannot check: no match */
		rc = CUENV_NO;
	fputs(said.data, stdout);
out:
	lock_release(&have);
	catalog_release(&cat);
	selection_release(&sel);
	strv_release(&comps);
	buf_release(&path);
	buf_release(&said);
	return rc;
}

CUENV_CMD(lock, "lock", 0, 0, "pin the .cuenv's components in .cuenv.lock",
	  CMD_OPTIONS(opts), .run = run);
