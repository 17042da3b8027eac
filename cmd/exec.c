#include <errno.h>
#include <string.h>

#include "plat/plat_path.h"
#include "plat/plat_proc.h"
#include "check/check.h"
#include "check/check_run.h"
#include "cmd.h"
#include "cli/exec.h"

/*
 * --check: the smoke test, its report kept off stdout (COMMAND's); on
 * failure one line naming the layer, its message and fix, on stderr.
 */
static int check_first(const struct cuenv_ctx *ctx, const struct activation *a,
		       const char *cmd, struct cuenv_err *err)
{
	struct check_report r;
	int rc, first;

	if (!a->ok) {
		cuenv_fail(err, CUENV_NO,
			   "exec --check: nothing selected here; not running "
			   "'%s'",
			   cmd);
		return cuenv_hint(err, "select one: cuenv local VERSION");
	}
	check_report_init(&r);
	rc = cmd_check_run(ctx, a, 0, 300, 0, &r, &first, err);
	if (rc && first >= 0)
		check_run_fail(&r, first, rc, cmd, err);
	check_report_release(&r);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct buf prog = BUF_INIT;
	int rc = CUENV_OK, isolate = opt_given(&ctx->opt, O_ISOLATE),
	    check = opt_given(&ctx->opt, O_CHECK);

	(void)argc; /* main checked how many arguments */

	activation_init(&a);
	/* a program by path (venv/bin/python): its venv's wheels count */
	if (strchr(argv[optind], '/')) {
		if (plat_path_is_abs(plat_path_native(), argv[optind]))
			buf_sets(&prog, argv[optind]);
		else
			buf_path(&prog, ctx->cwd, argv[optind]);
		a.program = prog.data;
	}
	rc = cmd_activation(ctx, NULL, isolate, &a, err);
	for (size_t i = 0; !rc && i < a.notes.n; i++)
		cmd_note("%s", a.notes.v[i]);
	if (!rc && check)
		rc = check_first(ctx, &a, argv[optind], err);
	if (!rc) {
		int code, e;

		fflush(stdout);
		code = plat_exec(argv + optind, a.after.vars.v);
		e = errno;
		if (code >= 0) {
			rc = code; /* Windows: the child's exit code */
		} else {
			rc = e == ENOENT ? 127 : 126;
			cuenv_fail(err, rc, "cannot run '%s': %s", argv[optind],
				   strerror(e));
		}
	}
	activation_release(&a);
	buf_release(&prog);
	return rc;
}

CUENV_CMD(exec, 1, -1, .flags = CMD_STOP_AT_ARG, .run = run);
