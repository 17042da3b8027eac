/*
 * doctor_driver.c: the driver's version (read from the kernel module's
 * files) and doctor's check of it against what the selected CUDA needs.
 */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "doctor/doctor_int.h"
#include "plat/file.h"
#include "plat/plat_path.h"
#include "base/version.h"
#include "base/xalloc.h"

#define DRIVER_TEXT_MAX 4096

/* ---- the driver --------------------------------------------------------- */

int doctor_parse_driver(const char *text, struct buf *out)
{
	const char *p = strstr(text, "Kernel Module");
	static const char ws[] = " \t\r\n";

	p = p ? p + strlen("Kernel Module") : text;
	while (*(p += strspn(p, ws))) {
		size_t n = strcspn(p, ws);
		char *tok = xstrndup(p, n);
		int ok =
			memchr(tok, '.', n) && compat_driver_cmp(tok, tok) == 0;

		if (ok) {
			buf_sets(out, tok);
			free(tok);
			return 0;
		}
		free(tok);
		p += n;
	}
	return -1;
}

int doctor_read_driver(const char *const *paths, struct buf *version,
		       struct buf *from)
{
	for (; *paths; paths++) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf text = BUF_INIT;
		int found = !file_read(*paths, DRIVER_TEXT_MAX,
				       FILE_MAY_BE_MISSING, &text, &err) &&
			    !doctor_parse_driver(text.data, version);

		buf_release(&text);
		err_release(&err);
		if (found) {
			buf_sets(from, *paths);
			return 1;
		}
	}
	return 0;
}

const char *doctor_cuda_version(const struct activation *a)
{
	if (a->ok)
		return a->act.cuda->version;
	if (selection_active(&a->sel) && version_is_valid(a->sel.cuda))
		return a->sel.cuda;
	return NULL;
}

/* ---- the driver against the toolkit ------------------------------------- */

/* The CUDA a driver finding speaks of, in the spellings it needs. */
struct target {
	const char *cuda;    /* "12.4.1" */
	const char *mm;	     /* "12.4" */
	const char *pkg;     /* "12-4": the package is cuda-compat-12-4 */
	unsigned long major; /* 12 */
};

static void no_driver(struct audit *au, const struct target *t)
{
	const struct doctor_in *in = au->in;
	const struct driver_req *need = in->need;
	struct draft d = DRAFT_INIT;

	buf_adds(&d.what, "no NVIDIA driver found");
	if (in->driver_from)
		buf_printf(&d.what, " (%s)", in->driver_from);
	buf_adds(&d.why, "doctor needs no GPU; on the machine that runs "
			 "the work, ");
	if (need && need->release)
		buf_printf(&d.why, "cuda %s needs driver %s or newer", t->cuda,
			   need->release);
	else
		buf_printf(&d.why,
			   "cuda %s needs a driver new enough for it "
			   "(which one is not known here: no "
			   "compatibility table, or no row for it)",
			   t->cuda);
	if (need && need->compat)
		buf_printf(&d.why,
			   " (%s or newer under CUDA %lu.x minor-version "
			   "compatibility)",
			   need->compat, t->major);
	/* as typed: sh's NAME=value prefix, cmd's set then && */
	buf_adds(&d.fix,
		 plat_path_native()->style == PLAT_PATH_WINDOWS
			 ? "to check against that machine's driver: set "
			   "\"CUENV_DRIVER_VERSION=<version>\" && cuenv "
			   "doctor"
			 : "to check against that machine's driver: "
			   "CUENV_DRIVER_VERSION=<version> cuenv doctor");
	doctor_emit(au->out, "no-driver", DOCTOR_INFO, &d);
}

static void driver_unknown(struct audit *au, const struct target *t)
{
	doctor_emitf(au->out, "driver-requirement-unknown", DOCTOR_INFO,
		     "doctor cannot tell whether this driver runs it",
		     "see NVIDIA's CUDA release notes, table \"CUDA "
		     "Toolkit and Corresponding Driver Versions\"",
		     "no minimum driver known for cuda %s (no "
		     "compatibility table, or no row for it); the "
		     "driver is %s",
		     t->cuda, au->in->driver);
}

