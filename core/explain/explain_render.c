/*
 * explain_render.c: `cuenv explain`'s text report (see explain_render.h).
 */
#include <stdlib.h>
#include <string.h>

#include "explain/explain_render.h"
#include "base/json_util.h"
#include "base/xalloc.h"

/* the DLLs of CUDA's whose copies on PATH where.exe lists */
#define CUDA_DLLS "cudnn*.dll cublas*.dll cudart*.dll"

/* The path f's line gives its file at ("/opt/v/libcublas.so.12: file
 * too short"), into out; false when the line names it without one. */
static bool found_path(const struct explain_finding *f, struct buf *out)
{
	const char *at = f->line && f->name ? strstr(f->line, f->name) : NULL;
	const char *s = at;

	if (!at)
		return false;
	while (s > f->line && !strchr(" \t'\"`(", s[-1]))
		s--;
	buf_reset(out);
	if (*s != '/')
		return false;
	buf_add(out, s, (size_t)(at - s) + strlen(f->name));
	return true;
}

/*
 * The loader found f's file and could not use it (f->found): why, that no
 * install is the fix, and the command that shows the copy found. False,
 * writing nothing, when the text does not say it was found.
 */
static bool render_found(struct buf *out, const struct explain_finding *f)
{
	struct buf path = BUF_INIT;

	switch (f->found) {
	case EXPLAIN_FOUND_NOT_SAID:
		return false;
	case EXPLAIN_FOUND_NO_ENTRY:
		buf_adds(out,
			 "  Windows' error 127: it was found, but a DLL it "
			 "imports from lacks an entry point: an older copy of "
			 "one of its dependencies (a cuDNN or CUDA DLL) comes "
			 "first on PATH; no install gives it, the older copy "
			 "must go from PATH\n");
		break;
	case EXPLAIN_FOUND_INIT_FAILED:
		buf_adds(out,
			 "  Windows' error 1114: it was found and loaded, but "
			 "its initialisation failed: no library is missing and "
			 "no install gives it; a DLL loaded before it in the "
			 "process makes it fail (another package's copy of a "
			 "CUDA, cuDNN or OpenMP DLL first on PATH, a stand-in "
			 "such as ZLUDA's), or a Visual C++ runtime older than "
			 "it was built with\n");
		break;
	case EXPLAIN_FOUND_NO_MEMORY:
		buf_adds(out,
			 f->dll ? "  it was found, but the process could not "
				  "get the memory to map it (Windows' 1455: "
				  "the paging file is too small; let Windows "
				  "size it, or run fewer such processes at "
				  "once): no install gives it\n"
				: "  it was found, but the loader could not map "
				  "it: out of memory, or out of static TLS "
				  "space (then loading it first, with "
				  "LD_PRELOAD set to its path, does); no "
				  "install gives it\n");
		break;
	case EXPLAIN_FOUND_BAD_FILE:
		buf_adds(out,
			 "  it was found, but that file is no library for this "
			 "machine (built for another architecture, 32-bit, or "
			 "cut short by a broken download): no install elsewhere "
			 "mends the copy found; reinstall what put it there\n");
		break;
	}
	if (f->dll)
		buf_printf(out, "  see the copies PATH has: where.exe %s\n",
			   f->imports || f->found == EXPLAIN_FOUND_NO_ENTRY
				   ? CUDA_DLLS
				   : f->name);
	else if (found_path(f, &path))
		buf_printf(out, "  see it: ls -lL '%s'\n", path.data);
	buf_release(&path);
	return true;
}

/* A framework's own DLL that imports CUDA's (f->imports). */
static void render_imports(struct buf *out, const struct explain_finding *f)
{
	buf_printf(out,
		   "%s: %s's own DLL, not one of NVIDIA's; it imports "
		   "CUDA's and cuDNN's DLLs\n",
		   f->name, f->framework ? f->framework : "the program");
	if (f->releases)
		buf_printf(out, "  its build uses %s (from the text)\n",
			   f->releases);
	if (!render_found(out, f))
		buf_adds(out,
			 "  Windows' error 126: it, or a DLL it imports, could "
			 "not be found; the error does not say which (a CUDA or "
			 "cuDNN DLL of the release it was built for, not on "
			 "PATH)\n"
			 "  see the copies PATH has: where.exe " CUDA_DLLS
			 "\n");
}

