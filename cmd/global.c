#include "cmd.h"
#include "cli/global.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_selection_file(ctx, &cmd_global, 1, argc, argv, err);
}

CUENV_CMD(global, 0, 1, .flags = CMD_NEEDS_STORE, .run = run);
