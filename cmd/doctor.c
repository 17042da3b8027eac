/*
 * doctor.c: `cuenv doctor`: the catalogue and the compatibility tables
 * found, what core/doctor_gather reads of this machine audited
 * (core/doctor), and the report (core/doctor_render) printed.
 */
#include <stdio.h>

#include "doctor/doctor_gather.h"
#include "doctor/doctor_render.h"
#include "cmd.h"
#include "cli/doctor.h"

/* ---- the command -------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct doctor_where w = {
		.root = ctx->root,
		.cwd = ctx->cwd,
		.envp = ctx->envp,
		.python = opt_given(&ctx->opt, O_PYTHON)
				  ? ctx->opt.arg[O_PYTHON]
				  : NULL,
		.no_import = opt_given(&ctx->opt, O_NO_IMPORT),
	};
	struct doctor_settings s;
	struct doctor_gathered g;
	struct findings f = { 0 };
	struct buf out = BUF_INIT;
	int rc;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	doctor_gathered_init(&g);
	doctor_gather_tables(&w, ctx->exe, &g);
	rc = doctor_settings_read(ctx->envp, &s, err);
	if (!rc)
		rc = doctor_gather(&w, &s, &g, err);
	if (!rc) {
		doctor_run(&g.in, &f);
		doctor_render(&out, &g.a, &f, opt_given(&ctx->opt, O_JSON));
		cmd_print_report(&out);
		rc = findings_count(&f, DOCTOR_PROBLEM) ? CUENV_E_DOCTOR
							: CUENV_OK;
	}
	findings_release(&f);
	doctor_gathered_release(&g);
	buf_release(&out);
	return rc;
}

CUENV_CMD(doctor, 0, 0, .run = run);
