#include <unistd.h>

#include "../core/gc.h"
#include "cmd.h"
#include "cli/gc.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* Partial downloads older than this go without --cache. */
#define PART_AGE (24 * 3600)

static double mb(uint64_t bytes)
{
	return (double)bytes / 1e6;
}

static void print_report(const struct gc_report *r, int cache)
{
	printf("removed %llu unused component%s (%.1f MB)\n",
	       (unsigned long long)r->trees, r->trees == 1 ? "" : "s",
	       mb(r->tree_bytes));
	if (r->leftovers)
		printf("removed %llu folder%s left by interrupted installs or "
		       "uninstalls (%.1f MB)\n",
		       (unsigned long long)r->leftovers,
		       r->leftovers == 1 ? "" : "s", mb(r->leftover_bytes));
	if (cache)
		printf("removed %llu cached archive%s (%.1f MB)\n",
		       (unsigned long long)r->archives,
		       r->archives == 1 ? "" : "s", mb(r->archive_bytes));
	if (r->parts)
		printf("removed %llu partial download%s (%.1f MB)\n",
		       (unsigned long long)r->parts, r->parts == 1 ? "" : "s",
		       mb(r->part_bytes));
	if (r->busy)
		printf("kept %llu cached file%s a running install is using\n",
		       (unsigned long long)r->busy, r->busy == 1 ? "" : "s");
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct gc_opts o = { .part_age = PART_AGE };
	struct gc_report r;
	int rc;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	o.cache = opt_given(&ctx->opt, O_CACHE);
	rc = store_open(&ctx->store, ctx->root, true, err);
	cmd_store_waiting(&ctx->store, "gc");
	if (!rc)
		rc = store_lock(&ctx->store, err); /* waits for installs */
	if (rc)
		return rc;
	rc = gc_run(&ctx->store, &o, &r, err);
	/* Also when a removal failed: what the others freed is said. */
	print_report(&r, o.cache);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(gc, 0, 0, .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
