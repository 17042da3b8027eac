#include <unistd.h>

#include "select/hook.h"
#include "cmd.h"
#include "cli/use.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct hook_use u = {
		.shell = ctx->shell,
		.nargs = argc - optind,
		.spec = optind < argc ? argv[optind] : NULL,
		.cudnn = ctx->opt.arg[O_CUDNN],
		.cupti = ctx->opt.arg[O_CUPTI],
		.isolate = opt_given(&ctx->opt, O_ISOLATE),
		.unset = opt_given(&ctx->opt, O_UNSET),
	};
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	enum shell sh;
	int rc;

	envmap_from(&before, ctx->envp);
	rc = hook_use_start(&u, &before, &sh, &start, err);
	if (!rc)
		rc = cmd_emit(ctx, &before, &start, sh, 0, err);
	envmap_release(&before);
	envmap_release(&start);
	return rc;
}

CUENV_CMD(use, 0 /* --unset */, 1, .flags = CMD_EMITS_SHELL, .run = run);
