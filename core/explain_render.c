/*
 * explain_render.c: `cuenv explain`'s text report (see explain_render.h).
 */
#include <stdlib.h>
#include <string.h>

#include "explain_render.h"
#include "json_util.h"

static const char *lib_word(const struct nvlib *lib)
{
	return lib->id == NVLIB_CUDNN ? "cuDNN" : "CUDA";
}

static void render_library(struct buf *out, const struct explain_finding *f)
{
	const struct nvlib *lib = f->lib;

	switch (f->kind) {
	case EXPLAIN_DRIVER:
		buf_printf(out, "%s: the NVIDIA driver's library\n", f->name);
		buf_adds(out,
			 "  it comes with the driver, not with a CUDA toolkit: "
			 "cuenv does not install it\n");
		buf_adds(out,
			 "  note: install NVIDIA's driver (`cuenv check` says "
			 "whether one is loaded and how old it is)\n");
		return;
	case EXPLAIN_NO_RELEASE:
		buf_printf(out,
			   "%s: lib%s by its name, but no %s release ships it "
			   "under that name\n",
			   f->name, lib->stem, lib_word(lib));
		return;
	case EXPLAIN_LIBRARY:
		break;
	default:
		return;
	}
	buf_printf(out, "%s: ", f->name);
	if (f->dll)
		buf_adds(out, "the Windows DLL of ");
	if (f->soname)
		buf_printf(out, "%.*s", (int)strcspn(f->soname, "."),
			   f->soname);
	else
		buf_printf(out, "lib%s", lib->stem);
	if (f->releases)
		buf_printf(out, " of %s", f->releases);
	else
		buf_adds(out, ", of any release (no version in the name)");
	buf_printf(out, " (NVIDIA's %s", lib->component);
	if (lib->wheel)
		buf_printf(out, ", pip's %s-cuNN", lib->wheel);
	buf_adds(out, ")\n");
	if (f->dll && f->soname)
		buf_printf(out, "  on Linux the same library is %s\n",
			   f->soname);
	if (lib->flags & NVLIB_YEAR_FILES && f->dll && !f->soname)
		buf_adds(out,
			 "  CUPTI names its Windows DLL after its own year "
			 "version, which does not name a CUDA release\n");
	if (f->missing)
		buf_adds(out, "  the program could not load it\n");
}

static void render_finding(struct buf *out, const struct explain_finding *f)
{
	switch (f->kind) {
	case EXPLAIN_CUDNN_MISMATCH:
		buf_printf(out,
			   "%s was built with cuDNN %s but loaded cuDNN %s\n",
			   !strcmp(f->framework, "xla")
				   ? "TensorFlow or JAX (XLA)"
				   : f->framework,
			   f->built, f->loaded);
		buf_printf(
			out,
			"  it needs cuDNN %lu.x, at least %s: the same major, "
			"the same or a newer minor\n",
			strtoul(f->built, NULL, 10), f->built);
		break;
	case EXPLAIN_CUPTI_PRIVILEGES:
		buf_adds(out,
			 "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: CUPTI was loaded, "
			 "but the driver lets only administrators read the "
			 "GPU's performance counters\n");
		buf_adds(out,
			 "  no library is missing: a cuenv selection does not "
			 "change it\n");
		buf_adds(out,
			 "  note: run the profiler as root (in Docker: "
			 "--cap-add=SYS_ADMIN), or allow every user: "
			 "options nvidia NVreg_RestrictProfilingToAdminUsers=0 "
			 "in /etc/modprobe.d, then reboot (NVIDIA's "
			 "ERR_NVGPUCTRPERM page)\n");
		break;
	case EXPLAIN_CUPTI_LOAD:
		buf_adds(out,
			 "CUPTI could not be used: libcupti was missing, or of "
			 "another CUDA release than the framework's\n");
		buf_adds(out,
			 "  a framework loads the CUPTI of the CUDA it was built "
			 "with (libcupti.so.11.2 for CUDA 11.2; .12 for any "
			 "12.x)\n");
		break;
	default:
		render_library(out, f);
		break;
	}
	if (f->kind == EXPLAIN_DRIVER || f->kind == EXPLAIN_CUPTI_PRIVILEGES)
		return;
	if (f->nrows) {
		buf_adds(out, "  asked for by (the frameworks table):\n");
		for (size_t k = 0; k < f->nrows; k++) {
			const struct explain_row *r = &f->rows[k];

			buf_printf(out, "    %s %s%s: CUDA %s", r->framework,
				   r->versions, r->windows ? " (Windows)" : "",
				   r->cuda);
			if (r->cudnn)
				buf_printf(out, ", cuDNN %s", r->cudnn);
			buf_addc(out, '\n');
		}
	}
	if (!f->lib)
		return;
	if (!f->store.n && !f->loader.n) {
		buf_printf(
			out,
			"  this machine: no lib%s installed, registered or on "
			"the loader's path\n",
			f->lib->stem);
		return;
	}
	buf_adds(out, "  this machine:\n");
	for (size_t k = 0; k < f->store.n; k++)
		buf_printf(out, "    %s\n", f->store.v[k]);
	for (size_t k = 0; k < f->loader.n; k++)
		buf_printf(out, "    %s\n", f->loader.v[k]);
	if (f->kind == EXPLAIN_LIBRARY && f->soname && !f->store_exact &&
	    !f->loader_exact)
		buf_printf(out, "    none of them is %s\n", f->soname);
}

void explain_render_text(struct buf *out, const struct explain *ex,
			 const struct explain_fix *fx)
{
	for (size_t i = 0; i < ex->n; i++) {
		if (i)
			buf_addc(out, '\n');
		render_finding(out, &ex->v[i]);
	}
	if (ex->omitted)
		buf_printf(out, "\n... and %zu more names not shown\n",
			   ex->omitted);
	if (!needs_asked(&fx->s, NULL))
		return;
	buf_addc(out, '\n');
	if (fx->state)
		buf_printf(out, "installed: %s\n", fx->state);
	else if (fx->in.report.n)
		for (size_t i = 0; i < fx->in.report.n; i++)
			buf_printf(out, "installed: %s\n", fx->in.report.v[i]);
	else
		buf_adds(out, "installed: no CUDA in the store\n");
	if (!fx->lines.n && !fx->state)
		buf_printf(out, "catalogue: %s\n",
			   fx->o.why.len ? fx->o.why.data : "not read");
	for (size_t i = 0; i < fx->lines.n; i++)
		buf_printf(out, "  fix: %s\n", fx->lines.v[i]);
}

void explain_render(struct buf *out, const struct explain *ex,
		    const struct explain_fix *fx, int json)
{
	if (json)
		json_add_report_take(out, explain_json(ex, fx));
	else
		explain_render_text(out, ex, fx);
}
