/*
 * doctor_pip.c: doctor's checks of the CUDA libraries frameworks bring
 * themselves: NVIDIA's pip wheels in Python's site-packages (and wheels
 * of two CUDA majors mixed there), and the libraries of a conda
 * environment.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store/detect.h"
#include "plat/plat_path.h"
#include "doctor/doctor_int.h"
#include "nvidia/nvlib.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

#define RECORD_MAX (8u << 20) /* a wheel's RECORD file */
#define META_MAX (32u << 20)  /* a conda-meta/<package>.json file */

/* ---- frameworks' own copies: pip wheels and conda ----------------------- */

/* What a group of bundled libraries is, against the selection. */
struct bundle {
	struct strv pkgs;  /* "nvidia-cudnn-cu11 8.9.2.26" */
	struct strv names; /* package names alone, for the fix */
	struct strv libs;  /* library file names */
	struct strv dirs;  /* the lib folders */
	unsigned major;	   /* CUDA major they are built for, or 0 */
	char *cuda;	   /* the CUDA version they carry ("11.8"), or NULL */
	char *cudnn;	   /* the cuDNN version ("8.9"), or NULL */
};

/*
 * Before a command that selects CUDA cuda (and cuDNN cudnn, or NULL):
 * "cuenv install CUDA [--cudnn V] && " for what is not installed, when
 * the catalogue has it. When it has not, b gets the manual step instead
 * and false is returned: a fix is a command that works as printed from
 * the current state, or says that it is not one.
 */
static bool add_get_first(const struct audit *au, const char *cuda,
			  const char *cudnn, struct buf *b)
{
	const struct store_version *have = select_pick(&au->a->cudas, cuda, 0);
	const struct release *r;
	unsigned major;

	if (have &&
	    (!cudnn || select_pick(&au->a->cudnns, cudnn, have->cuda_major)))
		return true;
	r = au->in->cat ? catalog_find(au->in->cat, KIT_CUDA, cuda, 0, -1)
			: NULL;
	major = have ? have->cuda_major : r ? r->cuda_major : 0;
	if (!au->in->cat ||
	    (r && (!cudnn ||
		   catalog_find(au->in->cat, KIT_CUDNN, cudnn, major, -1)))) {
		buf_adds(b, "cuenv install ");
		shell_quote_word(b, cuda);
		if (cudnn) {
			buf_adds(b, " --cudnn ");
			shell_quote_word(b, cudnn);
		}
		buf_adds(b, " && ");
		return true;
	}
	buf_printf(b,
		   "CUDA %s%s%s is neither installed nor in cuenv's "
		   "catalogue (cuenv list-remote lists it), so by hand: "
		   "register what you have (cuenv add cuda PATH, cuenv add "
		   "cudnn PATH), then: ",
		   cuda, cudnn ? " with cuDNN " : "", cudnn ? cudnn : "");
	return false;
}

/* The N of the first libcudnn.so.N in libs, or 0. */
static unsigned cudnn_soname_major(const struct strv *libs)
{
	for (size_t i = 0; i < libs->n; i++) {
		const char *v =
			nvlib_so_version(nvlib_get(NVLIB_CUDNN), libs->v[i]);

		if (v && *v >= '1' && *v <= '9')
			return (unsigned)strtoul(v, NULL, 10);
	}
	return 0;
}

static void bundle_release(struct bundle *b)
{
	strv_release(&b->pkgs);
	strv_release(&b->names);
	strv_release(&b->libs);
	strv_release(&b->dirs);
	free(b->cuda);
	free(b->cudnn);
}

/* Note package name (pip or conda spelling) at version in b. */
static void bundle_package(struct bundle *b, const char *name,
			   const char *version)
{
	struct buf p = BUF_INIT, mm = BUF_INIT;
	const char *cu = strstr(name, "-cu");

	if (strv_find(&b->names, name) >= 0)
		return;
	strv_push(&b->names, name);
	buf_printf(&p, "%s %s", name, version);
	strv_push_take(&b->pkgs, buf_detach(&p));
	if (cu && cu[3] >= '1' && cu[3] <= '9' && !b->major)
		b->major = (unsigned)strtoul(cu + 3, NULL, 10);
	version_major_minor(version, &mm);
	if (version_is_valid(version) &&
	    (strstr(name, "cuda-runtime") || strstr(name, "cuda-cudart") ||
	     !strcmp(name, "cudatoolkit")) &&
	    !b->cuda)
		b->cuda = xstrdup(mm.data);
	if (version_is_valid(version) && strstr(name, "cudnn") && !b->cudnn)
		b->cudnn = xstrdup(mm.data);
	buf_release(&mm);
}

