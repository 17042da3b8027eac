/*
 * modules.c: `cuenv modules`, the modulefiles of every installed CUDA and
 * cuDNN (their text: core/modulefile.c).
 */
#include <stdio.h>
#include <string.h>

#include "../core/file.h"
#include "../core/modulefile.h"
#include "cmd.h"
#include "cli/modules.h"

/*
 * Write the modules of list into dir/kind (a cuDNN's only where a CUDA
 * of its major is installed), each replaced atomically, and print each
 * path written.
 */
static int write_kind(int tcl, const char *dir, const char *kind,
		      const struct install_list *list,
		      const struct install_list *cudas, struct cuenv_err *err)
{
	struct buf sub = BUF_INIT, path = BUF_INIT, data = BUF_INIT,
		   name = BUF_INIT;
	int rc = CUENV_OK;

	buf_path(&sub, dir, kind);
	for (size_t i = 0; i < list->n && !rc; i++) {
		const struct install *in = list->v[i];

		buf_reset(&name);
		buf_reset(&data);
		if (modulefile_for(tcl, in, cudas, &name, &data)) {
			cmd_warn("no module for cudnn %s: no CUDA %u "
				 "installed for it to depend on",
				 in->name, in->cuda_major);
			continue;
		}
		rc = store_mkdir_p(sub.data, err);
		if (rc)
			break;
		buf_reset(&path);
		buf_printf(&path, "%s/%s", sub.data, name.data);
		rc = file_write(path.data, data.data, data.len, 0644, err);
		if (!rc)
			printf("%s\n", path.data);
	}
	buf_release(&name);
	buf_release(&sub);
	buf_release(&path);
	buf_release(&data);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *format = "lua";
	struct install_list cudas = { 0 }, cudnns = { 0 };
	struct buf dir = BUF_INIT;
	struct store st;
	int tcl = 0;
	int rc = CUENV_OK;

	if (ctx->opt.arg[O_FORMAT])
		format = ctx->opt.arg[O_FORMAT];
	if (!strcmp(format, "tcl")) {
		tcl = 1;
	} else if (strcmp(format, "lua")) {
		cuenv_fail(err, CUENV_E_USAGE, "modules: unknown format '%s'",
			   format);
		return cuenv_hint(err, "formats: lua (Lmod), tcl "
				       "(Environment Modules)");
	}
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
		rc = write_kind(tcl, dir.data, "cuda", &cudas, &cudas, err);
	if (!rc)
		rc = write_kind(tcl, dir.data, "cudnn", &cudnns, &cudas, err);
	install_list_release(&cudas);
	install_list_release(&cudnns);
	buf_release(&dir);
	return rc;
}

CUENV_CMD(modules, 0, 1, .run = run);
