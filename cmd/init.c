#include <string.h>
#include <unistd.h>

#include "../core/shell.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv init bash|zsh|fish\n"
	"\n"
	"Print the shell integration: a `cuenv` function (so that `cuenv use`\n"
	"can change the current shell) and a prompt hook that activates the\n"
	"selection of each directory. Add to your shell's start-up file:\n"
	"\n"
	"  bash (~/.bashrc):            eval \"$(cuenv init bash)\"\n"
	"  zsh  (~/.zshrc):             eval \"$(cuenv init zsh)\"\n"
	"  fish (~/.config/fish/config.fish):  cuenv init fish | source\n"
	"\n"
	"The hook starts no process at a prompt where neither the directory,\n"
	"a .cuenv file, the global default nor the store changed.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *tmpl, *p, *at;
	struct buf out = BUF_INIT, bin = BUF_INIT;
	enum shell sh;
	int rc;

	if (getopt(argc, argv, "") != -1)
		return cmd_bad_usage(&cmd_init, err);
	rc = cmd_check_args(&cmd_init, argc - optind, err);
	if (rc)
		return rc;
	if (shell_parse(argv[optind], &sh) || sh == SHELL_SH) {
		cuenv_fail(err, CUENV_E_USAGE, "init: unsupported shell '%s'",
			   argv[optind]);
		return cuenv_hint(err, "shells: bash, zsh, fish");
	}
	tmpl = sh == SHELL_BASH	 ? embedded_cuenv_bash
	       : sh == SHELL_ZSH ? embedded_cuenv_zsh
				 : embedded_cuenv_fish;
	shell_quote(sh, ctx->exe, &bin);
	for (p = tmpl; (at = strstr(p, "@CUENV_BIN@")); p = at + 11) {
		buf_add(&out, p, (size_t)(at - p));
		buf_add(&out, bin.data, bin.len);
	}
	buf_adds(&out, p);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	buf_release(&bin);
	return CUENV_OK;
}

const struct cuenv_cmd cmd_init = {
	.name = "init",
	.summary = "print the shell integration for bash, zsh or fish",
	.usage = usage,
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_EMITS_SHELL,
	.run = run,
};
