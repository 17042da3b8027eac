#include "cmd.h"
#include "cli/root.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	(void)argc; /* main checked there are no arguments */
	(void)argv;
	(void)err;
	printf("%s\n", ctx->root);
	return CUENV_OK;
}

CUENV_CMD(root, 0, 0, .run = run);
