#include <unistd.h>

#include "install/gc.h"
#include "cmd.h"
#include "cli/gc.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct gc_opts o = { .part_age = GC_PART_AGE_DEFAULT };
	struct gc_report r;
	struct buf out = BUF_INIT;
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
	gc_render(&r, o.cache, &out);
	fputs(out.data, stdout);
	buf_release(&out);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(gc, 0, 0, .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
