#include <unistd.h>

#include "../core/register.h"
#include "cmd.h"
#include "cli/uninstall.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 };
	struct buf out = BUF_INIT;
	const struct install *in;
	int rc;

	rc = select_install(&ctx->store, cmd_uninstall.cli.name, argc - optind,
			    argv + optind, &list, &in, err);
	if (!rc)
		rc = register_uninstall(&ctx->store, in, &out, err);
	fputs(out.data, stdout);
	install_list_release(&list);
	buf_release(&out);
	return rc;
}

CUENV_CMD(uninstall, 1, 2, .flags = CMD_NEEDS_STORE, .run = run);
