#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/file.h"
#include "../core/lock.h"
#include "../core/select.h"
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
	struct lockfile want, have;
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct select_in in = { .cwd = ctx->cwd, .root = ctx->root };
	int rc = CUENV_OK, check = cmd_opt_given(&ctx->opt, O_CHECK);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	selection_init(&sel);
	lock_init(&want);
	lock_init(&have);
	rc = plan_opts_parse(cmd_lock.name, ctx->opt.arg[O_COMPONENTS],
			     cmd_opt_given(&ctx->opt, O_RUNTIME), &comps, &o,
			     err);
	if (!rc)
		rc = plan_opts_check(cmd_lock.name, &o, err);
	if (rc)
		goto out;
	/* The .cuenv only: a shell's `cuenv use` is not the project's. */
	rc = select_find(&in, &sel, err);
	if (rc)
		goto out;
	rc = lock_path_for(&sel, check, &path, err);
	if (!rc && check)
		rc = lock_read_for_check(path.data, &have, &o, err);
	if (rc)
		goto out;
	rc = cmd_catalog(ctx, &cat, err);
	if (!rc)
		rc = lock_build(&want, &cat, sel.cuda, sel.cudnn, sel.cupti, &o,
				catalog_platform(), err);
	if (rc) {
		if (check)
			rc = CUENV_NO;
		goto out;
	}
	if (check) {
		rc = lock_check(&have, &want, path.data, err);
		if (!rc)
			printf("%s matches %s\n", path.data, sel.origin_path);
		goto out;
	}
	lock_format(&want, &text);
	rc = file_write(path.data, text.data, text.len, FILE_MODE_KEEP, err);
	if (!rc)
		printf("wrote %s (%zu components)\n", path.data, want.nparts);
out:
	lock_release(&want);
	lock_release(&have);
	catalog_release(&cat);
	selection_release(&sel);
	strv_release(&comps);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

CUENV_CMD(lock, "lock", 0, 0, "pin the .cuenv's components in .cuenv.lock",
	  CMD_OPTIONS(opts), .run = run);
