#include <string.h>
#include <unistd.h>

#include "../core/shell.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv init bash|zsh|fish|direnv\n"
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
	"a .cuenv file, the global default nor the store changed.\n"
	"\n"
	"`cuenv init direnv` prints instead a direnv library that defines\n"
	"`use cuenv` for a project's .envrc (direnv then does the activating):\n"
	"\n"
	"  cuenv init direnv >~/.config/direnv/lib/cuenv.sh\n";

/* Append tmpl with @CUENV_BIN@ and @CUENV_SHELL@ filled in. */
static void fill(struct buf *out, const char *tmpl, const char *bin,
		 const char *shell)
{
	const char *p = tmpl, *at;

	while ((at = strchr(p, '@'))) {
		buf_add(out, p, (size_t)(at - p));
		if (!strncmp(at, "@CUENV_BIN@", 11)) {
			buf_adds(out, bin);
			p = at + 11;
		} else if (!strncmp(at, "@CUENV_SHELL@", 13)) {
			buf_adds(out, shell);
			p = at + 13;
		} else {
			buf_addc(out, '@');
			p = at + 1;
		}
	}
	buf_adds(out, p);
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct buf out = BUF_INIT, bin = BUF_INIT;
	enum shell sh;
	int rc;

	if (getopt(argc, argv, "") != -1)
		return cmd_bad_usage(&cmd_init, err);
	rc = cmd_check_args(&cmd_init, argc - optind, err);
	if (rc)
		return rc;
	if (!strcmp(argv[optind], "direnv")) {
		/* direnv evaluates .envrc and its libraries in bash. */
		shell_quote(SHELL_BASH, ctx->exe, &bin);
		fill(&out, embedded_cuenv_direnv, bin.data, "bash");
	} else if (shell_parse(argv[optind], &sh) || sh == SHELL_SH) {
		cuenv_fail(err, CUENV_E_USAGE, "init: unsupported shell '%s'",
			   argv[optind]);
		return cuenv_hint(err, "shells: bash, zsh, fish; or direnv");
	} else {
		shell_quote(sh, ctx->exe, &bin);
		if (sh != SHELL_FISH)
			fill(&out, embedded_cuenv_sh, bin.data,
			     shell_name(sh));
		fill(&out,
		     sh == SHELL_BASH  ? embedded_cuenv_bash
		     : sh == SHELL_ZSH ? embedded_cuenv_zsh
				       : embedded_cuenv_fish,
		     bin.data, shell_name(sh));
	}
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	buf_release(&bin);
	return CUENV_OK;
}

const struct cuenv_cmd cmd_init = {
	.name = "init",
	.summary = "print the shell integration for bash, zsh, fish or direnv",
	.usage = usage,
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_EMITS_SHELL,
	.run = run,
};
