#include <stdlib.h>

#include "nvidia/listing.h"
#include "cmd.h"
#include "cli/list_remote.h"

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
	listing_select(&cat, which, prefix, opt_given(&ctx->opt, O_ALL), &v,
		       &n);
	listing_render(v, n, opt_given(&ctx->opt, O_JSON), &out);
	fputs(out.data, stdout);
out:
	free(v);
	buf_release(&out);
	catalog_release(&cat);
	return rc;
}

CUENV_CMD(list_remote, 0, 2, .run = run);
