#include "cmd.h"

static const char usage[] =
    "usage: cuenv root\n"
    "\n"
    "Print cuenv's root: $CUENV_ROOT, or ~/.cuenv when it is not set. The\n"
    "versions cuenv installs live in its versions/ folder.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	(void)argc; /* main checked there are no arguments */
	(void)argv;
	(void)err;
	printf("%s\n", ctx->root);
	return CUENV_OK;
}

const struct cuenv_cmd cmd_root = {
    .name = "root",
    .summary = "print cuenv's root folder ($CUENV_ROOT)",
    .usage = usage,
    .min_args = 0,
    .max_args = 0,
    .run = run,
};
