#include <string.h>

#include "../core/envfmt.h"
#include "../core/shell.h"
#include "cmd.h"
#include "cli/env.h"

/* cmd's "NAME=value" lines or PowerShell's $env: assignments. */
static int write_windows(const char *format, const struct env_changes *ch,
			 struct buf *out, struct cuenv_err *err)
{
	/* No Windows hook reads __CUENV_STATE yet: left out. */
	for (size_t i = 0; i < ch->n; i++) {
		const char *name = ch->v[i].name, *value = ch->v[i].value;

		if (!strcmp(name, ENV_STATE_VAR))
			continue;
		if (*format == 'p')
			shell_pwsh_export(name, value, out);
		else if (shell_cmd_export(name, value, out))
			return cuenv_fail(
				err, CUENV_E_USAGE,
				"env: %s holds %s, which cmd's set cannot "
				"carry",
				name,
				strchr(value, '!') ? "'!' (delayed expansion "
						     "would expand it)"
						   : "a line break");
	}
	return CUENV_OK;
}

/* Dockerfile ENV lines or $GITHUB_ENV lines: neither can unset. */
static int write_assignments(const char *format, const struct env_changes *ch,
			     struct buf *out, struct cuenv_err *err)
{
	int rc = CUENV_OK;

	for (size_t i = 0; i < ch->n && !rc; i++) {
		const char *name = ch->v[i].name;

		if (!strcmp(name, ENV_STATE_VAR))
			continue;
		if (!ch->v[i].value) {
			cmd_warn("%s is unset by the selection; %s "
				 "cannot unset it",
				 name, format);
			continue;
		}
		if (*format == 'd')
			rc = envfmt_dockerfile_line(name, ch->v[i].value, out,
						    err);
		else
			envfmt_github_line(name, ch->v[i].value, out);
	}
	return rc;
}

static int check_format(const char *format, enum shell *sh,
			struct cuenv_err *err)
{
	static const char *const others[] = { "json", "dockerfile", "github",
					      "cmd", "powershell" };

	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		if (!strcmp(format, others[i]))
			return CUENV_OK;
	/* pwsh and cmd are the hooks' shells: powershell and cmd here */
	if (!shell_parse(format, sh) && *sh <= SHELL_SH)
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE, "env: unknown format '%s'", format);
	return cuenv_hint(err, "formats: sh, bash, zsh, fish, json, "
			       "dockerfile, github, cmd, powershell");
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *format = "sh";
	struct env_changes ch = { 0 };
	struct activation a;
	struct buf out = BUF_INIT;
	int rc = CUENV_OK, isolate = opt_given(&ctx->opt, O_ISOLATE);
	enum shell sh = SHELL_SH;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (ctx->opt.arg[O_FORMAT])
		format = ctx->opt.arg[O_FORMAT];
	rc = check_format(format, &sh, err);
	if (rc)
		return rc;
	activation_init(&a);
	rc = cmd_activation(ctx, NULL, isolate, &a, err);
	if (!rc && !a.ok) {
		rc = cuenv_fail(err, CUENV_NO, "nothing selected here");
		cuenv_hint(err, "select one: cuenv local VERSION, or cuenv "
				"global VERSION");
	}
	if (rc)
		goto out;
	/* Relative to the environment without cuenv: the full set. */
	env_diff(&a.base, &a.after, &ch);
	if (!strcmp(format, "json"))
		envfmt_json(&ch, &out);
	else if (!strcmp(format, "cmd") || !strcmp(format, "powershell"))
		rc = write_windows(format, &ch, &out, err);
	else if (!strcmp(format, "dockerfile") || !strcmp(format, "github"))
		rc = write_assignments(format, &ch, &out, err);
	else
		shell_apply(sh, &ch, &out);
	if (!rc)
		fwrite(out.data, 1, out.len, stdout);
out:
	env_changes_release(&ch);
	activation_release(&a);
	buf_release(&out);
	return rc;
}

CUENV_CMD(env, 0, 0, .flags = CMD_EMITS_SHELL, .run = run);