/* Finish: the major from the sonames when the names did not say. */
static void bundle_done(struct bundle *b)
{
	if (!b->major)
		b->major = doctor_libs_major(&b->libs);
	if (!b->major && b->cuda)
		b->major = (unsigned)strtoul(b->cuda, NULL, 10);
	if (!b->cuda && b->major) {
		struct buf v = BUF_INIT;

		buf_printf(&v, "%u", b->major);
		b->cuda = buf_detach(&v);
	}
	if (!b->cudnn) {
		unsigned m = cudnn_soname_major(&b->libs);

		if (m) {
			struct buf v = BUF_INIT;

			buf_printf(&v, "%u", m);
			b->cudnn = buf_detach(&v);
		}
	}
}

/*
 * How much a bundle matters: a different CUDA major from the selection's
 * is a problem (two majors end up in one process), a different cuDNN
 * major a warning, the rest information.
 */
static enum doctor_severity bundle_severity(const struct audit *au,
					    const struct bundle *b)
{
	const struct active *act = &au->a->act;

	if (!au->a->ok)
		return DOCTOR_INFO;
	if (b->major && b->major != act->cuda->cuda_major)
		return DOCTOR_PROBLEM;
	if (act->cudnn && b->cudnn &&
	    strtoul(b->cudnn, NULL, 10) !=
		    strtoul(act->cudnn->version, NULL, 10))
		return DOCTOR_WARNING;
	return DOCTOR_INFO;
}

static void add_bundle_why(const struct audit *au, const struct bundle *b,
			   enum doctor_severity sev, const char *how,
			   struct buf *why)
{
	const struct active *act = &au->a->act;

	buf_printf(why, "frameworks installed there %s", how);
	if (sev == DOCTOR_PROBLEM) {
		buf_printf(why,
			   ": they run on CUDA %u from here, not on the "
			   "selection's CUDA %u, and a soname missing here "
			   "comes from the selection, another major: "
			   "\"libcublasLt.so.%u: cannot open shared object "
			   "file\", \"libcudnn.so.N: cannot open shared "
			   "object file\", or two CUDA runtimes in one process",
			   b->major, act->cuda->cuda_major, b->major);
	} else if (sev == DOCTOR_WARNING) {
		buf_printf(why,
			   ": they load cuDNN %s from here while the "
			   "selection has cuDNN %s, and a library that "
			   "reaches the selection's copy mixes the two",
			   b->cudnn, act->cudnn->version);
	}
}

static void add_select_bundle(const struct audit *au, const struct bundle *b,
			      struct buf *fix)
{
	if (!au->a->ok || !b->cuda)
		return;
	buf_adds(fix, "; or select what they are built for: ");
	add_get_first(au, b->cuda, b->cudnn, fix);
	doctor_setter(au, fix);
	buf_adds(fix, " ");
	shell_quote_word(fix, b->cuda);
	if (b->cudnn) {
		buf_adds(fix, " --cudnn ");
		shell_quote_word(fix, b->cudnn);
	}
}

/* "nvidia_cudnn_cu11-8.9.2.26.dist-info" -> name "nvidia-cudnn-cu11" */
static int dist_info_name(const char *entry, struct buf *name,
			  struct buf *version)
{
	size_t n = strlen(entry);
	const char *dash = strchr(entry, '-');
	static const char sfx[] = ".dist-info";

	if (strncmp(entry, "nvidia_", 7) || n < sizeof(sfx) ||
	    strcmp(entry + n - (sizeof(sfx) - 1), sfx) || !dash)
		return 0;
	buf_reset(name);
	buf_reset(version);
	for (const char *p = entry; p < dash; p++)
		buf_addc(name, *p == '_' ? '-' : *p);
	buf_add(version, dash + 1,
		(size_t)(entry + n - (sizeof(sfx) - 1) - (dash + 1)));
	return 1;
}

