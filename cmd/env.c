#include "select/envfmt.h"
#include "cmd.h"
#include "cli/env.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct envfmt f;
	struct env_changes ch = { 0 };
	struct activation a;
	struct buf out = BUF_INIT;
	struct strv warnings = STRV_INIT;
	int rc = CUENV_OK, isolate = opt_given(&ctx->opt, O_ISOLATE);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	rc = envfmt_parse(ctx->opt.arg[O_FORMAT] ? ctx->opt.arg[O_FORMAT]
						 : "sh",
			  &f, err);
	if (rc)
		return rc;
	activation_init(&a);
	rc = cmd_activation(ctx, NULL, isolate, &a, err);
	for (size_t i = 0; !rc && i < a.notes.n; i++)
		cmd_note("%s", a.notes.v[i]);
	if (!rc && !a.ok) {
		rc = cuenv_fail(err, CUENV_NO, "nothing selected here");
		cuenv_hint(err, "select one: cuenv local VERSION, or cuenv "
				"global VERSION");
	}
	if (rc)
		goto out;
	/* Relative to the environment without cuenv: the full set. */
	env_diff(&a.base, &a.after, &ch);
	rc = envfmt_write(&f, &ch, &out, &warnings, err);
	for (size_t i = 0; i < warnings.n; i++)
		cmd_warn("%s", warnings.v[i]);
	if (!rc)
		fwrite(out.data, 1, out.len, stdout);
out:
	env_changes_release(&ch);
	activation_release(&a);
	strv_release(&warnings);
	buf_release(&out);
	return rc;
}

CUENV_CMD(env, 0, 0, .flags = CMD_EMITS_SHELL, .run = run);
