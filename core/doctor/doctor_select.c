/*
 * doctor_select.c: doctor's checks of the selection itself: a .cuenv or
 * CUENV_* that cannot be read or names what is not installed, the sonames
 * its folders lack, and a cuDNN built for another CUDA major.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "store/detect.h"
#include "doctor/doctor_int.h"
#include "nvidia/nvlib.h"
#include "base/version.h"
#include "base/xalloc.h"

#define CUDNN_FILES_MAX 8		 /* cuDNN libraries looked into */
#define CUDNN_FILE_MAX ((off_t)64 << 20) /* ... each at most this big */

/* ---- commands in the fixes ---------------------------------------------- */

/* Can `cuenv install CUDA` work: is it in the catalogue (or none read)? */
static bool installable(const struct audit *au, const char *cuda)
{
	return !au->in->cat ||
	       catalog_find(au->in->cat, KIT_CUDA, cuda, 0, -1) != NULL;
}

/*
 * "cuenv install CUDA --cudnn V" for a cuDNN that cuda's major lacks,
 * when the catalogue has such a build; else the manual step.
 */
static void add_cudnn_install(const struct audit *au,
			      const struct store_version *cuda,
			      const char *cudnn, struct buf *b)
{
	if (au->in->cat && (!installable(au, cuda->version) ||
			    !catalog_find(au->in->cat, KIT_CUDNN, cudnn,
					  cuda->cuda_major, -1))) {
		buf_printf(b,
			   "by hand, as cuenv's catalogue has no cuDNN %s "
			   "build for CUDA %s (cuenv list-remote cudnn): "
			   "register one you have (cuenv add cudnn PATH)",
			   cudnn, cuda->version);
		return;
	}
	buf_adds(b, "cuenv install ");
	shell_quote_word(b, cuda->version);
	buf_adds(b, " --cudnn ");
	shell_quote_word(b, cudnn);
}

static void add_origin(const struct selection *sel, struct strv *paths)
{
	if ((sel->origin == SEL_FILE || sel->origin == SEL_GLOBAL) &&
	    sel->origin_path)
		strv_push(paths, sel->origin_path);
}

/* ---- the selection itself ----------------------------------------------- */

/* The selection's CUDA is not installed. */
static void cuda_not_installed(struct audit *au, const char *msg,
			       struct draft *d)
{
	const struct activation *a = au->a;
	const struct selection *sel = &a->sel;
	char *rt = detect_soname("cudart", sel->cuda);

	buf_adds(&d->what, msg);
	buf_adds(&d->why, "the shell hook then activates nothing here "
			  "and cuenv exec refuses to run, so programs "
			  "get whatever CUDA the system has");
	if (rt)
		buf_printf(&d->why,
			   ", or none: \"Could not load dynamic "
			   "library '%s'\"",
			   rt);
	if (installable(au, sel->cuda)) {
		doctor_install_cmd(sel, sel->cuda, &d->fix);
		buf_adds(&d->fix, "; or register a toolkit you have: "
				  "cuenv add cuda PATH");
	} else {
		buf_printf(&d->fix,
			   "cuda %s is not in cuenv's catalogue "
			   "(cuenv list-remote cuda lists what it "
			   "can install): register a toolkit you "
			   "have (cuenv add cuda PATH)",
			   sel->cuda);
	}
	if (a->cudas.n) {
		const struct store_version *have = a->cudas.v[a->cudas.n - 1];

		buf_adds(&d->fix, "; or choose one installed: ");
		doctor_setter(au, &d->fix);
		buf_adds(&d->fix, " ");
		shell_quote_word(&d->fix, have->version);
	}
	free(rt);
}

/* The selection's cuDNN is installed only for another CUDA major. */
static void cudnn_other_major(struct audit *au,
			      const struct store_version *cuda,
			      const struct store_version *other,
			      struct draft *d)
{
	const struct activation *a = au->a;
	const struct selection *sel = &a->sel;
	const struct store_version *pair = NULL;
	struct buf spec = BUF_INIT;

