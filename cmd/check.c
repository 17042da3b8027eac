/*
 * check.c: `cuenv check`, the selection proved on the GPU (core/smoke.h).
 *
 * cuenv never loads CUDA itself: this file computes the activation and
 * finds cuenv-probe (cmd/probe_main.c); core/smoke_run runs it with an
 * argv and exactly the activated environment, reads its JSON report
 * back and, for --compile, adds the selection's own nvcc to the kernel
 * layer; core/smoke_render words the result, which is printed here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/manifests.h"
#include "../core/smoke.h"
#include "../core/smoke_render.h"
#include "../core/smoke_run.h"
#include "cmd.h"
#include "cli/check.h"

/* The probe's command line; the driver's minimum from the compat table. */
static void make_plan(const struct cuenv_ctx *ctx, const struct activation *a,
		      const char *probe, int device, struct smoke_plan *pl)
{
	struct buf compat = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	int found = !cmd_compat_dir(ctx, &compat, &e);

	if (smoke_plan_for(&a->act, found ? compat.data : NULL, probe, device,
			   pl, &e))
		cmd_warn("the driver's minimum for CUDA %s is unknown: %s",
			 a->act.cuda->version, e.msg.data);
	buf_release(&compat);
	err_release(&e);
}

static void print_report(const struct activation *a,
			 const struct smoke_report *r, int rc, int first)
{
	struct buf out = BUF_INIT;

	smoke_render_text(&out, &a->sel, r, rc, first);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
}

/* ---- the smoke test, shared with `cuenv exec --check` --------------------- */

int cmd_smoke(const struct cuenv_ctx *ctx, const struct activation *a,
	      int device, unsigned timeout, int compile, struct smoke_report *r,
	      int *first, struct cuenv_err *err)
{
	struct smoke_plan pl = SMOKE_PLAN_INIT;
	struct buf tried = BUF_INIT;
	const char *tmpdir;
	char *probe;
	int rc;

	*first = -1;
	probe = manifests_helper(ctx->envp, ctx->exe, "cuenv-probe", &tried);
	if (!probe) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"cuenv check needs cuenv-probe, which is not "
				"installed (looked for %s)",
				tried.data);
		cuenv_hint(err, "install both: make install PREFIX=...");
		goto out;
	}
	make_plan(ctx, a, probe, device, &pl);
	fflush(stdout);
	rc = smoke_run_probe(&pl, a, probe, timeout, r, err);
	if (rc)
		goto out;
	if (compile) {
		tmpdir = envmap_get(&a->after, "TMPDIR");
		smoke_run_compile(a, tmpdir && *tmpdir == '/' ? tmpdir : "/tmp",
				  device, timeout, r);
	}
	smoke_report_finish(r);
	rc = smoke_report_rc(r, first);
out:
	smoke_plan_release(&pl);
	buf_release(&tried);
	free(probe);
	return rc;
}

/* ---- the command --------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct smoke_report r;
	struct buf json = BUF_INIT;
	int rc = CUENV_OK, json_out = opt_given(&ctx->opt, O_JSON),
	    compile = opt_given(&ctx->opt, O_COMPILE),
	    device = (int)ctx->opt.num[O_DEVICE], first;
	unsigned long timeout =
		opt_given(&ctx->opt, O_TIMEOUT) ? ctx->opt.num[O_TIMEOUT] : 300;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&a);
	smoke_report_init(&r);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (!rc && !a.ok) {
		rc = cuenv_fail(err, CUENV_NO, "nothing selected here");
		cuenv_hint(err, "select one: cuenv local VERSION");
	}
	if (rc)
		goto out;
	rc = cmd_smoke(ctx, &a, device, (unsigned)timeout, compile, &r, &first,
		       err);
	/* the probe's own failures (not a failed layer) have no report */
	if (rc && first < 0)
		goto out;
	if (json_out) {
		smoke_report_to_json(&r, &json);
		printf("%s\n", json.data);
	} else {
		print_report(&a, &r, rc, first);
	}
	if (rc) {
		const struct smoke_layer *l = &r.layer[first];

		cuenv_fail(err, rc, "%s: %s", smoke_layer_name(first),
			   l->message ? l->message : "skipped");
		if (l->fix)
			cuenv_hint(err, "%s", l->fix);
	}
out:
	fflush(stdout); /* the report before the error line */
	activation_release(&a);
	smoke_report_release(&r);
	buf_release(&json);
	return rc;
}

CUENV_CMD(check, 0, 0, .run = run);
