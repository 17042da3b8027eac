#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char usage[] =
	"usage: cuenv completion bash|zsh|fish\n"
	"       cuenv completion --options COMMAND\n"
	"\n"
	"Print the completion script for the shell: commands, each command's\n"
	"flags, installed versions (use, local, global, uninstall, remove)\n"
	"and installable ones (install, from `cuenv list-remote`).\n"
	"`make install` puts them where the shells look:\n"
	"\n"
	"  bash  share/bash-completion/completions/cuenv\n"
	"  zsh   share/zsh/vendor-completions/_cuenv\n"
	"  fish  share/fish/vendor_completions.d/cuenv.fish\n"
	"\n"
	"To load one by hand:\n"
	"\n"
	"  eval \"$(cuenv completion bash)\"     (zsh: after compinit)\n"
	"  cuenv completion fish | source\n";

enum { O_OPTIONS };

static const struct cmd_option opts[] = {
	[O_OPTIONS] = { "options", .forms = CMD_NAMED, .arg = "COMMAND",
			.help = "for the scripts: COMMAND's options, one a\n"
				"line: --NAME, its argument, the values to\n"
				"offer and its help, separated by tabs" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *name, *text;

	if (ctx->opt.arg[O_OPTIONS]) {
		const struct cuenv_cmd *cmd = cmd_find(ctx->opt.arg[O_OPTIONS]);

		if (!cmd || optind < argc) {
			cuenv_fail(err, CUENV_E_USAGE,
				   "completion: --options takes one command");
			return cuenv_hint(err, "see: cuenv help");
		}
		cmd_options_complete(cmd, stdout);
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

CUENV_CMD(completion, "completion", 0 /* --options */, 1,
	  "print the completion script for bash, zsh or fish",
	  CMD_OPTIONS(opts), .run = run);