	buf_printf(&spec, "%u", other->cuda_major);
	pair = select_pick(&a->cudas, spec.data, 0);
	buf_printf(&d->what,
		   "cudnn %s is installed only for CUDA %u "
		   "(%s, from its receipt's cuda_major), but "
		   "the selected runtime is cuda %s, CUDA %u",
		   other->version, other->cuda_major, other->name,
		   cuda->version, cuda->cuda_major);
	buf_printf(&d->why,
		   "a cuDNN build belongs to one CUDA major: "
		   "cuDNN %s for CUDA %u loads "
		   "libcublasLt.so.%u and the CUDA %u runtime, "
		   "which CUDA %u does not provide, so cuenv "
		   "will not pair them, and a framework that "
		   "finds this cuDNN some other way stops with "
		   "\"Could not load dynamic library "
		   "'libcublasLt.so.%u'\" or fails its first "
		   "convolution; with no cuDNN found it says "
		   "\"libcudnn.so.%lu: cannot open shared "
		   "object file\"",
		   other->version, other->cuda_major, other->cuda_major,
		   other->cuda_major, cuda->cuda_major, other->cuda_major,
		   strtoul(other->version, NULL, 10));
	buf_printf(&d->fix, "the cuDNN build for CUDA %u: ", cuda->cuda_major);
	add_cudnn_install(au, cuda, sel->cudnn, &d->fix);
	if (pair) {
		buf_printf(&d->fix,
			   "; or pair it with CUDA %u: ", other->cuda_major);
		doctor_setter(au, &d->fix);
		buf_printf(&d->fix, " %s --cudnn ", pair->version);
		shell_quote_word(&d->fix, sel->cudnn);
	}
	strv_push(&d->paths, other->prefix);
	strv_push(&d->paths, cuda->prefix);
	buf_release(&spec);
}

/* The selection's cuDNN is not installed (for any CUDA). */
static void cudnn_not_installed(struct audit *au,
				const struct store_version *cuda,
				const char *msg, struct draft *d)
{
	buf_adds(&d->what, msg);
	buf_adds(&d->why, "the shell hook then activates nothing here "
			  "and cuenv exec refuses to run; frameworks "
			  "that find no cuDNN stop with \"libcudnn.so: "
			  "cannot open shared object file\" or "
			  "\"Could not load dynamic library "
			  "'libcudnn.so.N'\"");
	add_cudnn_install(au, cuda, au->a->sel.cudnn, &d->fix);
}

/* The selection's CUPTI is not installed. */
static void cupti_not_installed(const struct store_version *cuda,
				const struct selection *sel, const char *msg,
				struct draft *d)
{
	buf_adds(&d->what, msg);
	buf_adds(&d->why, "the shell hook then activates nothing here "
			  "and cuenv exec refuses to run; a framework "
			  "that loads CUPTI by name says \"Could not "
			  "load dynamic library 'libcupti.so...'\"");
	buf_adds(&d->fix, "cuenv install ");
	shell_quote_word(&d->fix, cuda->version);
	if (sel->cupti) {
		buf_adds(&d->fix, " --cupti ");
		shell_quote_word(&d->fix, sel->cupti);
	}
}

/*
 * One of what the selection picks was registered from a folder that is
 * gone (a deleted venv or toolkit): nothing to install, the entry to
 * forget, as activation's own hint says. True when it said so.
 */
static bool gone_registration(struct audit *au,
			      const struct store_version *const *picked,
			      size_t n)
{
	const struct selection *sel = &au->a->sel;

	for (size_t i = 0; i < n; i++) {
		const struct store_version *v = picked[i];
		struct draft d = DRAFT_INIT;

		if (!v || !store_version_is_missing(v))
			continue;
		buf_printf(&d.what, "%s %s was registered from ",
			   kit_kind_name(v->kind), v->name);
		buf_add_display(&d.what, v->prefix, 4096);
		buf_adds(&d.what, ", which is gone");
		add_origin(sel, &d.paths);
		doctor_push_unique(&d.paths, v->prefix);
		buf_printf(&d.fix, "forget it: cuenv remove %s %s",
			   kit_kind_name(v->kind), v->name);
		doctor_emit_with(au->out, "selection-not-installed",
				 DOCTOR_PROBLEM, &d,
				 "the shell hook deactivates cuenv and cuenv "
				 "exec refuses to run: its folders would name "
				 "nothing, and programs would load whatever "
				 "else the loader finds",
				 NULL);
		return true;
	}
	return false;
}

