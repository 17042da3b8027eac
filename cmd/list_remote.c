#include <stdlib.h>

#include "../core/listing.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv list-remote [cuda|cudnn] [PREFIX] " CMD_SYN_OPTS "\n"
	"\n"
	"List what can be installed: CUDA releases with their source (NVIDIA's\n"
	"redist archives, or a runfile installer for releases before 11.4), and\n"
	"the cuDNN builds for each CUDA major. PREFIX narrows to matching\n"
	"versions (12, 12.4). Without --all, only the newest patch of each\n"
	"minor release is shown. Also: cuenv install --list.\n";

enum { O_ALL, O_JSON };

static const struct cmd_option opts[] = {
	[O_ALL] = { "all",
		    .help = "every release, not only the newest of each minor" },
	[O_JSON] = { "json",
		     .help = "an array of {kind, version, cuda_major, source}" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct catalog cat = { 0 };
	const struct release **v = NULL;
	struct buf out = BUF_INIT;
	size_t n = 0;
	const char *prefix;
	int which;
	int rc = listing_words(argc - optind, argv + optind, &which, &prefix,
			       err);

	if (!rc)
		rc = cmd_catalog(ctx, &cat, err);
	if (rc)
		goto out;
	listing_select(&cat, which, prefix, cmd_opt_given(&ctx->opt, O_ALL), &v,
		       &n);
	listing_render(v, n, cmd_opt_given(&ctx->opt, O_JSON), &out);
	fputs(out.data, stdout);
out:
	free(v);
	buf_release(&out);
	catalog_release(&cat);
	return rc;
}

CUENV_CMD(list_remote, "list-remote", 0, 2,
	  "list the versions that can be installed", CMD_OPTIONS(opts),
	  .run = run);
