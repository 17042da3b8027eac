#include <stdio.h>

#include "store/register.h"
#include "cmd.h"
#include "cli/add.h"

static void say(void *ctx, const char *text)
{
	(void)ctx;
	fputs(text, stdout);
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warn("%s", msg);
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const struct register_add ra = {
		.st = &ctx->store,
		.envp = ctx->envp,
		.said = say,
		.warn = warn,
	};
	enum kit_kind kind;
	int rc;

	if (opt_given(&ctx->opt, O_DISCOVER)) {
		if (argc > optind || ctx->opt.arg[O_AS] || ctx->opt.num[O_CUDA])
			return cuenv_fail(err, CUENV_E_USAGE,
					  "add: --discover takes no PATH, --as "
					  "or --cuda");
		return register_discover(&ra, err);
	}
	if (argc - optind != 2) {
		cuenv_fail(err, CUENV_E_USAGE, "add: %s",
			   argc - optind < 2 ? "missing argument"
					     : "too many arguments");
		return cuenv_hint(err, "see: cuenv add --help");
	}
	rc = register_add_kind(argv[optind], ctx->opt.arg[O_AS],
			       (unsigned)ctx->opt.num[O_CUDA], &kind, err);
	if (!rc)
		rc = register_add(&ra, kind, argv[optind + 1],
				  ctx->opt.arg[O_AS],
				  (unsigned)ctx->opt.num[O_CUDA], err);
	return rc;
}

CUENV_CMD(add, 0, 2, .flags = CMD_NEEDS_STORE, .run = run);
