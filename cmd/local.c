#include "cmd.h"
#include "cli/local.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_selection_file(ctx, &cmd_local, 0, argc, argv, err);
}

CUENV_CMD(local, 0, 1, .run = run);
