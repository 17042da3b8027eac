/*
 * modules.c: `cuenv modules`, the modulefiles of every installed CUDA and
 * cuDNN (their text and files: core/select/modulefile.c).
 */
#include <stdio.h>

#include "select/modulefile.h"
#include "plat/plat_path.h"
#include "cmd.h"
#include "cli/modules.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct store_version_list cudas = { 0 }, cudnns = { 0 };
	struct strv written = STRV_INIT, skipped = STRV_INIT;
	struct buf dir = BUF_INIT;
	struct store st;
	int tcl = 0;
	int rc = modulefile_format(ctx->opt.arg[O_FORMAT]
					   ? ctx->opt.arg[O_FORMAT]
					   : "lua",
				   &tcl, err);

	if (rc)
		return rc;
	if (optind < argc)
		buf_sets(&dir, argv[optind]);
	else
		buf_path(&dir, ctx->root, "modules");

	rc = store_open(&st, ctx->root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &cudnns, err);
	for (size_t i = 0; i < st.warnings.n; i++)
		cmd_warn("skipped an incomplete version: %s", st.warnings.v[i]);
	store_release(&st);
	if (!rc && !cudas.n && !cudnns.n)
		cmd_note("nothing installed yet: no modules written");
	if (!rc)
		rc = modulefile_write_all(tcl, dir.data, &cudas, &cudnns,
					  &written, &skipped, err);
	for (size_t i = 0; i < skipped.n; i++)
		cmd_warn("%s", skipped.v[i]);
	for (size_t i = 0; i < written.n; i++)
		printf("%s\n", written.v[i]);
	store_version_list_release(&cudas);
	store_version_list_release(&cudnns);
	STRV_RELEASE_EACH(&written, &skipped);
	buf_release(&dir);
	return rc;
}

CUENV_CMD(modules, 0, 1, .run = run);
