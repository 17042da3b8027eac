#include "cmd.h"

static const char usage[] =
	"usage: cuenv global [SPEC] " CMD_SYN_OPTS "\n"
	"       cuenv global --unset\n"
	"\n"
	"Set the default selection, used where no `cuenv use` and no .cuenv\n"
	"decide ($CUENV_ROOT/version, same format as .cuenv), or with no\n"
	"argument show it. Options as for `cuenv local`.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_selection_file(ctx, &cmd_global, 1, argc, argv, err);
}

CUENV_CMD(global, "global", 0, 1, "set or show the default selection",
	  CMD_OPTIONS(cmd_selection_opts), .flags = CMD_NEEDS_STORE,
	  .run = run);
