#include <stdio.h>

#include "nvidia/catalog.h"
#include "net/fetch.h"
#include "install/install_request.h"
#include "install/update.h"
#include "nvidia/manifests.h"
#include "cmd.h"
#include "cli/update.h"

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* The framework table, from the package index. */
static int frameworks(const struct cuenv_ctx *ctx, const char *index,
		      const struct fetch_opts *fo, struct cuenv_err *err)
{
	struct update_table t;
	struct buf line = BUF_INIT;
	int rc;

	update_table_init(&t);
	rc = update_frameworks(ctx->root, index, fo, &t, err);
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
	struct fetch_opts fo;
	struct catalog cat = { 0 };
	const char *mirror = env_get(ctx->envp, "CUENV_MIRROR");
	struct buf base = BUF_INIT, pins = BUF_INIT, dir = BUF_INIT,
		   said = BUF_INIT;
	const char *index = env_get(ctx->envp, "CUENV_PYPI_INDEX");
	int rc = CUENV_OK, has_pins;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	rc = cmd_fetch_env(ctx, &fo, err);
	if (rc)
		return rc;
	if (ctx->opt.arg[O_MIRROR])
		mirror = ctx->opt.arg[O_MIRROR];
	if (ctx->opt.arg[O_INDEX])
		index = ctx->opt.arg[O_INDEX];
	if (opt_given(&ctx->opt, O_FRAMEWORKS)) {
		rc = store_open(&ctx->store, ctx->root, true, err);
		if (!rc)
			rc = store_lock(&ctx->store, err);
		fetch_global_init();
		if (!rc)
			rc = frameworks(ctx, install_request_index(index), &fo,
					err);
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
	has_pins =
		update_read_pins(env_get(ctx->envp, "CUENV_MANIFESTS"),
				 manifests_data_dir(ctx->exe, &dir) ? NULL
								    : dir.data,
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

CUENV_CMD(update, 0, 0, .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
