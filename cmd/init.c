#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/plat_sys.h"
#include "../core/shell.h"
#include "cmd.h"
#include "cli/init.h"

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

/*
 * The doskey macro file, naming this binary as "PATH" ($ doubled: doskey
 * reads $ as its own). A '%' cannot be quoted on cmd's command line (it
 * would expand %NAME%), nor a '"' inside quotes: refused.
 */
static int fill_doskey(struct buf *out, const char *exe, struct cuenv_err *err)
{
	struct buf bin = BUF_INIT;

	if (strpbrk(exe, "%\"\n\r")) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, exe, 200);
		cuenv_fail(err, CUENV_E_USAGE,
			   "init: cmd cannot name '%s' in a doskey macro (it "
			   "holds %% or a quote)",
			   shown.data);
		buf_release(&shown);
		return cuenv_hint(err, "move cuenv to a folder without '%%'");
	}
	buf_addc(&bin, '"');
	for (const char *p = exe; *p; p++) {
		if (*p == '$')
			buf_addc(&bin, '$');
		buf_addc(&bin, *p);
	}
	buf_addc(&bin, '"');
	fill(out, embedded_cuenv_doskey, bin.data, "cmd");
	buf_release(&bin);
	return CUENV_OK;
}

/* "bash", "-zsh" (a login shell), "/usr/bin/fish": its name, or NULL. */
static const char *shell_word(const char *s)
{
	static const char *const known[] = { "bash", "zsh", "fish" };
	const char *base = strrchr(s, '/');

	base = base ? base + 1 : s;
	if (*base == '-')
		base++;
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(base, known[i]))
			return known[i];
	return NULL;
}

/*
 * For `init -`, as pyenv's: the parent process's name (the shell that
 * runs eval "$(cuenv init -)"), else $SHELL's.
 */
static const char *detect_shell(const struct cuenv_ctx *ctx)
{
	const char *found = NULL, *env = env_get(ctx->envp, "SHELL");
	char *parent = plat_sys_parent_name();

	if (parent)
		found = shell_word(parent);
	free(parent);
	return found ? found : env ? shell_word(env) : NULL;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct buf out = BUF_INIT, bin = BUF_INIT;
	enum shell sh;
	const char *name;

	if (optind == argc) {
		cuenv_fail(err, CUENV_E_USAGE, "init: missing argument");
		/* `init -` only where it would work from here. */
		if (detect_shell(ctx))
			return cuenv_hint(err, "name the shell: cuenv init "
					       "bash (or zsh, fish), or "
					       "detect it: cuenv init -");
		return cuenv_hint(err, "name the shell: cuenv init bash "
				       "(or zsh, fish)");
	}
	name = argv[optind];
	if (!strcmp(name, "-") && !(name = detect_shell(ctx))) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "init: cannot tell the shell: neither the parent "
			   "process nor $SHELL is bash, zsh or fish");
		return cuenv_hint(err, "name it: cuenv init bash (or zsh, "
				       "fish)");
	}
	if (!strcmp(name, "direnv")) {
		/* direnv evaluates .envrc and its libraries in bash. */
		shell_quote(SHELL_BASH, ctx->exe, &bin);
		fill(&out, embedded_cuenv_direnv, bin.data, "bash");
	} else if (shell_parse(name, &sh) || sh == SHELL_SH) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, name, 64);
		cuenv_fail(err, CUENV_E_USAGE, "init: unsupported shell '%s'",
			   shown.data);
		buf_release(&shown);
		return cuenv_hint(err, "shells: bash, zsh, fish, pwsh, cmd; or "
				       "direnv");
	} else if (sh == SHELL_CMD) {
		int rc = fill_doskey(&out, ctx->exe, err);

		if (rc) {
			buf_release(&out);
			return rc;
		}
	} else if (sh == SHELL_PWSH) {
		shell_pwsh_quote(ctx->exe, &bin);
		fill(&out, embedded_cuenv_pwsh, bin.data, "pwsh");
	} else {
		shell_quote(sh, ctx->exe, &bin);
		if (sh != SHELL_FISH)
			fill(&out, embedded_cuenv_sh, bin.data, shell_name(sh));
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

CUENV_CMD(init, 0 /* missing: a hint about init - */, 1,
	  .flags = CMD_EMITS_SHELL, .run = run);
