#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../core/buf.h"
#include "cmd.h"
#include "cli/completion.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *name, *text;

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
	if (optind == argc) {
		cuenv_fail(err, CUENV_E_USAGE, "completion: missing argument");
		return cuenv_hint(err, "name the shell: cuenv completion "
				       "bash|zsh|fish");
	}
	name = argv[optind];
	if (!strcmp(name, "bash"))
		text = embedded_completion_bash;
	else if (!strcmp(name, "zsh"))
		text = embedded_completion_zsh;
	else if (!strcmp(name, "fish"))
		text = embedded_completion_fish;
	else {
		cuenv_fail(err, CUENV_E_USAGE, "completion: unknown shell '%s'",
			   name);
		return cuenv_hint(err, "shells: bash, zsh, fish");
	}
	fputs(text, stdout);
	return CUENV_OK;
}

CUENV_CMD(completion, 0 /* --options */, 1, .run = run);