static void not_installed(struct audit *au)
{
	const struct activation *a = au->a;
	const struct selection *sel = &a->sel;
	const char *msg = au->in->act_err ? au->in->act_err->msg.data : "";
	const struct store_version *cuda = select_pick(&a->cudas, sel->cuda, 0);
	int no_cudnn = cuda && sel->cudnn &&
		       !select_pick(&a->cudnns, sel->cudnn, cuda->cuda_major);
	const struct store_version *other =
		no_cudnn ? select_pick(&a->cudnns, sel->cudnn, 0) : NULL;
	struct draft d = DRAFT_INIT;
	const char *id = "selection-not-installed";
	const struct store_version *picked[] = {
		cuda,
		cuda && sel->cudnn
			? select_pick(&a->cudnns, sel->cudnn, cuda->cuda_major)
			: NULL,
	};

	if (gone_registration(au, picked, 2))
		return;
	add_origin(sel, &d.paths);
	if (!cuda) {
		cuda_not_installed(au, msg, &d);
	} else if (other && other->cuda_major != cuda->cuda_major) {
		id = "cudnn-cuda-mismatch";
		cudnn_other_major(au, cuda, other, &d);
	} else if (no_cudnn) {
		cudnn_not_installed(au, cuda, msg, &d);
	} else {
		cupti_not_installed(cuda, sel, msg, &d);
	}
	doctor_emit(au->out, id, DOCTOR_PROBLEM, &d);
}

void doctor_check_selection(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const struct selection *sel = &au->a->sel;
	struct draft d = DRAFT_INIT;

	if (in->act_rc == CUENV_E_NOT_INSTALLED) {
		not_installed(au);
		return;
	}
	if (in->act_rc) {
		buf_adds(&d.what, in->act_err ? in->act_err->msg.data
					      : "the selection cannot be read");
		if (in->act_err && in->act_err->hint.len)
			buf_adds(&d.fix, in->act_err->hint.data);
		else if (sel->origin_path)
			buf_printf(&d.fix, "fix or remove %s",
				   sel->origin_path);
		add_origin(sel, &d.paths);
		doctor_emit_with(au->out, "selection-invalid", DOCTOR_PROBLEM,
				 &d,
				 "cuenv cannot tell what to activate here: the "
				 "shell hook deactivates cuenv and cuenv exec "
				 "refuses to run, so programs get whatever "
				 "CUDA the system has",
				 NULL);
		return;
	}
	if (sel->origin == SEL_NONE) {
		buf_adds(&d.what, "nothing is selected here: no CUENV_VERSION, "
				  "no .cuenv from this folder up, no global "
				  "default");
		doctor_emit_with(au->out, "nothing-selected", DOCTOR_INFO, &d,
				 "cuenv leaves the environment alone, so "
				 "programs load whatever CUDA their RPATH, "
				 "LD_LIBRARY_PATH and the loader cache give",
				 "choose one for this project: cuenv local "
				 "VERSION (see cuenv versions)");
	} else if (!selection_active(sel)) {
		buf_adds(&d.what, "cuda = system here (");
		selection_describe_origin(sel, &d.what);
		buf_adds(&d.what, "): cuenv stays out of the way");
		add_origin(sel, &d.paths);
		doctor_emit_with(au->out, "nothing-selected", DOCTOR_INFO, &d,
				 "programs load whatever CUDA their RPATH, "
				 "LD_LIBRARY_PATH and the loader cache give",
				 NULL);
	}
}

/* ---- sonames the selection lacks ---------------------------------------- */

