#include "../core/envfmt.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv env " CMD_SYN_OPTS "\n"
	"\n"
	"Print the variables the selection for this directory sets, with the\n"
	"values they take (PATH, LD_LIBRARY_PATH, LIBRARY_PATH, CPATH,\n"
	"CUDA_HOME, CUDA_PATH, CUDNN_PATH, CUENV_ACTIVE), for scripts:\n"
	"\n"
	"  eval \"$(cuenv env)\"          sh, bash, zsh\n"
	"  cuenv env --format fish | source\n"
	"  cuenv env --format json     an object of name: value (null: unset)\n"
	"  cuenv env --format dockerfile   ENV NAME=\"value\" lines\n"
	"  cuenv env --format github >>\"$GITHUB_ENV\"   NAME=value lines\n"
	"  cuenv env --format cmd      \"NAME=value\" lines, for a batch file's\n"
	"     for /f \"delims=\" %%i in ('cuenv env --format cmd') do set %%i\n"
	"  cuenv env --format powershell   $env:NAME = '...' lines, for\n"
	"     cuenv env --format powershell | Out-String | Invoke-Expression\n"
	"\n"
	"The shell formats also carry __CUENV_STATE, so that a later hook or\n"
	"`cuenv use` can undo exactly these changes. Exits 1 when nothing is\n"
	"selected.\n";

enum { O_FORMAT, O_ISOLATE };

static const struct cmd_option opts[] = {
	[O_FORMAT] = { "format", .arg = "F", .value = OPT_WORD,
		       .words = "sh bash zsh fish json dockerfile github cmd "
				"powershell",
		       .help = "the output's format (default sh)" },
	[O_ISOLATE] = { "isolate",
			.help = "strip foreign CUDA dirs from LD_LIBRARY_PATH" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct envfmt f;
	struct env_changes ch = { 0 };
	struct activation a;
	struct buf out = BUF_INIT;
	struct strv warnings = STRV_INIT;
	int rc = CUENV_OK, isolate = cmd_opt_given(&ctx->opt, O_ISOLATE);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	rc = envfmt_parse(ctx->opt.arg[O_FORMAT] ? ctx->opt.arg[O_FORMAT]
						 : "sh",
			  &f, err);
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

CUENV_CMD(env, "env", 0, 0, "print the variables the selection sets",
	  CMD_OPTIONS(opts), .flags = CMD_EMITS_SHELL, .run = run);
