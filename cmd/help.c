#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cli/help.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	size_t width = 0;

	(void)ctx;
	if (optind < argc) {
		const struct cuenv_cmd *cmd = cmd_find(argv[optind]);
		if (!cmd) {
			const char *near = cmd_suggest(argv[optind]);
			struct buf shown = BUF_INIT;

			buf_add_display(&shown, argv[optind], 64);
			cuenv_fail(err, CUENV_E_USAGE,
				   "help: '%s' is not a cuenv command",
				   shown.data);
			buf_release(&shown);
			if (near)
				return cuenv_hint(err,
						  "did you mean: cuenv "
						  "help %s?",
						  near);
			return cuenv_hint(err, "see: cuenv help");
		}
		/* to stdout, for every command: `help` is never eval'd */
		cmd_print_help(cmd, stdout);
		return CUENV_OK;
	}
	printf("usage: cuenv COMMAND [ARGS]\n\n"
	       "Side-by-side CUDA, cuDNN and CUPTI versions, selected per "
	       "project, per shell\nor globally.\n\nCommands:\n");
	/* the summaries in one column, two spaces after the longest name */
	for (size_t i = 0; i < cuenv_ncmds; i++) {
		size_t n = strlen(cuenv_cmds[i]->cli.name);

		if (!(cuenv_cmds[i]->flags & CMD_HIDDEN) && n > width)
			width = n;
	}
	for (size_t i = 0; i < cuenv_ncmds; i++) {
		if (!(cuenv_cmds[i]->flags & CMD_HIDDEN))
			printf("  %-*s  %s\n", (int)width,
			       cuenv_cmds[i]->cli.name,
			       cuenv_cmds[i]->cli.summary);
	}
	printf("\nRun `cuenv COMMAND --help` for one command; "
	       "`cuenv --version` for the version.\n"
	       "Colour: cuenv --color=auto|always|never COMMAND (auto: on a "
	       "terminal, unless NO_COLOR).\n"
	       "Environment: CUENV_ROOT (default ~/.cuenv), CUENV_VERSION "
	       "(set by cuenv use).\n");
	return CUENV_OK;
}

CUENV_CMD(help, 0, 1, .run = run);
