#include <stdio.h>

#include <jansson.h>

#include "../core/versions_report.h"
#include "cmd.h"
#include "cli/versions.h"

/* --bare: the CUDA versions, one a line, as `cuenv use` takes them. */
static int bare(const struct cuenv_ctx *ctx, int json, struct cuenv_err *err)
{
	struct activation a;
	int rc;

	if (json) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "versions: --bare and --json do not go together");
		return cuenv_hint(err, "see: cuenv versions --help");
	}
	activation_init(&a);
	rc = activation_list(ctx->root,
			     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"), &a, err);
	for (size_t i = 0; !rc && i < a.cudas.n; i++)
		printf("%s\n", a.cudas.v[i]->version);
	activation_release(&a);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	int rc = CUENV_OK, json = opt_given(&ctx->opt, O_JSON);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (opt_given(&ctx->opt, O_BARE))
		return bare(ctx, json, err);
	activation_init(&a);
	/* A bad selection must not hide what is installed. */
	cmd_activation(ctx, NULL, 0, &a, &ignored);
	err_release(&ignored);
	if (!a.ok) {
		/* nothing active: list every root all the same */
		install_list_release(&a.cudas);
		install_list_release(&a.cudnns);
		install_list_release(&a.cuptis);
		strv_release(&a.warnings);
		rc = activation_list(ctx->root,
				     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
				     &a, err);
		for (size_t i = 0; i < a.warnings.n; i++)
			cmd_warn("%s", a.warnings.v[i]);
		if (rc)
			goto out;
	}
	if (json) {
		json_t *j = versions_json(&a);

		cmd_print_json(j);
		json_decref(j);
		goto out;
	}
	{
		struct buf text = BUF_INIT;

		versions_text(&text, &a, ctx->root);
		fwrite(text.data, 1, text.len, stdout);
		buf_release(&text);
	}
	if (!a.cudas.n && !a.cudnns.n && !a.cuptis.n)
		cmd_note("nothing installed yet: cuenv install VERSION, or "
			 "register a toolkit with cuenv add cuda PATH");
out:
	activation_release(&a);
	return rc;
}

CUENV_CMD(versions, 0, 0, .run = run);
