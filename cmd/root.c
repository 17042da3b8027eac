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

CUENV_CMD(root, "root", 0, 0, "print cuenv's root folder ($CUENV_ROOT)",
	  .run = run);