static void missing_soname(struct audit *au, const char *soname,
			   const struct store_version *in, const char *stem)
{
	const struct active *act = &au->a->act;
	struct draft d = DRAFT_INIT;

	buf_printf(&d.what,
		   "the selection (%s) has no %s: %s %s at %s lacks it",
		   au->label.data, soname, kit_kind_name(in->kind), in->version,
		   in->prefix);
	for (size_t i = 0; i < au->dirs.n; i++)
		strv_push(&d.paths, au->dirs.v[i]);
	if (!strcmp(stem, "cupti")) {
		struct buf mm = BUF_INIT;

		version_major_minor(act->cuda->version, &mm);

		buf_printf(&d.why,
			   "frameworks load CUPTI by this exact name "
			   "(TensorFlow at start-up and for its profiler, "
			   "PyTorch's profiler, JAX): \"Could not load "
			   "dynamic library '%s'\"; where another folder on "
			   "the loader's path has one, that copy, from "
			   "another release, loads instead: \"incompatible "
			   "libcupti version\"",
			   soname);
		if (act->cupti) {
			buf_adds(&d.fix, "cuenv install ");
			shell_quote_word(&d.fix, act->cuda->version);
			buf_adds(&d.fix, " --cupti ");
			shell_quote_word(&d.fix, act->cupti->version);
			buf_adds(&d.fix, " (the CUPTI-only install is "
					 "incomplete: remove its folder "
					 "first)");
		} else {
			buf_adds(&d.fix, "cuenv install ");
			shell_quote_word(&d.fix, act->cuda->version);
			buf_printf(&d.fix, " --cupti %s && ", mm.data);
			doctor_setter(au, &d.fix);
			buf_adds(&d.fix, " ");
			shell_quote_word(&d.fix, au->a->sel.cuda);
			if (au->a->sel.cudnn) {
				buf_adds(&d.fix, " --cudnn ");
				shell_quote_word(&d.fix, au->a->sel.cudnn);
			}
			buf_printf(&d.fix, " --cupti %s", mm.data);
		}
		buf_release(&mm);
	} else if (!strcmp(stem, "cudnn")) {
		buf_printf(&d.why,
			   "frameworks load cuDNN by this name: \"%s: cannot "
			   "open shared object file\", \"Could not load "
			   "dynamic library '%s'\"",
			   soname, soname);
		doctor_reinstall(in, act->cuda->version, &d.fix);
	} else {
		buf_printf(&d.why,
			   "every CUDA program and framework loads the runtime "
			   "by this name: \"Could not load dynamic library "
			   "'%s'\" (TensorFlow then runs without the GPU), "
			   "\"%s: cannot open shared object file\"",
			   soname, soname);
		doctor_reinstall(in, act->cuda->version, &d.fix);
	}
	doctor_emit(au->out, "missing-soname", DOCTOR_PROBLEM, &d);
}

void doctor_check_sonames(struct audit *au)
{
	const struct active *act = &au->a->act;
	struct strv absent = STRV_INIT;
	char *want;

	if (!au->a->ok)
		return;
	want = detect_soname("cudart", act->cuda->version);
	if (want && !doctor_provides(au, want)) {
		strv_push(&au->missing, want);
		missing_soname(au, want, act->cuda, "cudart");
	}
	free(want);
	want = detect_soname("cupti", act->cupti ? act->cupti->version
						 : act->cuda->version);
	if (want && !doctor_provides(au, want)) {
		strv_push(&au->missing, want);
		missing_soname(au, want, act->cupti ? act->cupti : act->cuda,
			       "cupti");
	}
	free(want);
	if (act->cudnn) {
		want = detect_soname("cudnn", act->cudnn->version);
		if (want && !doctor_provides(au, want)) {
			strv_push(&au->missing, want);
			missing_soname(au, want, act->cudnn, "cudnn");
		}
		free(want);
	}
	/* What frameworks load beside: a runtime-only or partial install. */
	for (int i = 0; i < 2; i++) {
		want = detect_soname(i ? "cublasLt" : "cublas",
				     act->cuda->version);
		if (want && !doctor_provides(au, want)) {
			strv_push(&au->missing, want);
			strv_push(&absent, want);
		}
		free(want);
	}
	/* The math libraries frameworks load by name (nvlib.h's table). */
	for (int id = 0; id < NVLIB_COUNT; id++) {
		const struct nvlib *e = nvlib_get((enum nvlib_id)id);
		int found = 0;

		if (!(e->flags & NVLIB_MATH))
			continue;
		for (size_t j = 0; j < au->provides.n && !found; j++)
			found = nvlib_match_file(au->provides.v[j], NULL) == e;
		if (!found) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "lib%s.so.*", e->stem);
			strv_push_take(&absent, buf_detach(&b));
		}
	}
	if (absent.n) {
		struct draft d = DRAFT_INIT;

		buf_printf(&d.what, "the selection (%s) has no ",
			   au->label.data);
		doctor_list(&d.what, &absent);
		buf_adds(&d.why,
			 "TensorFlow loads cuBLAS, cuFFT, cuRAND, "
			 "cuSOLVER and cuSPARSE at start-up (\"Could "
			 "not load dynamic library 'libcublas.so...'\") "
			 "and leaves the GPU unused when one is "
			 "missing; PyTorch and JAX need them for the "
			 "operations that use them; the loader cache "
			 "or another folder may also fill the gap with "
			 "another release's copy");
		doctor_reinstall(act->cuda, act->cuda->version, &d.fix);
		buf_adds(&d.fix, " (a toolkit with its default components)");
		for (size_t i = 0; i < au->dirs.n; i++)
			strv_push(&d.paths, au->dirs.v[i]);
		doctor_emit(au->out, "missing-libraries", DOCTOR_WARNING, &d);
	}
	strv_release(&absent);
}

