#include <stdio.h>

#include "select/versions_report.h"
#include "cmd.h"
#include "cli/versions.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	int rc = CUENV_OK, json = opt_given(&ctx->opt, O_JSON),
	    bare = opt_given(&ctx->opt, O_BARE);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (bare && json) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "versions: --bare and --json do not go together");
		return cuenv_hint(err, "see: cuenv versions --help");
	}
	activation_init(&a);
	/* A bad selection must not hide what is installed. */
	if (!bare)
		cmd_activation(ctx, NULL, 0, &a, &ignored);
	err_release(&ignored);
	if (!a.ok) {
		/* nothing active (or --bare): list every root all the same */
		store_version_list_release(&a.cudas);
		store_version_list_release(&a.cudnns);
		store_version_list_release(&a.cuptis);
		strv_release(&a.warnings);
		rc = activation_list(ctx->root,
				     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
				     &a, err);
		for (size_t i = 0; !bare && i < a.warnings.n; i++)
			cmd_warn("%s", a.warnings.v[i]);
		if (rc)
			goto out;
	}
	versions_render(&out, &a, ctx->root,
			bare   ? VERSIONS_BARE
			: json ? VERSIONS_JSON
			       : VERSIONS_TEXT);
	fwrite(out.data, 1, out.len, stdout);
	if (!bare && !json && versions_none(&a))
		cmd_note("nothing installed yet: cuenv install VERSION, or "
			 "register a toolkit with cuenv add cuda PATH");
out:
	activation_release(&a);
	buf_release(&out);
	return rc;
}

CUENV_CMD(versions, 0, 0, .run = run);
