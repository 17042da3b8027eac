#include <unistd.h>

#include "../core/register.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv uninstall [cuda|cudnn] SPEC\n"
	"\n"
	"Delete a version cuenv installed: it leaves the store at once and\n"
	"its files are removed. SPEC is a version or a prefix naming one\n"
	"version. Versions registered with `cuenv add` are never deleted:\n"
	"unregister them with `cuenv remove`.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 };
	struct buf out = BUF_INIT;
	const struct install *in;
	int rc;

	rc = select_install(&ctx->store, cmd_uninstall.name, argc - optind,
			    argv + optind, &list, &in, err);
	if (!rc)
		rc = register_uninstall(&ctx->store, in, &out, err);
	fputs(out.data, stdout);
	install_list_release(&list);
	buf_release(&out);
	return rc;
}

CUENV_CMD(uninstall, "uninstall", 1, 2, "delete a version cuenv installed",
	  .flags = CMD_NEEDS_STORE, .run = run);