static void render_library(struct buf *out, const struct explain_finding *f)
{
	const struct nvlib *lib = f->lib;

	switch (f->kind) {
	case EXPLAIN_DRIVER:
		buf_printf(out, "%s: the NVIDIA driver's library\n", f->name);
		if (f->wanted_by)
			buf_printf(out,
				   "  %s was found; it could not load the "
				   "driver's library\n",
				   f->wanted_by);
		buf_adds(out,
			 "  it comes with the driver, not with a CUDA toolkit: "
			 "cuenv does not install it\n");
		buf_adds(out,
			 "  note: install NVIDIA's driver (`cuenv check` says "
			 "whether one is loaded and how old it is)\n");
		if (!f->dll)
			buf_adds(
				out,
				"  note: on WSL the driver is Windows' and its "
				"libcuda.so is in /usr/lib/wsl/lib: that folder "
				"must be on the loader's path "
				"(LD_LIBRARY_PATH=/usr/lib/wsl/lib)\n");
		return;
	case EXPLAIN_NO_RELEASE:
		buf_printf(out,
			   "%s: lib%s by its name, but no %s release ships it "
			   "under that name\n",
			   f->name, lib->stem, nvlib_product(lib));
		return;
	case EXPLAIN_LIBRARY:
		break;
	default:
		return;
	}
	if (f->imports) {
		render_imports(out, f);
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
	buf_printf(out, " (NVIDIA's %s",
		   lib->component ? lib->component : nvlib_product(lib));
	if (lib->wheel)
		buf_printf(out, ", pip's %s-cuNN", lib->wheel);
	buf_adds(out, ")\n");
	if (nvlib_kit(lib) == NVLIB_KIT_OTHER && lib->wheel)
		buf_printf(out,
			   "  cuenv does not install %s: NVIDIA's wheel "
			   "%s-cuNN has it, NN the CUDA major the program "
			   "was built with\n",
			   nvlib_product(lib), lib->wheel);
	if (f->dll && f->soname)
		buf_printf(out, "  on Linux the same library is %s\n",
			   f->soname);
	if (lib->flags & NVLIB_YEAR_FILES && f->dll && !f->soname)
		buf_adds(out,
			 "  CUPTI names its Windows DLL after its own year "
			 "version, which does not name a CUDA release\n");
	if (!render_found(out, f) && f->missing)
		buf_adds(out, f->dll ? "  the program could not load it, or a "
				       "DLL it needs (Windows' error 126)\n"
				     : "  the program could not load it\n");
	if (f->wanted_by)
		buf_printf(out, "  %s was found; it could not load this one\n",
			   f->wanted_by);
}

static void render_driver_old(struct buf *out, const struct explain_finding *f)
{
	if (f->name && !strcmp(f->name, "nvidia-container-cli"))
		buf_adds(out, "the NVIDIA driver is older than the CUDA the "
			      "container image asks for (nvidia-container-cli "
			      "checks its NVIDIA_REQUIRE_CUDA before it "
			      "starts)\n");
	else
		buf_adds(out,
			 "the NVIDIA driver is older than the CUDA runtime "
			 "the program uses (cudaErrorInsufficientDriver, "
			 "35)\n");
	if (f->driver_cuda)
		buf_printf(out,
			   "  the driver says it supports CUDA %s at most\n",
			   f->driver_cuda);
	if (f->driver_row && f->driver_min)
		buf_printf(out,
			   "  CUDA %s needs a driver %s on Linux (the table "
			   "of NVIDIA's drivers)%s%s%s\n",
			   f->driver_row, f->driver_min,
			   f->driver_compat ? ", or " : "",
			   f->driver_compat ? f->driver_compat : "",
			   f->driver_compat ? " with minor-version "
					      "compatibility"
					    : "");
	else if (f->driver_compat)
		buf_printf(out,
			   "  its CUDA major needs a driver %s on Linux (the "
			   "table of NVIDIA's drivers)\n",
			   f->driver_compat);
	else
		buf_adds(out, "  the CUDA release the program uses cannot be "
			      "known from this text, so neither can the "
			      "driver it needs (CUDA 11.x needs >= 450, 12.x "
			      ">= 525, 13.x >= 580)\n");
	buf_adds(out, "  no library is missing: cuenv does not install "
		      "drivers\n");
	buf_adds(out, "  note: update the NVIDIA driver (`cuenv check` shows "
		      "the one loaded), or use a build of the program for an "
		      "older CUDA\n");
}

static void render_mixed(struct buf *out, const struct explain_finding *f)
{
	buf_printf(out, "undefined symbol %s", f->symbol);
	if (f->path)
		buf_printf(out, " in %s", f->path);
	buf_printf(out,
		   ": two copies of lib%s from different releases are "
		   "mixed in one process\n",
		   f->lib->stem);
	buf_adds(out, "  no library is missing: installing another copy does "
		      "not help\n");
	if (f->picked)
		buf_printf(out, "  the loader picks: %s\n", f->picked);
	if (!f->store.n && !f->loader.n) {
		buf_printf(out,
			   "  this machine: no other lib%s installed, "
			   "registered or on the loader's path\n",
			   f->lib->stem);
	} else {
		buf_adds(out, "  the copies on this machine:\n");
		for (size_t k = 0; k < f->store.n; k++)
			buf_printf(out, "    %s\n", f->store.v[k]);
		for (size_t k = 0; k < f->loader.n; k++)
			buf_printf(out, "    %s\n", f->loader.v[k]);
	}
	if (f->dll)
		buf_adds(out, "  note: keep one release where Windows looks: "
			      "remove the other's folder from PATH, or let the "
			      "framework's own copy (beside its DLLs, its pip "
			      "wheels) load first\n");
	else
		buf_adds(
			out,
			"  note: keep one release on the loader's path: remove "
			"the other from LD_LIBRARY_PATH, or let the framework's "
			"own copy (its pip wheels) load first\n");
}

/* What the loader model found here (explain_loader.h). */
static void render_model(struct buf *out, const struct explain_finding *f,
			 const char *yes, const char *no)
{
	bool any = false;

	if (f->absent) {
		buf_adds(out, "  on this machine: ");
		if (f->kind == EXPLAIN_SYMBOL && f->path) {
			buf_add_display(out, f->path, 4096);
			buf_adds(out, " is ");
		}
		buf_printf(out, "%s\n", f->absent);
		return;
	}
	if (!f->modelled)
		return;
	if (f->model_observed) {
		buf_printf(out, "  imported here by ");
		buf_add_display(out, f->model_observed, 4096);
		buf_adds(out, " in a child (observed, the rest predicted): ");
		if (f->model_error) {
			buf_adds(out, "it fails: ");
			buf_add_display(out, f->model_error, 300);
		} else {
			buf_adds(out, "it works");
		}
		buf_addc(out, '\n');
	}
	if (!f->model_file) {
		buf_printf(out,
			   "  the loader here (as glibc's ld.so searches) "
			   "finds no %s for it\n",
			   f->kind == EXPLAIN_SYMBOL && f->symbol ? f->symver
								  : f->soname);
	} else {
		buf_printf(out, "  the loader here (as glibc's ld.so searches) "
				"loads ");
		buf_add_display(out, f->model_file, 4096);
		buf_printf(out, " (%s%s%s)", f->model_from,
			   f->model_version ? ", " : "",
			   f->model_version ? f->model_version : "");
		if (f->model_mixed)
			buf_printf(out,
				   ", but cuDNN's %s under it: a mixed "
				   "cuDNN, which gives this error\n",
				   f->model_mixed);
		else if (f->model_ok)
			buf_printf(out,
				   ", which %s: the error came from "
				   "another environment than this shell's "
				   "(a selection or LD_LIBRARY_PATH not in "
				   "force here)\n",
				   yes);
		else
			buf_printf(out, ", which %s\n", no);
	}
	for (size_t k = 0; k < f->ncopies; k++) {
		const struct explain_copy *c = &f->copies[k];

		if (!c->satisfies)
			continue;
		if (!any)
			buf_adds(out, "  the copies here that would do:\n");
		any = true;
		buf_adds(out, "    ");
		buf_add_display(out, c->path, 4096);
		buf_printf(out, " (%s%s%s)\n", c->where, c->version ? ", " : "",
			   c->version ? c->version : "");
	}
	if (!any)
		buf_adds(out, "  no copy here would do\n");
	for (size_t k = 0; !f->model_ok && f->model_file && k < f->ncopies;
	     k++) {
		const struct explain_copy *c = &f->copies[k];
		const char *from = f->model_from ? f->model_from : "";
		const char *slash = strrchr(f->model_file, '/');
		char *dir;

		/* the copy loaded came first though one on the asker's own
		 * RUNPATH would do */
		if (!c->satisfies || !strstr(c->where, "RUNPATH") ||
		    strcmp(from, "LD_LIBRARY_PATH") || !slash)
			continue;
		buf_adds(out, "  LD_LIBRARY_PATH is searched before the asking "
			      "library's RUNPATH: its folder ");
		dir = xstrndup(f->model_file, (size_t)(slash - f->model_file));
		buf_add_display(out, dir, 4096);
		free(dir);
		buf_printf(out, " (%s) shadows the copy %s with an older one",
			   f->by_selection ? "the cuenv selection's"
					   : "not cuenv's",
			   strstr(c->where, "environment") ? "the environment "
							     "ships"
							   : "beside it");
		if (f->model_version && c->version)
			buf_printf(out, " (%s is older than %s)",
				   f->model_version, c->version);
		buf_addc(out, '\n');
		break;
	}
}

/* "undefined symbol: S, version libY.so.N" */
static void render_symbol(struct buf *out, const struct explain_finding *f)
{
	struct buf yes = BUF_INIT, no = BUF_INIT;

	const char *so = f->symbol ? f->symver : f->soname;

	if (f->symbol)
		buf_printf(out, "undefined symbol %s, version %s", f->symbol,
			   f->symver);
	else
		buf_printf(out, "version %s not found in %s", f->symver, so);
	if (f->path) {
		buf_adds(out, ", asked for by ");
		buf_add_display(out, f->path, 4096);
	}
	buf_addc(out, '\n');
	buf_printf(out,
		   "  the %s that was loaded does not define %s: an older "
		   "lib%s than the one the asking library was built against",
		   so, f->symbol ? "it" : "that version", f->lib->stem);
	if (f->built)
		buf_printf(out, " (the %s is %s's, so %s or newer)",
			   f->symbol ? "symbol" : "version", f->built,
			   f->built);
	buf_adds(out, "\n  no library is missing: installing another copy "
		      "does not help, loading the right one does\n");
	if (f->symbol) {
		buf_printf(&yes, "defines %s@%s", f->symbol, f->symver);
		buf_printf(&no, "does not define %s@%s", f->symbol, f->symver);
	} else {
		buf_printf(&yes, "defines version %s", f->symver);
		buf_printf(&no, "does not define version %s", f->symver);
	}
	render_model(out, f, yes.data, no.data);
	if (f->absent)
		buf_printf(
			out,
			"  note: LD_LIBRARY_PATH (or a cuenv selection on it) "
			"comes before a library's RUNPATH: an older %s on it "
			"shadows the one a venv's wheels ship beside the "
			"asking library (nvidia/*/lib)\n",
			so);
	BUF_RELEASE_EACH(&yes, &no);
}

static void render_finding(struct buf *out, const struct explain_finding *f)
{
	switch (f->kind) {
	case EXPLAIN_CUDNN_MISMATCH:
		buf_printf(out,
			   "%s was built with cuDNN %s but loaded cuDNN %s\n",
			   !strcmp(f->framework, "xla")
				   ? "TensorFlow or JAX (XLA)"
			   : !strcmp(f->framework, "jax") ? "JAX (XLA)"
							  : f->framework,
			   f->built, f->loaded);
		buf_printf(
			out,
			"  it needs cuDNN %lu.x, at least %s: the same major, "
			"the same or a newer minor\n",
			strtoul(f->built, NULL, 10), f->built);
		if (f->modelled || f->absent) {
			struct buf yes = BUF_INIT, no = BUF_INIT;

			buf_printf(&yes, "is cuDNN %s or newer", f->built);
			buf_printf(&no, "is older than cuDNN %s", f->built);
			render_model(out, f, yes.data, no.data);
			BUF_RELEASE_EACH(&yes, &no);
		}
		break;
	case EXPLAIN_TOO_OLD:
		buf_printf(out,
			   "%s loaded %s %s, older than the %s it asks for\n",
			   !strcmp(f->framework, "jax") ? "JAX" : f->framework,
			   f->name, f->loaded, f->built);
		buf_printf(out,
			   "  it needs %s %s or newer (%s): a CUDA release "
			   "that ships one, before any older copy on the "
			   "loader's path\n",
			   f->name, f->built, f->lib->component);
		break;
	case EXPLAIN_TOOLKIT_MISMATCH:
		buf_printf(out,
			   "the CUDA toolkit compiling %s's extension (its "
			   "nvcc, found from CUDA_HOME or PATH) is CUDA %s; "
			   "%s was built with CUDA %s\n",
			   f->framework, f->loaded, f->framework, f->built);
		buf_printf(out,
			   "  an extension must be compiled by the toolkit of "
			   "its CUDA: select CUDA %s, then build it in that "
			   "shell (a selection sets CUDA_HOME and puts its nvcc "
			   "first on PATH)\n",
			   f->built);
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
	case EXPLAIN_DRIVER_OLD:
		render_driver_old(out, f);
		return;
	case EXPLAIN_MIXED:
		render_mixed(out, f);
		return;
	case EXPLAIN_SYMBOL:
		render_symbol(out, f);
		return;
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

static void render_context(struct buf *out, const struct explain_context *c)
{
	if (!c->framework && !c->pin && !c->cuda && !c->cudnn)
		return;
	buf_adds(out, "read from the text:\n");
	if (c->framework)
		buf_printf(out, "  framework: %s (%s)\n", c->framework,
			   c->framework_from);
	if (c->pin)
		buf_printf(out, "  version: %s\n", c->pin);
	if (c->cuda && c->cuda_other)
		buf_printf(out,
			   "  CUDA %s (%s) and CUDA %s (%s): two majors, so "
			   "the release cannot be known\n",
			   c->cuda, c->cuda_from, c->cuda_other,
			   c->cuda_other_from);
	else if (c->cuda)
		buf_printf(out, "  CUDA %s%s (%s)\n", c->cuda,
			   strchr(c->cuda, '.') ? "" : ".x", c->cuda_from);
	if (c->cudnn)
		buf_printf(out, "  cuDNN %s (%s)\n", c->cudnn, c->cudnn_from);
	buf_addc(out, '\n');
}

void explain_render_text(struct buf *out, const struct explain *ex,
			 const struct explain_fix *fx)
{
	render_context(out, &ex->ctx);
	for (size_t i = 0; i < ex->n; i++) {
		if (i)
			buf_addc(out, '\n');
		render_finding(out, &ex->v[i]);
	}
	if (ex->omitted)
		buf_printf(out, "\n... and %zu more names not shown\n",
			   ex->omitted);
	if (!needs_asked(&fx->s, NULL) && !fx->unknown) {
		/* the loader model's fixes (explain_loader.h) */
		for (size_t i = 0; i < fx->lines.n; i++)
			buf_printf(out, "%s  fix: %s\n", i ? "" : "\n",
				   fx->lines.v[i]);
		return;
	}
	buf_addc(out, '\n');
	if (fx->unknown) {
		buf_printf(out, "CUDA: cannot be known from this text (%s)%s\n",
			   fx->unknown,
			   fx->decide.n ? "; these commands read what the "
					  "program was built for:"
					: "");
		for (size_t i = 0; i < fx->decide.n; i++)
			buf_printf(out, "  decide: %s\n", fx->decide.v[i]);
		if (fx->undecided)
			buf_printf(out,
				   "  nothing installed here decides it: "
				   "%s\n",
				   fx->undecided);
		return;
	}
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
	if (fx->note)
		buf_printf(out, "  note: %s\n", fx->note);
}

void explain_render(struct buf *out, const struct explain *ex,
		    const struct explain_fix *fx, int json,
		    const struct cuenv_err *err)
{
	if (json)
		json_add_report_take(out, explain_json(ex, fx, err));
	else
		explain_render_text(out, ex, fx);
}
