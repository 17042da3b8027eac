#include "cmd.h"

static const char usage[] =
	"usage: cuenv local [SPEC] " CMD_SYN_OPTS "\n"
	"       cuenv local --unset\n"
	"\n"
	"Write the project's selection to ./.cuenv (keeping its comments and\n"
	"other lines), or with no argument show it. The hook activates it in\n"
	"this folder and below. The versions must be installed unless\n"
	"--force. --unset removes cuenv's keys (and the file, when nothing\n"
	"else is left in it). A .cuenv that is a symbolic link is refused,\n"
	"never written or removed through.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	return cmd_selection_file(ctx, &cmd_local, 0, argc, argv, err);
}

CUENV_CMD(local, "local", 0, 1,
	  "set or show this project's selection (./.cuenv)",
	  CMD_OPTIONS(cmd_selection_opts), .run = run);
