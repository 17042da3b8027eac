#include <unistd.h>

#include "../core/register.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv remove [cuda|cudnn] SPEC\n"
	"\n"
	"Unregister a version added with `cuenv add`. Its files are not\n"
	"touched. Removing a CUDA also unregisters the cuDNN that `add` found\n"
	"inside it. SPEC is a version or a prefix naming one version; for a\n"
	"version cuenv installed itself, use `cuenv uninstall`.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 };
	struct buf out = BUF_INIT;
	const struct install *in;
	int rc;

	rc = select_install(&ctx->store, cmd_remove.name, argc - optind,
			    argv + optind, &list, &in, err);
	if (!rc)
		rc = register_remove(&ctx->store, in, &out, err);
	fputs(out.data, stdout);
	install_list_release(&list);
	buf_release(&out);
	return rc;
}

CUENV_CMD(remove, "remove", 1, 2, "unregister a version added with cuenv add",
	  .flags = CMD_NEEDS_STORE, .run = run);