/* ---- cuDNN built for another CUDA --------------------------------------- */

void doctor_check_cudnn(struct audit *au)
{
	const struct active *act = &au->a->act;
	struct buf file = BUF_INIT;
	struct draft d = DRAFT_INIT;
	unsigned want, built;

	if (!au->a->ok || !act->cudnn)
		return;
	want = act->cuda->cuda_major;
	built = detect_cudnn_libs_major(act->cudnn, CUDNN_FILES_MAX,
					CUDNN_FILE_MAX, &file);
	if (built && built != want) {
		buf_printf(&d.what,
			   "cudnn %s (at %s) is recorded as built for CUDA "
			   "%u, but its libraries load CUDA %u libraries "
			   "(%s names libcublasLt.so.%u or the like); the "
			   "selected runtime is cuda %s, CUDA %u",
			   act->cudnn->version, act->cudnn->prefix,
			   act->cudnn->cuda_major, built, file.data, built,
			   act->cuda->version, want);
		strv_push(&d.paths, file.data);
	} else if (act->cudnn->cuda_major && act->cudnn->cuda_major != want) {
		built = act->cudnn->cuda_major;
		buf_printf(&d.what,
			   "cudnn %s (at %s) was built for CUDA %u (its "
			   "receipt's cuda_major), but the selected runtime "
			   "is cuda %s, CUDA %u",
			   act->cudnn->version, act->cudnn->prefix, built,
			   act->cuda->version, want);
	} else {
		buf_release(&file);
		return;
	}
	buf_printf(&d.why,
		   "a cuDNN build belongs to one CUDA major: this one loads "
		   "libcublasLt.so.%u and the CUDA %u runtime, which CUDA %u "
		   "does not provide, so frameworks stop with \"Could not "
		   "load dynamic library 'libcublasLt.so.%u'\" or fail at "
		   "their first convolution (CUDNN_STATUS_NOT_INITIALIZED, "
		   "CUDNN_STATUS_EXECUTION_FAILED)",
		   built, built, want, built);
	buf_adds(&d.fix, "cuenv install ");
	shell_quote_word(&d.fix, act->cuda->version);
	buf_adds(&d.fix, " --cudnn ");
	shell_quote_word(&d.fix, au->a->sel.cudnn ? au->a->sel.cudnn
						  : act->cudnn->version);
	buf_printf(&d.fix, " (the cuDNN build for CUDA %u)", want);
	if (act->cudnn->registered) {
		buf_adds(&d.fix, "; and register this one for what it is: "
				 "cuenv remove cudnn ");
		shell_quote_word(&d.fix, act->cudnn->name);
		buf_adds(&d.fix, " && cuenv add cudnn ");
		shell_quote_word(&d.fix, act->cudnn->prefix);
		buf_printf(&d.fix, " --cuda %u", built);
	}
	strv_push(&d.paths, act->cudnn->prefix);
	strv_push(&d.paths, act->cuda->prefix);
	doctor_emit(au->out, "cudnn-cuda-mismatch", DOCTOR_PROBLEM, &d);
	buf_release(&file);
}
