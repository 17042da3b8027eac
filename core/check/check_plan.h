/*
 * check_plan.h: how `cuenv check` runs cuenv-probe for a selection.
 *
 * The probe's command line names every version, the device, the driver
 * the toolkit needs (compat.h), each library's soname and the folders
 * the selection owns; the probe loads nothing by path. A soname is the
 * one the selection's own folders hold (check_find_soname), else the one
 * NVIDIA gives that release (detect_soname), so that a missing library
 * is still named. cuDNN is asked for when selected, or when the toolkit
 * carries one (wheels); CUPTI comes from a separately selected CUPTI
 * release, else from the toolkit.
 *
 * `cuenv check --compile` also builds a small CUDA program with the
 * selection's nvcc and runs it; its verdicts on the kernel layer are
 * here, beside the program and the line it prints when it ran right.
 */
#ifndef CUENV_CHECK_PLAN_H
#define CUENV_CHECK_PLAN_H

#include <stdbool.h>

#include "base/buf.h"
#include "nvidia/compat.h"
#include "select/select.h"
#include "check/check.h"
#include "store/store.h"

struct check_plan {
	struct strv argv;	       /* the probe's command line */
	char *runtime, *cudnn, *cupti; /* sonames; NULL: none */
	struct strv own;	       /* lib folders of the selection */
};

#define CHECK_PLAN_INIT                                                        \
	{                                                                      \
		STRV_INIT, NULL, NULL, NULL, STRV_INIT                         \
	}

void check_plan_release(struct check_plan *pl);

/*
 * Fill pl (initialised) for the selection act, probe being the probe's
 * path and device the GPU to test; req is the driver act's CUDA needs,
 * or NULL when unknown (then the probe is not told one). Looks at the
 * selection's library folders.
 */
void check_plan_make(const struct active *act, const char *probe, int device,
		     const struct driver_req *req, struct check_plan *pl);

/* ---- when the probe dies ------------------------------------------------- */

/* The layer (enum check_layer_id) a probe step ("driver", "runtime",
 * "kernel", "cudnn", "cupti", "cupti-trace") belongs to, or -1. */
int check_step_layer(const char *step);

/*
 * The report, into r, for a probe that died or hung (why: "was killed by
 * signal 11 (...)") in step, of layer, before it reported; tail is the
 * end of its stderr ("" when none). That layer fails, blaming the
 * library it loads, with a fix that reinstalls it (or checks the
 * driver); every other layer is skipped as not known. The versions and
 * sonames are those the probe was asked for (act, pl).
 */
void check_plan_blame(const struct check_plan *pl, const struct active *act,
		      int layer, const char *step, const char *why,
		      const char *tail, struct check_report *r);

/* ---- --compile ----------------------------------------------------------- */

/* The program: CUDA C++ that scales 1000 floats on device argv[1]. */
extern const char check_compile_src[];

/* Did the program's stdout say it ran right? */
bool check_compile_output_ok(const char *out);

/* The kernel layer l fails: the selection's toolkit cuda has no nvcc; the
 * fix reinstalls (or re-registers) a whole toolkit. */
void check_compile_no_nvcc(struct check_layer *l,
			   const struct store_version *cuda);

/* l fails: nvcc did not build the program (timed_out, or it exited with
 * an error); tail is the end of what it printed. */
void check_compile_not_built(struct check_layer *l, const char *nvcc,
			     bool timed_out, const char *tail);

/*
 * nvcc built the program: noted on r's kernel layer. Returns whether to
 * run it, which needs the driver and runtime layers to have passed;
 * when not, a kernel layer still skipped says the program was built.
 */
bool check_compile_built(struct check_report *r, const char *nvcc);

/* l fails: the program exited with status or printed the wrong thing;
 * tail is the end of what it printed. */
void check_compile_run_failed(struct check_layer *l, int status,
			      const char *tail);

/* The program ran right: noted on l, and a passing l says so. */
void check_compile_ran(struct check_layer *l, const char *nvcc);

#endif
