#include <errno.h>
#include <string.h>

#include "../core/plat_proc.h"
#include "../core/smoke.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv exec " CMD_SYN_OPTS " [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND with the selection for this directory activated, as the\n"
	"shell hook would activate it; no shell integration needed (scripts,\n"
	"CI, containers). COMMAND's exit status is passed through; 126 and\n"
	"127 mean it could not be run or found. With nothing selected the\n"
	"command runs in the environment without cuenv's additions.\n";

enum { O_ISOLATE, O_CHECK };

static const struct cmd_option opts[] = {
	[O_ISOLATE] = { "isolate",
			.help = "strip foreign CUDA dirs from LD_LIBRARY_PATH" },
	[O_CHECK] = { "check",
		      .help = "run `cuenv check`'s smoke test first and start\n"
			      "COMMAND only when it passes (a container's\n"
			      "entrypoint); when it fails, a short report on\n"
			      "stderr and check's exit code (1 with nothing\n"
			      "selected)" },
};

/*
 * --check: the smoke test, its report kept off stdout (COMMAND's); on
 * failure one line naming the layer, its message and fix, on stderr.
 */
static int smoke_first(const struct cuenv_ctx *ctx, const struct activation *a,
		       const char *cmd, struct cuenv_err *err)
{
	struct smoke_report r;
	int rc, first;

	if (!a->ok) {
		cuenv_fail(err, CUENV_NO,
			   "exec --check: nothing selected here; not running "
			   "'%s'",
			   cmd);
		return cuenv_hint(err, "select one: cuenv local VERSION");
	}
	smoke_report_init(&r);
	rc = cmd_smoke(ctx, a, 0, 300, 0, &r, &first, err);
	if (rc && first >= 0) {
		const struct smoke_layer *l = &r.layer[first];

		cuenv_fail(err, rc,
			   "exec --check: the %s layer failed (%s); not "
			   "running '%s'",
			   smoke_layer_name(first),
			   l->message ? l->message : "skipped", cmd);
		cuenv_hint(err, "%s", l->fix ? l->fix : "details: cuenv check");
	}
	smoke_report_release(&r);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	int rc = CUENV_OK, isolate = cmd_opt_given(&ctx->opt, O_ISOLATE),
	    check = cmd_opt_given(&ctx->opt, O_CHECK);

	(void)argc; /* main checked how many arguments */

	activation_init(&a);
	rc = cmd_activation(ctx, NULL, isolate, &a, err);
	if (!rc && check)
		rc = smoke_first(ctx, &a, argv[optind], err);
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
	return rc;
}

CUENV_CMD(exec, "exec", 1, -1, "run a command with the selection activated",
	  CMD_OPTIONS(opts), .flags = CMD_STOP_AT_ARG, .run = run);
