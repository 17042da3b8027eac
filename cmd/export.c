#include <stdlib.h>
#include <unistd.h>

#include "../core/shell.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv export bash|zsh|fish|pwsh|cmd " CMD_SYN_OPTS "\n"
	"\n"
	"Print the shell code that takes the current shell from its present\n"
	"environment to the one the selection here gives, plus the watch\n"
	"lists the prompt hook checks. Run by the hook; not for humans.\n"
	"(cmd has no hook: its lines are `set` arguments, without watch lists.)\n";

enum { O_PID };

static const struct cmd_option opts[] = {
	[O_PID] = { "pid", .arg = "PID", .value = OPT_NUMBER, .max = 1u << 30,
		    .help = "the shell's process (for the hook's stamp)" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct envmap env = ENVMAP_INIT;
	enum shell sh;
	long pid = (long)ctx->opt.num[O_PID];
	int rc = CUENV_OK;

	(void)argc; /* main checked how many arguments */

	if (shell_parse(argv[optind], &sh) || sh == SHELL_SH)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "export: unsupported shell '%s'",
				  argv[optind]);
	envmap_from(&env, ctx->envp);
	rc = cmd_emit(ctx, &env, &env, sh, pid, err);
	envmap_release(&env);
	/*
	 * A bad .cuenv is reported, but the code printed (deactivation and
	 * the watch lists) must still be evaluated: exit 0 for the hook.
	 */
	if (rc && rc != CUENV_E_BUG) {
		cmd_print_error(err);
		err_release(err);
		rc = CUENV_OK;
	}
	return rc;
}

CUENV_CMD(export, "export", 1, 1,
	  "print the hook's shell code (used by the hook)", CMD_OPTIONS(opts),
	  .flags = CMD_EMITS_SHELL | CMD_HIDDEN, .run = run);