static void driver_minor_compat(struct audit *au, const struct target *t)
{
	const struct doctor_in *in = au->in;
	const struct driver_req *need = in->need;
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what,
		   "driver %s is older than the %s that cuda %s was "
		   "released with; it meets CUDA %lu.x's minimum %s "
		   "only through minor-version compatibility",
		   in->driver, need->release, t->cuda, t->major, need->compat);
	buf_printf(&d.why,
		   "programs built with CUDA %s run, but PTX made by "
		   "this toolkit cannot be JIT-compiled by the older "
		   "driver (cudaErrorUnsupportedPtxVersion: \"the "
		   "provided PTX was compiled with an unsupported "
		   "toolchain\"), and calls that need the newer driver "
		   "fail with cudaErrorCallRequiresNewerDriver",
		   t->mm);
	buf_printf(&d.fix,
		   "upgrade the NVIDIA driver to %s or newer; or, on "
		   "data-center GPUs, install NVIDIA's forward-"
		   "compatibility package for it (cuda-compat-%s) and "
		   "put /usr/local/cuda-%s/compat first on "
		   "LD_LIBRARY_PATH",
		   need->release, t->pkg, t->mm);
	if (in->driver_from)
		strv_push(&d.paths, in->driver_from);
	doctor_emit(au->out, "driver-minor-compat", DOCTOR_WARNING, &d);
}

static void driver_too_old(struct audit *au, const struct target *t)
{
	const struct doctor_in *in = au->in;
	const struct driver_req *need = in->need;
	const char *min = need->release ? need->release : need->compat;
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what, "driver %s is older than cuda %s needs: %s",
		   in->driver, t->cuda, min);
	if (need->compat)
		buf_printf(&d.what,
			   " (or %s for any CUDA %lu.x under minor-"
			   "version compatibility)",
			   need->compat, t->major);
	buf_adds(&d.why, "the CUDA runtime refuses to start on it: "
			 "cudaErrorInsufficientDriver, \"CUDA driver "
			 "version is insufficient for CUDA runtime "
			 "version\"; frameworks then report no GPU "
			 "(TensorFlow: \"Cannot dlopen some GPU "
			 "libraries\", PyTorch: torch.cuda.is_available() "
			 "is False)");
	buf_printf(&d.fix,
		   "upgrade the NVIDIA driver to %s or newer; or, on "
		   "data-center GPUs (not GeForce), install NVIDIA's "
		   "forward-compatibility package (cuda-compat-%s) and "
		   "put /usr/local/cuda-%s/compat first on "
		   "LD_LIBRARY_PATH; or select an older CUDA that this "
		   "driver supports",
		   min, t->pkg, t->mm);
	if (in->driver_from)
		strv_push(&d.paths, in->driver_from);
	doctor_emit(au->out, "driver-too-old", DOCTOR_PROBLEM, &d);
}

void doctor_check_driver(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const struct driver_req *need = in->need;
	struct target t = { .cuda = doctor_cuda_version(au->a) };
	struct buf mm = BUF_INIT;
	char *pkg;

	if (!t.cuda)
		return;
	version_major_minor(t.cuda, &mm);
	pkg = xstrdup(mm.data);
	for (char *p = pkg; *p; p++)
		if (*p == '.')
			*p = '-';
	t.mm = mm.data;
	t.pkg = pkg;
	t.major = strtoul(t.cuda, NULL, 10);
	if (!in->driver) {
		no_driver(au, &t);
	} else if (!need || (!need->release && !need->compat)) {
		driver_unknown(au, &t);
	} else if (need->release &&
		   compat_driver_cmp(in->driver, need->release) >= 0) {
		/* new enough */
	} else if (need->compat &&
		   compat_driver_cmp(in->driver, need->compat) >= 0) {
		/* Minor-version compatibility: a warning only past the
		 * release's own driver. */
		if (need->release)
			driver_minor_compat(au, &t);
	} else {
		driver_too_old(au, &t);
	}
	buf_release(&mm);
	free(pkg);
}
