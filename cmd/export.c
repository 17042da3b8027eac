#include <stdlib.h>
#include <unistd.h>

#include "plat/shell.h"
#include "cmd.h"
#include "cli/export.h"

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

CUENV_CMD(export, 1, 1, .flags = CMD_EMITS_SHELL | CMD_HIDDEN, .run = run);
