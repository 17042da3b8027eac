#include <stdio.h>
#include <string.h>

#include "../core/catalog.h"
#include "../core/fetch.h"
#include "../core/file.h"
#include "../core/install_request.h"
#include "../core/manifests.h"
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

/*
 * The pin list of NVIDIA's own manifest files (redistrib-json-sha256.tsv)
 * into pins, when there is one: from the catalogue in use, so
 * CUENV_MANIFESTS's own list when it is set.
 */
static int read_pins(const struct cuenv_ctx *ctx, struct buf *pins)
{
	struct buf path = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	const char *only = env_get(ctx->envp, "CUENV_MANIFESTS");
	int found = 0;

	if (only && *only)
		buf_adds(&path, only);
	if (path.len || !manifests_data_dir(ctx->exe, &path)) {
		buf_adds(&path, "/redistrib-json-sha256.tsv");
		found = !file_read(path.data, 1 << 20, FILE_MAY_BE_MISSING,
				   pins, &e);
	}
	err_release(&e);
	buf_release(&path);
	return found;
}

/* The new manifests of kind from base, each said as it is added. */
static int update_kind(const struct cuenv_ctx *ctx, const char *base,
		       const struct fetch_opts *fo, enum kit_kind kind,
		       const struct catalog *known, const char *pins,
		       unsigned *added, struct cuenv_err *err)
{
	struct strv got = STRV_INIT;
	int rc = update_redist(ctx->root, base, fo, kind, known, pins, &got,
			       err);

	for (size_t i = 0; i < got.n; i++)
		printf("added %s %s\n", kit_kind_name(kind), got.v[i]);
	*added += (unsigned)got.n;
	strv_release(&got);
	return rc;
}

/* The framework table, from the package index. */
static int frameworks(const struct cuenv_ctx *ctx, const char *index,
		      struct cuenv_err *err)
{
	struct update_table t;
	int rc;

	update_table_init(&t);
	rc = update_frameworks(ctx->root, index, &t, err);
	for (size_t i = 0; i < t.skipped.n; i++)
		cmd_warn("skipped %s", t.skipped.v[i]);
	if (!rc)
		printf("%u framework releases read from %s (%llu bytes of "
		       "their wheels) into %s\n",
		       t.rows, index, (unsigned long long)t.bytes, t.path.data);
	update_table_release(&t);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = { 0 };
	const char *mirror = env_get(ctx->envp, "CUENV_MIRROR");
	struct buf base = BUF_INIT, pins = BUF_INIT;
	const char *index = env_get(ctx->envp, "CUENV_PYPI_INDEX");
	unsigned added = 0;
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
			rc = frameworks(ctx,
					index && *index
						? index
						: "https://pypi.org/simple",
					err);
		return rc;
	}
	if (mirror && *mirror) {
		rc = install_request_mirror_url(cmd_update.name, mirror, &fo,
						err);
		if (rc)
			return rc;
		buf_adds(&base, mirror);
		while (base.len && base.data[base.len - 1] == '/')
			buf_setlen(&base, base.len - 1);
	} else {
		buf_adds(&base, NVIDIA_BASE);
	}
	rc = store_open(&ctx->store, ctx->root, true, err);
	cmd_store_waiting(&ctx->store, "update");
	if (!rc)
		rc = store_lock(&ctx->store, err);
	if (!rc)
		rc = cmd_catalog(ctx, &cat, err);
	fetch_global_init();
	has_pins = read_pins(ctx, &pins);
	for (int k = KIT_CUDA; !rc && k <= KIT_CUDNN; k++)
		rc = update_kind(ctx, base.data, &fo, (enum kit_kind)k, &cat,
				 has_pins ? pins.data : NULL, &added, err);
	if (!rc && added)
		printf("%u new manifest%s\n", added, added == 1 ? "" : "s");
	else if (!rc)
		printf("the catalogue is up to date\n");
	catalog_release(&cat);
	buf_release(&base);
	buf_release(&pins);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(update, "update", 0, 0,
	  "refresh the catalogue from NVIDIA's index (or a mirror)",
	  CMD_OPTIONS(opts), .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