/* The wheels whose RECORD lists files under nvidia/<sub>/lib/. */
static void wheels_for(const char *site, const char *sub, struct bundle *b)
{
	struct plat_dir *d = plat_opendir(site);
	const char *ent;
	struct buf name = BUF_INIT, version = BUF_INIT, want = BUF_INIT;

	buf_printf(&want, "nvidia/%s/lib/", sub);
	while (d && (ent = plat_readdir(d))) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf rec = BUF_INIT, text = BUF_INIT;

		if (!dist_info_name(ent, &name, &version))
			continue;
		buf_path(&rec, site, ent);
		buf_path(&rec, rec.data, "RECORD");
		if (!file_read(rec.data, RECORD_MAX, FILE_MAY_BE_MISSING, &text,
			       &err)) {
			const char *p = text.data;

			while ((p = strstr(p, want.data))) {
				if (p == text.data || p[-1] == '\n') {
					bundle_package(b, name.data,
						       version.data);
					break;
				}
				p += want.len;
			}
		}
		buf_release(&rec);
		buf_release(&text);
		err_release(&err);
	}
	if (d)
		plat_closedir(d);
	buf_release(&name);
	buf_release(&version);
	buf_release(&want);
}

/* "CUDA 11 and 12 " for the majors in mask. */
static void add_majors(struct buf *b, unsigned long mask)
{
	unsigned n = detect_count_majors(mask), k = 0;

	buf_adds(b, "CUDA ");
	for (unsigned m = 0; m < 8 * sizeof(mask); m++) {
		if (!(mask & 1UL << m))
			continue;
		k++;
		buf_printf(b, "%u%s", m,
			   k == n	? " "
			   : k + 1 == n ? " and "
					: ", ");
	}
}

/*
 * NVIDIA wheels of two CUDA majors in one site-packages: pip put both in
 * the same nvidia/<pkg>/lib, and the files both RECORDs list now hold one
 * release's copy beside the other's libraries.
 */
static void check_mixed_wheels(struct audit *au, const char *site,
			       const struct wheel_mix *mix)
{
	struct draft d = DRAFT_INIT;
	const char *python = au->in->python ? au->in->python : "python3";

	buf_adds(&d.what, "Python's ");
	buf_add_display(&d.what, site, 4096);
	buf_adds(&d.what, " mixes NVIDIA's wheels of ");
	add_majors(&d.what, mix->majors);
	buf_setlen(&d.what, d.what.len - 1);
	buf_adds(&d.what, ": ");
	doctor_list(&d.what, &mix->wheels);
	if (mix->shared.n) {
		buf_adds(&d.what, "; files two of them install at the same "
				  "path, so one overwrote the other's: ");
		for (size_t i = 0; i < mix->shared.n; i++)
			buf_printf(&d.what, "%s%s (%s)", i ? ", " : "",
				   mix->shared.v[i], mix->owners.v[i]);
	}
	buf_adds(&d.why,
		 "pip installs every nvidia-*-cuNN wheel into the same "
		 "nvidia/<name>/lib folders without a conflict check: what a "
		 "framework loads from there is one release's libraries with "
		 "another release's helpers (libnvperf_host.so of CUDA 11.8 "
		 "beside libcupti.so.12), which fails at run time "
		 "(\"incompatible libcupti version\", CUPTI_ERROR_UNKNOWN in "
		 "the profiler) and uninstalling either wheel deletes files "
		 "the other needs");
	buf_printf(&d.fix,
		   "by hand, as pip cannot repair it in place: %s -m pip "
		   "uninstall the wheels of the major you do not want, then "
		   "%s -m pip install --force-reinstall those of the one you "
		   "keep",
		   python, python);
	strv_push(&d.paths, site);
	doctor_emit(au->out, "pip-wheels-mixed", DOCTOR_PROBLEM, &d);
}

