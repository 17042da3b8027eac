#include "../core/register.h"
#include "cmd.h"
#include "cli/uninstall.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_drop_install(ctx, &cmd_uninstall, argc, argv,
				register_uninstall, err);
}

CUENV_CMD(uninstall, 1, 2, .flags = CMD_NEEDS_STORE, .run = run);
