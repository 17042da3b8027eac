/*
 * smoke_plan.h: how `cuenv check` runs cuenv-probe for a selection.
 *
 * The probe's command line names every version, the device, the driver
 * the toolkit needs (compat.h), each library's soname and the folders
 * the selection owns; the probe loads nothing by path. A soname is the
 * one the selection's own folders hold (smoke_find_soname), else the one
 * NVIDIA gives that release (detect_soname), so that a missing library
 * is still named. cuDNN is asked for when selected, or when the toolkit
 * carries one (wheels); CUPTI comes from a separately selected CUPTI
 * release, else from the toolkit.
 */
#ifndef CUENV_SMOKE_PLAN_H
#define CUENV_SMOKE_PLAN_H

#include "buf.h"
#include "compat.h"
#include "select.h"

struct smoke_plan {
	struct strv argv;	     /* the probe's command line */
	char *runtime, *cudnn, *cupti; /* sonames; NULL: none */
	struct strv own;	     /* lib folders of the selection */
};

#define SMOKE_PLAN_INIT { STRV_INIT, NULL, NULL, NULL, STRV_INIT }

void smoke_plan_release(struct smoke_plan *pl);

/*
 * Fill pl (initialised) for the selection act, probe being the probe's
 * path and device the GPU to test; req is the driver act's CUDA needs,
 * or NULL when unknown (then the probe is not told one). Looks at the
 * selection's library folders.
 */
void smoke_plan_make(const struct active *act, const char *probe,
		     int device, const struct driver_req *req,
		     struct smoke_plan *pl);

#endif