static void check_site(struct audit *au, const char *site)
{
	struct buf nv = BUF_INIT;
	struct wheel_mix mix = { 0 };
	bool mixed;
	struct bundle b = { 0 };
	struct draft d = DRAFT_INIT;
	struct plat_dir *dir;
	const char *ent;
	enum doctor_severity sev;
	bool modelled;
	const char *python = au->in->python ? au->in->python : "python3";

	buf_path(&nv, site, "nvidia");
	dir = plat_opendir(nv.data);
	while (dir && (ent = plat_readdir(dir))) {
		struct buf lib = BUF_INIT;
		struct strv libs = STRV_INIT;

		if (ent[0] == '.')
			continue;
		buf_path(&lib, nv.data, ent);
		buf_path(&lib, lib.data, "lib");
		doctor_cuda_libs(lib.data, &libs);
		if (libs.n) {
			size_t before = b.names.n;

			strv_push(&b.dirs, lib.data);
			for (size_t i = 0; i < libs.n; i++)
				doctor_push_unique(&b.libs, libs.v[i]);
			wheels_for(site, ent, &b);
			if (b.names.n == before) {
				struct buf guess = BUF_INIT;

				buf_printf(&guess, "nvidia/%s", ent);
				bundle_package(&b, guess.data, "(no RECORD)");
				buf_release(&guess);
			}
		}
		buf_release(&lib);
		strv_release(&libs);
	}
	if (dir)
		plat_closedir(dir);
	if (!b.libs.n)
		goto out;
	bundle_done(&b);
	mixed = detect_wheel_mix(site, &mix);
	if (mixed) {
		check_mixed_wheels(au, site, &mix);
		/* Not one major: judged against the selection's, when
		 * among them (the mix is a finding of its own). */
		if (au->a->ok &&
		    (mix.majors & 1UL << au->a->act.cuda->cuda_major))
			b.major = au->a->act.cuda->cuda_major;
	}
	modelled = doctor_python_modelled(au, site);
	/* where the loader model judges what the framework loads, its
	 * python-* findings say whether anything breaks */
	sev = modelled ? DOCTOR_INFO : bundle_severity(au, &b);
	buf_adds(&d.what, "Python's ");
	buf_add_display(&d.what, site, 4096);
	buf_printf(&d.what, " (%s) holds NVIDIA's ", python);
	if (mixed)
		add_majors(&d.what, mix.majors);
	else if (b.major)
		buf_printf(&d.what, "CUDA %u ", b.major);
	buf_adds(&d.what, "wheels: ");
	doctor_list(&d.what, &b.pkgs);
	buf_adds(&d.what, " (");
	doctor_list(&d.what, &b.libs);
	buf_adds(&d.what, ")");
	add_bundle_why(au, &b, sev,
		       "(PyTorch, TensorFlow's and-cuda, JAX) find these "
		       "through their own DT_RPATH ($ORIGIN/../../nvidia/*/lib, "
		       "searched before LD_LIBRARY_PATH) or load them by "
		       "path; but the wheels' libraries carry DT_RUNPATH "
		       "($ORIGIN), searched after LD_LIBRARY_PATH, so what "
		       "they load in turn (nvJitLink under cuSPARSE, cuDNN's "
		       "sub-libraries) comes from LD_LIBRARY_PATH first, a "
		       "selection's when one is active",
		       &d.why);
	if (modelled) {
		buf_adds(&d.why, "; the loader model's verdict on what the "
				 "framework loads is in the python-* "
				 "findings");
	} else if (sev != DOCTOR_INFO) {
		/* never uninstall them: a framework from the index is not
		 * built to use any other CUDA than its wheels */
		buf_adds(&d.fix, "install the framework's build for the "
				 "selected CUDA");
		add_select_bundle(au, &b, &d.fix);
	}
	for (size_t i = 0; i < b.dirs.n; i++)
		strv_push(&d.paths, b.dirs.v[i]);
	doctor_emit(au->out, "pip-wheels", sev, &d);
out:
	wheel_mix_release(&mix);
	bundle_release(&b);
	buf_release(&nv);
}

