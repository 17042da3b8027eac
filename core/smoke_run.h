/*
 * smoke_run.h: `cuenv check` and `cuenv exec --check` run cuenv-probe,
 * and for --compile the selection's nvcc and the program it builds, in
 * exactly the activated environment, and turn what they say (or how
 * they died) into the smoke report (smoke.h). cuenv never loads CUDA
 * itself: every library is loaded by a child.
 *
 * The order, as cmd/check.c runs it:
 *
 *	smoke_plan_for(&a->act, compat_dir, probe, device, &pl, &e);
 *	smoke_run_probe(&pl, a, probe, timeout, &r, err);
 *	smoke_run_compile(a, tmpdir, device, timeout, &r);  (--compile)
 *	smoke_report_finish(&r);
 *
 * These start processes (core/proc) and, for --compile, write and remove
 * a temporary folder; they print nothing.
 */
#ifndef CUENV_SMOKE_RUN_H
#define CUENV_SMOKE_RUN_H

#include "activate.h"
#include "err.h"
#include "smoke.h"
#include "smoke_plan.h"

/*
 * smoke_plan_make for act into pl (initialised), with the driver act's
 * CUDA needs read from compat_dir/cuda-driver.tsv (compat.h; its Windows
 * column on Windows, compat_driver_os). When that
 * is unknown the plan is made without it (the probe is then told none)
 * and the failure is returned: compat_dir NULL (the caller could not
 * find the tables and has its own reason) gives CUENV_NO with err left
 * as it was; an unreadable table gives compat_driver's code and message.
 * Reads the table and the selection's library folders.
 */
int smoke_plan_for(const struct active *act, const char *compat_dir,
		   const char *probe, int device, struct smoke_plan *pl,
		   struct cuenv_err *err);

/*
 * Run the probe (pl->argv, probe being its path) in a->after, stdin from
 * /dev/null, killed after timeout seconds, and fill r from its report
 * line. A probe that died or hung in a step before reporting gives a
 * report that blames that step's layer (smoke_plan_blame) with the end
 * of its stderr. Returns CUENV_OK with r filled; CUENV_E_GPU when the
 * probe could not be started, or died before any step ("PROBE exited
 * with status 3 before reporting: LAST LINES"); a report line that is
 * not the probe's JSON gives smoke_report_from_json's code.
 */
int smoke_run_probe(const struct smoke_plan *pl, const struct activation *a,
		    const char *probe, unsigned timeout, struct smoke_report *r,
		    struct cuenv_err *err);

/*
 * --compile: build smoke_compile_src with the selection's nvcc in a
 * folder made under tmpdir (removed after), in a->after, and run it on
 * device when the driver and runtime layers passed. The verdicts go to
 * r's kernel layer (smoke_plan.h's smoke_compile_*), and the time taken
 * is added to it; each child is killed after timeout seconds.
 */
void smoke_run_compile(const struct activation *a, const char *tmpdir,
		       int device, unsigned timeout, struct smoke_report *r);

#endif
