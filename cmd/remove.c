#include "store/register.h"
#include "cmd.h"
#include "cli/remove.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_drop_install(ctx, &cmd_remove, argc, argv, register_remove,
				err);
}

CUENV_CMD(remove, 1, 2, .flags = CMD_NEEDS_STORE, .run = run);
