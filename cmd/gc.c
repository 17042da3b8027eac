#include <unistd.h>

#include "../core/install.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv gc\n"
	"\n"
	"Remove the extracted components ($CUENV_ROOT/pool) that no installed\n"
	"version uses any more (after cuenv uninstall), and what installs that\n"
	"died left in $CUENV_ROOT/.staging. The download cache stays: it lets a\n"
	"version be installed again offline. Waits for running installs.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	uint64_t trees, bytes;
	int rc;

	if (getopt(argc, argv, "") != -1)
		return cmd_bad_usage(&cmd_gc, err);
	rc = cmd_check_args(&cmd_gc, argc - optind, err);
	if (!rc)
		rc = store_open(&ctx->store, ctx->root, true, err);
	cmd_store_waiting(&ctx->store, "gc");
	if (!rc)
		rc = install_gc(&ctx->store, &trees, &bytes, err);
	if (!rc)
		printf("removed %llu unused component%s (%.1f MB)\n",
		       (unsigned long long)trees, trees == 1 ? "" : "s",
		       (double)bytes / 1e6);
	return rc;
}

const struct cuenv_cmd cmd_gc = {
	.name = "gc",
	.summary = "remove downloaded components no version uses",
	.usage = usage,
	.min_args = 0,
	.max_args = 0,
	.run = run,
};