void doctor_check_wheels(struct audit *au)
{
	struct strv seen = STRV_INIT;

	if (!au->in->site_dirs)
		return;
	for (size_t i = 0; i < au->in->site_dirs->n; i++) {
		const char *site = au->in->site_dirs->v[i];
		char *real = plat_realpath(site);

		if (!real)
			continue;
		if (strv_find(&seen, real) < 0) {
			strv_push(&seen, real);
			check_site(au, site);
		}
		free(real);
	}
	strv_release(&seen);
}

/* Conda packages (conda-meta/NAME.json) with files among lib/<libs>. */
static void conda_packages(const char *prefix, struct bundle *b)
{
	struct buf meta = BUF_INIT;
	struct plat_dir *d;
	const char *ent;

	buf_path(&meta, prefix, "conda-meta");
	d = plat_opendir(meta.data);
	while (d && (ent = plat_readdir(d))) {
		struct buf p = BUF_INIT, text = BUF_INIT;
		struct cuenv_err e = CUENV_ERR_INIT;
		json_t *j = NULL, *files, *f;
		size_t n = strlen(ent), i;
		const char *name, *version;
		int hit = 0;

		if (n < 6 || strcmp(ent + n - 5, ".json"))
			continue;
		/* one that is not a file, or too large, is passed over */
		buf_path(&p, meta.data, ent);
		if (!file_read(p.data, META_MAX, FILE_MAY_BE_MISSING, &text,
			       &e))
			j = json_loadb(text.data, text.len, 0, NULL);
		err_release(&e);
		buf_release(&p);
		buf_release(&text);
		files = j ? json_object_get(j, "files") : NULL;
		name = j ? json_string_value(json_object_get(j, "name")) : NULL;
		version = j ? json_string_value(json_object_get(j, "version"))
			    : NULL;
		json_array_foreach(files, i, f) {
			const char *s = json_string_value(f);

			if (!hit && s && !strncmp(s, "lib/", 4) &&
			    strv_find(&b->libs, s + 4) >= 0)
				hit = 1;
		}
		if (hit && name)
			bundle_package(b, name, version ? version : "?");
		json_decref(j);
	}
	if (d)
		plat_closedir(d);
	buf_release(&meta);
}

void doctor_check_conda(struct audit *au)
{
	const char *prefix = envmap_get(au->in->env, "CONDA_PREFIX");
	struct bundle b = { 0 };
	struct buf lib = BUF_INIT;
	struct draft d = DRAFT_INIT;
	enum doctor_severity sev;
	char *real;

	if (!prefix || prefix[0] != '/')
		return;
	buf_path(&lib, prefix, "lib");
	real = plat_realpath(lib.data);
	if (real && strv_find(&au->real_dirs, real) < 0)
		doctor_cuda_libs(lib.data, &b.libs);
	free(real);
	if (!b.libs.n)
		goto out;
	conda_packages(prefix, &b);
	bundle_done(&b);
	sev = bundle_severity(au, &b);
	buf_adds(&d.what, "the conda environment ");
	buf_add_display(&d.what, prefix, 4096);
	buf_adds(&d.what, " has ");
	if (b.major)
		buf_printf(&d.what, "CUDA %u ", b.major);
	buf_adds(&d.what, "libraries in lib/: ");
	doctor_list(&d.what, &b.libs);
	if (b.pkgs.n) {
		buf_adds(&d.what, " (from ");
		doctor_list(&d.what, &b.pkgs);
		buf_adds(&d.what, ")");
	}
	add_bundle_why(au, &b, sev,
		       "find these through their RPATH ($ORIGIN/../lib)",
		       &d.why);
	if (b.names.n) {
		buf_adds(&d.fix, "conda remove");
		for (size_t i = 0; i < b.names.n; i++) {
			buf_adds(&d.fix, " ");
			shell_quote_word(&d.fix, b.names.v[i]);
		}
		buf_adds(&d.fix,
			 ", or leave the environment: conda deactivate");
	} else {
		buf_adds(&d.fix, "leave the environment: conda deactivate");
	}
	add_select_bundle(au, &b, &d.fix);
	strv_push(&d.paths, lib.data);
	doctor_emit(au->out, "conda-prefix", sev, &d);
out:
	bundle_release(&b);
	buf_release(&lib);
}
