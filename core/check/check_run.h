/*
 * check_run.h: `cuenv check` and `cuenv exec --check` run cuenv-probe,
 * and for --compile the selection's nvcc and the program it builds, in
 * exactly the activated environment, and turn what they say (or how
 * they died) into the smoke report (check.h). cuenv never loads CUDA
 * itself: every library is loaded by a child.
 *
 * The order, as cmd/check.c runs it:
 *
 *	check_plan_for(&a->act, compat_dir, probe, device, &pl, &e);
 *	check_run_probe(&pl, a, probe, timeout, &r, err);
 *	check_run_compile(a, tmpdir, device, timeout, &r);  (--compile)
 *	check_report_finish(&r);
 *
 * These start processes (core/proc) and, for --compile, write and remove
 * a temporary folder; they print nothing.
 */
#ifndef CUENV_CHECK_RUN_H
#define CUENV_CHECK_RUN_H

#include "select/activate.h"
#include "base/err.h"
#include "check/check.h"
#include "check/check_plan.h"

/*
 * check_plan_make for act into pl (initialised), with the driver act's
 * CUDA needs read from compat_dir/cuda-driver.tsv (compat.h; its Windows
 * column on Windows, compat_driver_os). When that
 * is unknown the plan is made without it (the probe is then told none)
 * and the failure is returned: compat_dir NULL (the caller could not
 * find the tables and has its own reason) gives CUENV_NO with err left
 * as it was; an unreadable table gives compat_driver's code and message.
 * Reads the table and the selection's library folders.
 */
int check_plan_for(const struct active *act, const char *compat_dir,
		   const char *probe, int device, struct check_plan *pl,
		   struct cuenv_err *err);

/*
 * Run the probe (pl->argv, probe being its path) in a->after, stdin from
 * /dev/null, killed after timeout seconds, and fill r from its report
 * line. A probe that died or hung in a step before reporting gives a
 * report that blames that step's layer (check_plan_blame) with the end
 * of its stderr. Returns CUENV_OK with r filled; CUENV_E_GPU when the
 * probe could not be started, or died before any step ("PROBE exited
 * with status 3 before reporting: LAST LINES"); a report line that is
 * not the probe's JSON gives check_report_from_json's code.
 */
int check_run_probe(const struct check_plan *pl, const struct activation *a,
		    const char *probe, unsigned timeout, struct check_report *r,
		    struct cuenv_err *err);

/*
 * --compile: build check_compile_src with the selection's nvcc in a
 * folder made under tmpdir (removed after), in a->after, and run it on
 * device when the driver and runtime layers passed. The verdicts go to
 * r's kernel layer (check_plan.h's check_compile_*), and the time taken
 * is added to it; each child is killed after timeout seconds.
 */
void check_run_compile(const struct activation *a, const char *tmpdir,
		       int device, unsigned timeout, struct check_report *r);

/* ---- the whole smoke test ------------------------------------------------ */

/* What `cuenv check` (and `exec --check`) asks of check_run_all. */
struct check_request {
	const struct activation *a; /* a->ok: something is selected */
	const char *probe;	    /* cuenv-probe's path, or NULL: not found */
	const char *tried;	/* where it was looked for, for the message */
	const char *compat;	/* the compatibility tables' folder, or NULL */
	const char *compat_why; /* why there is none, when compat is NULL */
	int device;
	unsigned timeout; /* seconds, for each child */
	int compile;	  /* --compile */
	/* a warning's text for stderr, said before the probe starts */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

/*
 * The smoke test, in the order at the top of this file, into r
 * (initialised): the plan (a warning when the driver's minimum for the
 * selected CUDA is unknown), the probe, --compile's nvcc in a folder
 * under a->after's TMPDIR (when absolute, else /tmp), then the report
 * finished. Returns CUENV_OK, the code of the layer that failed (*first:
 * its index), or, with *first -1 and no report: CUENV_E_USAGE when
 * there is no probe (hint: install both), or check_run_probe's error.
 */
int check_run_all(const struct check_request *c, struct check_report *r,
		  int *first, struct cuenv_err *err);

/*
 * The error for a finished report whose layer first failed with rc:
 * for check (cmd NULL) "LAYER: MESSAGE" with the layer's fix as hint;
 * for `exec --check` "exec --check: the LAYER layer failed (MESSAGE);
 * not running 'CMD'", hinted with the fix or "details: cuenv check".
 * A layer without a message was skipped. Returns rc.
 */
int check_run_fail(const struct check_report *r, int first, int rc,
		   const char *cmd, struct cuenv_err *err);

#endif
