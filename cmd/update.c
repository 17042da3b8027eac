#include <stdio.h>

#include "../core/catalog.h"
#include "../core/fetch.h"
#include "../core/install_request.h"
#include "../core/update.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv update " CMD_SYN_OPTS "\n"
	"       cuenv update --frameworks " CMD_SYN_OPTS "\n"
	"\n"
	"Refresh the catalogue: read the listings of NVIDIA's redist folders\n"
	"(compute/cuda/redist/ and compute/cudnn/redist/, or the same paths\n"
	"under a mirror), fetch every redistrib_<version>.json the catalogue\n"
	"lacks, check it (and its sha256, where the shipped pin list knows\n"
	"it), and keep it in $CUENV_ROOT/manifests, where list-remote and\n"
	"install find it. Manifests already known are not fetched again.\n";

enum { O_MIRROR, O_FRAMEWORKS, O_INDEX };

static const struct cmd_option opts[] = {
	[O_MIRROR] = { "mirror", .arg = "URL",
		       .help = "NVIDIA's paths under URL (also CUENV_MIRROR)" },
	[O_FRAMEWORKS] = { "frameworks", .forms = CMD_NAMED,
			   .help = "instead, refresh the framework table that\n"
				   "`install --for` falls back on offline: for\n"
				   "each minor release of torch and tensorflow\n"
				   "on the package index, its newest wheel's\n"
				   "metadata, read by range requests as `cuenv\n"
				   "needs NAME==VERSION` reads it, into\n"
				   "$CUENV_ROOT/manifests/compat/frameworks.tsv" },
	[O_INDEX] = { "index", .forms = CMD_FORM(2), .arg = "URL",
		      .help = "the package index (also CUENV_PYPI_INDEX)" },
};

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* The framework table, from the package index. */
static int frameworks(const struct cuenv_ctx *ctx, const char *index,
		      struct cuenv_err *err)
{
	struct update_table t;
	struct buf line = BUF_INIT;
	int rc;

	update_table_init(&t);
	rc = update_frameworks(ctx->root, index, &t, err);
	for (size_t i = 0; i < t.skipped.n; i++)
		cmd_warn("skipped %s", t.skipped.v[i]);
	if (!rc)
		update_table_render(&t, index, &line);
	fputs(line.data, stdout);
	update_table_release(&t);
	buf_release(&line);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = { 0 };
	const char *mirror = env_get(ctx->envp, "CUENV_MIRROR");
	struct buf base = BUF_INIT, pins = BUF_INIT, dir = BUF_INIT,
		   said = BUF_INIT;
	const char *index = env_get(ctx->envp, "CUENV_PYPI_INDEX");
	int rc = CUENV_OK, has_pins;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (ctx->opt.arg[O_MIRROR])
		mirror = ctx->opt.arg[O_MIRROR];
	if (ctx->opt.arg[O_INDEX])
		index = ctx->opt.arg[O_INDEX];
	if (cmd_opt_given(&ctx->opt, O_FRAMEWORKS)) {
		rc = store_open(&ctx->store, ctx->root, true, err);
		if (!rc)
			rc = store_lock(&ctx->store, err);
		fetch_global_init();
		if (!rc)
			rc = frameworks(ctx, install_request_index(index), err);
		return rc;
	}
	rc = update_base(mirror, &fo, &base, err);
	if (rc)
		goto out;
	rc = store_open(&ctx->store, ctx->root, true, err);
	cmd_store_waiting(&ctx->store, "update");
	if (!rc)
		rc = store_lock(&ctx->store, err);
	if (!rc)
		rc = cmd_catalog(ctx, &cat, err);
	fetch_global_init();
	has_pins = update_read_pins(env_get(ctx->envp, "CUENV_MANIFESTS"),
				    cmd_data_dir(ctx, &dir) ? NULL : dir.data,
				    &pins);
	if (!rc)
		rc = update_all(ctx->root, base.data, &fo, &cat,
				has_pins ? pins.data : NULL, &said, err);
	fputs(said.data, stdout);
out:
	catalog_release(&cat);
	buf_release(&base);
	buf_release(&pins);
	buf_release(&dir);
	buf_release(&said);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(update, "update", 0, 0,
	  "refresh the catalogue from NVIDIA's index (or a mirror)",
	  CMD_OPTIONS(opts), .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
