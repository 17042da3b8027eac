#include <stdio.h>
#include <unistd.h>

#include "base/buf.h"
#include "cmd.h"
#include "cli/completion.h"

static const struct shell_completions scripts = {
	.bash = embedded_completion_bash,
	.zsh = embedded_completion_zsh,
	.fish = embedded_completion_fish,
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *text;
	int rc;

	if (ctx->opt.arg[O_OPTIONS]) {
		const struct cuenv_cmd *cmd = cmd_find(ctx->opt.arg[O_OPTIONS]);
		struct buf out = BUF_INIT;

		if (!cmd || optind < argc) {
			cuenv_fail(err, CUENV_E_USAGE,
				   "completion: --options takes one command");
			return cuenv_hint(err, "see: cuenv help");
		}
		opts_complete(&cmd->cli, &out);
		fputs(out.data, stdout);
		buf_release(&out);
		return CUENV_OK;
	}
	rc = shell_completion_script(&scripts,
				     optind < argc ? argv[optind] : NULL, &text,
				     err);
	if (rc)
		return rc;
	fputs(text, stdout);
	return CUENV_OK;
}

CUENV_CMD(completion, 0 /* --options */, 1, .run = run);
