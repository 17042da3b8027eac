#include <unistd.h>

#include "../core/gc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv gc " CMD_SYN_OPTS "\n"
	"\n"
	"Free disk space: remove the extracted components ($CUENV_ROOT/pool)\n"
	"that no installed version uses any more (after cuenv uninstall), what\n"
	"installs and uninstalls that died left in $CUENV_ROOT/.staging, and\n"
	"partial downloads in $CUENV_ROOT/cache untouched for a day. Cached\n"
	"archives stay unless --cache is given: they let a version be\n"
	"installed again offline. Waits for running installs, and says what\n"
	"it freed.\n";

enum { O_CACHE };

static const struct cmd_option opts[] = {
	[O_CACHE] = { "cache",
		      .help = "also empty the download cache (archives and\n"
			      "partial downloads); cuenv install then\n"
			      "downloads them again" },
};

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

	o.cache = cmd_opt_given(&ctx->opt, O_CACHE);
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

CUENV_CMD(gc, "gc", 0, 0, "remove downloaded components no version uses",
	  CMD_OPTIONS(opts), .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
