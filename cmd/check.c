/*
 * check.c: `cuenv check`, the selection proved on the GPU (core/check/check.h).
 *
 * cuenv never loads CUDA itself: this file computes the activation and
 * finds cuenv-probe (cmd/probe_main.c); core/check/check_run runs it with an
 * argv and exactly the activated environment, reads its JSON report
 * back and, for --compile, adds the selection's own nvcc to the kernel
 * layer; core/check/check_render words the result, which is printed here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nvidia/manifests.h"
#include "check/check.h"
#include "check/check_render.h"
#include "check/check_run.h"
#include "cmd.h"
#include "cli/check.h"

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warn("%s", msg);
}

/* ---- the smoke test, shared with `cuenv exec --check` --------------------- */

int cmd_check_run(const struct cuenv_ctx *ctx, const struct activation *a,
		  int device, unsigned timeout, int compile,
		  struct check_report *r, int *first, struct cuenv_err *err)
{
	struct buf tried = BUF_INIT, compat = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	char *probe =
		manifests_helper(ctx->envp, ctx->exe, "cuenv-probe", &tried);
	int found = !cmd_compat_dir(ctx, &compat, &e);
	struct check_request c = {
		.a = a,
		.probe = probe,
		.tried = tried.data,
		.compat = found ? compat.data : NULL,
		.compat_why = e.msg.data,
		.device = device,
		.timeout = timeout,
		.compile = compile,
		.warn = warn,
	};
	int rc;

	fflush(stdout);
	rc = check_run_all(&c, r, first, err);
	buf_release(&tried);
	buf_release(&compat);
	err_release(&e);
	free(probe);
	return rc;
}

/* ---- the command --------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct check_report r;
	struct buf out = BUF_INIT;
	int rc = CUENV_OK, compile = opt_given(&ctx->opt, O_COMPILE),
	    device = (int)ctx->opt.num[O_DEVICE], first;
	unsigned long timeout =
		opt_given(&ctx->opt, O_TIMEOUT) ? ctx->opt.num[O_TIMEOUT] : 300;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&a);
	check_report_init(&r);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (!rc)
		rc = activation_selected(&a, err);
	if (rc)
		goto out;
	rc = cmd_check_run(ctx, &a, device, (unsigned)timeout, compile, &r,
			   &first, err);
	/* the probe's own failures (not a failed layer) have no report */
	if (rc && first < 0)
		goto out;
	check_render(&out, &a.sel, &r, rc, first, opt_given(&ctx->opt, O_JSON));
	fwrite(out.data, 1, out.len, stdout);
	if (rc)
		check_run_fail(&r, first, rc, NULL, err);
out:
	fflush(stdout); /* the report before the error line */
	activation_release(&a);
	check_report_release(&r);
	buf_release(&out);
	return rc;
}

CUENV_CMD(check, 0, 0, .run = run);
