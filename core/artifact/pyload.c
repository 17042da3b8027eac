/*
 * pyload.c: what a Python environment's frameworks load (see pyload.h).
 */
#include "artifact/pyload.h"
#include "artifact/pyobs.h"
#include "artifact/pysrc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/plat_path.h"
#include "plat/file.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

#define RECORD_MAX (8u << 20)	/* a wheel's RECORD file */
#define METADATA_MAX (4u << 20) /* its METADATA, top_level.txt */

/* ---- frameworks --------------------------------------------------------- */

void pyload_fws_release(struct pyload_fws *f)
{
	for (size_t i = 0; i < f->n; i++) {
		FREE_EACH(f->v[i].name, f->v[i].site, f->v[i].dlopener);
		STRV_RELEASE_EACH(&f->v[i].entries, &f->v[i].dlnames);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static bool is_file(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type == PLAT_F_REG;
}

/* site/dir's files named prefix*suffix, sorted, as paths into out. */
static void files_like(const char *site, const char *dir, const char *prefix,
		       const char *suffix, struct strv *out)
{
	struct buf d = BUF_INIT, p = BUF_INIT;
	struct strv names = STRV_INIT;
	struct plat_dir *pd;
	const char *ent;
	size_t ns = strlen(suffix);

	buf_path(&d, site, dir);
	pd = plat_opendir(d.data);
	while (pd && (ent = plat_readdir(pd))) {
		size_t n = strlen(ent);

		if (!strncmp(ent, prefix, strlen(prefix)) && n > ns &&
		    !strcmp(ent + n - ns, suffix))
			strv_push(&names, ent);
	}
	if (pd)
		plat_closedir(pd);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&p);
		buf_path(&p, d.data, names.v[i]);
		if (is_file(p.data))
			strv_push(out, p.data);
	}
	strv_release(&names);
	BUF_RELEASE_EACH(&d, &p);
}

/*
 * The sonames of the NVIDIA wheels' front libraries in site: each file
 * site/nvidia/NAME/lib/lib<stem>.so.<version> of a library frameworks
 * load by name (NVLIB_FRAMEWORK), not a family's sub-library
 * (libcudnn_ops.so.9 is its front library's to load). The CUDA runtime
 * first, then by name.
 */
static void wheel_fronts(const char *site, struct strv *out)
{
	struct buf nv = BUF_INIT, lib = BUF_INIT;
	struct strv dirs = STRV_INIT, names = STRV_INIT;
	struct plat_dir *d;
	const char *ent;

	buf_path(&nv, site, "nvidia");
	d = plat_opendir(nv.data);
	while (d && (ent = plat_readdir(d)))
		if (*ent != '.')
			strv_push(&dirs, ent);
	if (d)
		plat_closedir(d);
	for (size_t i = 0; i < dirs.n; i++) {
		buf_reset(&lib);
		buf_path(&lib, nv.data, dirs.v[i]);
		buf_path(&lib, lib.data, "lib");
		d = plat_opendir(lib.data);
		while (d && (ent = plat_readdir(d))) {
			const char *ver;
			const struct nvlib *e = nvlib_match_file(ent, &ver);
			size_t ns = e ? strlen(e->stem) : 0;

			if (e && (e->flags & NVLIB_FRAMEWORK) && *ver &&
			    !strncmp(ent, "lib", 3) &&
			    !strncmp(ent + 3, e->stem, ns) &&
			    !strncmp(ent + 3 + ns, ".so.", 4) &&
			    !strchr(ver, '.'))
				strv_push(&names, ent);
		}
		if (d)
			plat_closedir(d);
	}
	strv_sort(&names);
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < names.n; i++)
			if ((nvlib_match_file(names.v[i], NULL)->id ==
			     NVLIB_CUDART) == !pass &&
			    strv_find(out, names.v[i]) < 0)
				strv_push(out, names.v[i]);
	STRV_RELEASE_EACH(&dirs, &names);
	BUF_RELEASE_EACH(&nv, &lib);
}

/*
 * What each framework's files are (paths under site-packages; "*" in a
 * file name is any text, the matches sorted):
 *
 * torch: `import torch` loads torch/lib/libtorch_global_deps.so (with
 * RTLD_GLOBAL, torch/__init__.py's _load_global_deps) and then its _C
 * extension, whose DT_NEEDED closure holds libtorch_cuda.so (CUDA 11 and
 * 12 builds alike) and every CUDA library it uses. torch 1.13 to 2.0
 * also dlopen torch/lib/libnvfuser_codegen.so at import (libtorch_cuda's
 * static initialiser; found through libtorch.so's RPATH, $ORIGIN), which
 * needs NVRTC (libnvrtc.so.11.2 in 2.0.1, from the wheel by its RPATH).
 *
 * TensorFlow: `import tensorflow` loads _pywrap_tensorflow_internal.so,
 * which needs libtensorflow_cc.so.2 and libtensorflow_framework.so.2;
 * the framework library's DSO loader dlopens the CUDA libraries by name
 * (the runtime at import, to count devices; the rest when a GPU is set
 * up), with the framework library's RUNPATH.
 *
 * JAX: its CUDA plugin (jax_plugins/xla_cudaNN/xla_cuda_plugin.so, with
 * DT_RPATH into the wheels) and the plugin's extension modules carry no
 * CUDA DT_NEEDED entry; the plugin dlopens every CUDA library when a GPU
 * client is made.
 *
 * Paddle: `import paddle` loads paddle/base/libpaddle.so (2.6; 2.5's is
 * paddle/fluid/), which needs libphi.so; the CUDA runtime is linked in,
 * and libphi's dynamic loader (phi/backends/dynload/dynamic_loader.cc)
 * dlopens the other libraries by their plain names (libcublas.so,
 * libcudnn.so: its names are built in code, no file carries them),
 * first by LD_LIBRARY_PATH and the loader cache, then
 * /usr/local/cuda/lib64. Its CUDA is what paddle/version/__init__.py
 * says (cuda_version = '11.8'; 'False' in a CPU build). A build for
 * NVIDIA's wheels dlopens their sonames instead: the wheels' fronts.
 */
struct fw_kind {
	const char *name;	    /* what is imported */
	const char *calls;	    /* its own preload (pyobs.h) */
	const char *marker;	    /* a file only a CUDA build has */
	const char *entries[3][2];  /* folder, file pattern */
	const char *dlopener;	    /* the object calling dlopen, or NULL */
	size_t at_import;	    /* dlnames loaded by the import */
	const enum nvlib_id *plain; /* the libraries it dlopens by their
				       link names (nvlib's so) when no
				       wheel's front library is there,
				       ending with NVLIB_COUNT; or NULL */
	const char *stated;	    /* the file saying its CUDA, or NULL */
};

/* What Paddle 2.6's dynamic loader raises on when it cannot load it,
 * and cuDNN. */
static const enum nvlib_id paddle_plain[] = { NVLIB_CUBLAS,   NVLIB_CUBLASLT,
					      NVLIB_CUDNN,    NVLIB_CURAND,
					      NVLIB_CUSOLVER, NVLIB_CUSPARSE,
					      NVLIB_CUFFT,    NVLIB_COUNT };

static const struct fw_kind fw_kinds[] = {
	{ "torch",
	  "backends.cudnn.version",
	  "torch/lib/libtorch_cuda.so",
	  { { "torch/lib", "libtorch_global_deps.so" },
	    { "torch", "_C.*.so" },
	    { "torch/lib", "libnvfuser_codegen.so" } },
	  NULL,
	  0,
	  NULL,
	  NULL },
	{ "tensorflow",
	  "config.list_physical_devices",
	  "tensorflow/libtensorflow_framework.so.2",
	  { { "tensorflow/python", "_pywrap_tensorflow_internal.so" } },
	  "tensorflow/libtensorflow_framework.so.2",
	  1,
	  NULL,
	  NULL },
	{ "jax",
	  "devices",
	  "jax_plugins/xla_cuda12/xla_cuda_plugin.so",
	  { { "jax_plugins/xla_cuda12", "xla_cuda_plugin.so" },
	    { "jax_cuda12_plugin", "*.so" } },
	  "jax_plugins/xla_cuda12/xla_cuda_plugin.so",
	  0,
	  NULL,
	  NULL },
	{ "jax",
	  "devices",
	  "jax_plugins/xla_cuda11/xla_cuda_plugin.so",
	  { { "jax_plugins/xla_cuda11", "xla_cuda_plugin.so" },
	    { "jax_cuda11_plugin", "*.so" } },
	  "jax_plugins/xla_cuda11/xla_cuda_plugin.so",
	  0,
	  NULL,
	  NULL },
	{ "paddle",
	  "device.get_cudnn_version",
	  "paddle/version/__init__.py",
	  { { "paddle/base", "libpaddle.so" },
	    { "paddle/fluid", "libpaddle.so" } },
	  "paddle/libs/libphi.so",
	  0,
	  paddle_plain,
	  "paddle/version/__init__.py" },
};

/* A version file is a few kB (Paddle's: 4 kB); more is not one. */
#define PYLOAD_STATED_MAX (1u << 16)

/* The CUDA majors (a mask) the Python file rel under site says its
 * build has (cuda_version = '11.8'); 0 when it says none ('False'). */
static unsigned long stated_majors(const char *site, const char *rel)
{
	struct buf p = BUF_INIT, text = BUF_INIT, v = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	unsigned long m = 0, major;

	buf_path(&p, site, rel);
	if (file_read(p.data, PYLOAD_STATED_MAX, FILE_MAY_BE_MISSING, &text,
		      &err) == CUENV_OK &&
	    pysrc_value(text.data, text.len, "cuda_version", &v) &&
	    (major = version_major(v.data)) > 0 && major < 64)
		m = 1ul << major;
	BUF_RELEASE_EACH(&p, &text, &v);
	err_release(&err);
	return m;
}

static void find_kind(const char *site, const struct fw_kind *k,
		      struct pyload_fws *out)
{
	struct buf p = BUF_INIT;
	struct pyload_fw fw = { .calls = k->calls };

	buf_path(&p, site, k->marker);
	if (!is_file(p.data))
		goto out;
	for (size_t i = 0; i < 3 && k->entries[i][0]; i++) {
		const char *pat = k->entries[i][1], *star = strchr(pat, '*');
		char *prefix;

		if (!star) { /* one file by its name */
			buf_reset(&p);
			buf_path(&p, site, k->entries[i][0]);
			buf_path(&p, p.data, pat);
			if (is_file(p.data))
				strv_push(&fw.entries, p.data);
			continue;
		}
		prefix = xstrndup(pat, (size_t)(star - pat));
		files_like(site, k->entries[i][0], prefix, star + 1,
			   &fw.entries);
		free(prefix);
	}
	if (!fw.entries.n)
		goto out;
	/* a CPU build says no CUDA */
	if (k->stated && !(fw.stated = stated_majors(site, k->stated)))
		goto out;
	if (k->dlopener) {
		buf_reset(&p);
		buf_path(&p, site, k->dlopener);
		fw.dlopener = buf_detach(&p);
		wheel_fronts(site, &fw.dlnames);
		if (!fw.dlnames.n && k->plain) /* its loader's own names */
			for (size_t i = 0; k->plain[i] != NVLIB_COUNT; i++)
				strv_push(&fw.dlnames,
					  nvlib_get(k->plain[i])->so);
		fw.at_import = k->at_import < fw.dlnames.n ? k->at_import
							   : fw.dlnames.n;
		/* what the import loads is the CUDA runtime, if a wheel has it */
		if (fw.at_import && fw.dlnames.n &&
		    nvlib_match_file(fw.dlnames.v[0], NULL)->id != NVLIB_CUDART)
			fw.at_import = 0;
	}
	fw.name = xstrdup(k->name);
	fw.site = xstrdup(site);
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	out->v[out->n++] = fw;
	memset(&fw, 0, sizeof(fw));
out:
	FREE_EACH(fw.dlopener);
	STRV_RELEASE_EACH(&fw.entries, &fw.dlnames);
	buf_release(&p);
}

/* ---- any other framework ------------------------------------------------ */

/* Does libs/name exist and name a CUDA library other than the driver in
 * its bytes or DT_NEEDED? */
static bool names_cuda(const char *libs, const char *name)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct elf_info e;
	struct buf p = BUF_INIT;
	bool yes = false;

	buf_path(&p, libs, name);
	elf_info_init(&e);
	if (!strchr(name, '/') && is_file(p.data) &&
	    elf_read_file(p.data, &e, &err) == CUENV_OK) {
		for (size_t i = 0; !yes && i < e.cuda_named.n; i++)
			yes = strcmp(e.cuda_named.v[i], NVLIB_DRIVER_SO ".1");
		for (size_t i = 0; !yes && i < e.needed.n; i++)
			yes = nvlib_is_cuda_file(e.needed.v[i]);
	}
	elf_info_release(&e);
	err_release(&err);
	buf_release(&p);
	return yes;
}

/*
 * The DT_NEEDED entries of the ELF file at path into needed (nothing
 * when it is not one): its dynamic section only, not a scan of its bytes.
 */
static void needed_of(const char *path, struct strv *needed)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct elf_info e;
	struct file_map m;

	if (file_map(path, 64, &m, &err) == CUENV_OK &&
	    elf_has_magic(m.data, m.len)) {
		elf_info_init(&e);
		if (!elf_parse_dynamic(m.data, m.len, path, &e, &err))
			for (size_t i = 0; i < e.needed.n; i++)
				strv_push(needed, e.needed.v[i]);
		elf_info_release(&e);
	}
	file_unmap(&m);
	err_release(&err);
}

/*
 * Does the ELF file at path need a CUDA library by DT_NEEDED, or need a
 * library of libs (its package's auditwheel folder, site/PKG.libs, or
 * NULL) whose bytes name one (ctranslate2's _ext needs
 * libctranslate2-HASH.so, which dlopens libcublas.so.12)?
 */
static bool needs_cuda(const char *path, const char *libs)
{
	struct strv needed = STRV_INIT;
	bool yes = false;

	needed_of(path, &needed);
	for (size_t i = 0; !yes && i < needed.n; i++)
		yes = nvlib_is_cuda_file(needed.v[i]) ||
		      (libs && names_cuda(libs, needed.v[i]));
	strv_release(&needed);
	return yes;
}

/* Is name a shared library's file name: "x.so", "x.so.2", "x.cpython-311-x86_64-linux-gnu.so"? */
static bool is_so_name(const char *name)
{
	const char *so = strstr(name, ".so");

	return so && (so[3] == '\0' || so[3] == '.');
}

/* The CUDA-needing ELF files under dir, depth folders down, into out. */
static void scan_package(const char *dir, const char *libs, unsigned depth,
			 size_t *budget, struct strv *out)
{
	struct plat_dir *d = plat_opendir(dir);
	struct strv names = STRV_INIT;
	struct buf p = BUF_INIT;
	const char *ent;

	while (d && (ent = plat_readdir(d)))
		if (*ent != '.' && strcmp(ent, "__pycache__"))
			strv_push(&names, ent);
	if (d)
		plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n && *budget; i++) {
		struct plat_stat st;

		buf_reset(&p);
		buf_path(&p, dir, names.v[i]);
		/* lstat: a link out of the package is not the package's */
		if (plat_lstat(p.data, &st))
			continue;
		(*budget)--;
		if (st.type == PLAT_F_DIR && depth > 1)
			scan_package(p.data, libs, depth - 1, budget, out);
		else if (st.type == PLAT_F_REG && is_so_name(names.v[i]) &&
			 needs_cuda(p.data, libs))
			strv_push(out, p.data);
	}
	strv_release(&names);
	buf_release(&p);
}

/* Is name a package folder Python can import by that name? */
static bool importable(const char *name)
{
	if (!*name || (*name >= '0' && *name <= '9'))
		return false;
	for (const char *c = name; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			return false;
	return strcmp(name, "nvidia") != 0; /* the wheels themselves */
}

/* Does out already hold a framework of site whose files are under pkg? */
static bool known_package(const struct pyload_fws *out, size_t from,
			  const char *pkg)
{
	for (size_t i = from; i < out->n; i++)
		for (size_t k = 0; k < out->v[i].entries.n; k++) {
			const char *e = out->v[i].entries.v[k];
			size_t n = strlen(pkg);

			if (!strncmp(e, pkg, n) && e[n] == '/')
				return true;
		}
	return false;
}

/*
 * The dist-info folder of site whose top_level.txt names pkg (cupy's
 * cupy, cupy_backends and cupyx are one distribution), heap, or NULL.
 */
static char *dist_of(const char *site, const char *pkg)
{
	struct plat_dir *d = plat_opendir(site);
	const char *ent;
	char *found = NULL;

	while (d && !found && (ent = plat_readdir(d))) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf path = BUF_INIT, text = BUF_INIT;
		struct strv lines = STRV_INIT;
		size_t n = strlen(ent);

		if (n > 10 && !strcmp(ent + n - 10, ".dist-info")) {
			buf_path(&path, site, ent);
			buf_path(&path, path.data, "top_level.txt");
			if (!file_read(path.data, METADATA_MAX,
				       FILE_MAY_BE_MISSING, &text, &err) &&
			    text.data) {
				strv_split(&lines, text.data, '\n');
				for (size_t i = 0; !found && i < lines.n; i++)
					if (!strcmp(lines.v[i], pkg))
						found = xstrdup(ent);
			}
		}
		strv_release(&lines);
		BUF_RELEASE_EACH(&path, &text);
		err_release(&err);
	}
	if (d)
		plat_closedir(d);
	return found;
}

static void find_others(const char *site, size_t from, struct pyload_fws *out)
{
	struct plat_dir *d = plat_opendir(site);
	struct strv names = STRV_INIT, dists = STRV_INIT, known = STRV_INIT;
	struct buf p = BUF_INIT;
	const char *ent;
	size_t first = out->n; /* the packages found here */

	/* the known frameworks' distributions: their other packages (torch
	 * 2.0's nvfuser, functorch) are that framework, judged by its import */
	for (size_t i = from; i < first; i++) {
		char *dist = dist_of(site, out->v[i].name);

		if (dist)
			strv_push_take(&known, dist);
	}
	while (d && (ent = plat_readdir(d)))
		if (importable(ent))
			strv_push(&names, ent);
	if (d)
		plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		struct pyload_fw fw = { 0 };
		size_t budget = PYLOAD_SCAN_FILES;
		struct plat_stat st;

		buf_reset(&p);
		buf_path(&p, site, names.v[i]);
		if (plat_lstat(p.data, &st) || st.type != PLAT_F_DIR ||
		    known_package(out, from, p.data))
			continue;
		buf_path(&p, p.data, "__init__.py"); /* a package, not a lib */
		if (!is_file(p.data))
			continue;
		struct buf libs = BUF_INIT;

		buf_reset(&p);
		buf_path(&p, site, names.v[i]);
		buf_printf(&libs, "%s.libs", p.data);
		scan_package(p.data, libs.data, PYLOAD_SCAN_DEPTH, &budget,
			     &fw.entries);
		buf_release(&libs);
		if (!fw.entries.n)
			continue;
		/* another package of a distribution found here: the same
		 * framework, named by its first package */
		char *dist = dist_of(site, names.v[i]);
		long at = dist ? strv_find(&dists, dist) : -1;

		if (dist && strv_find(&known, dist) >= 0) {
			strv_release(&fw.entries);
			free(dist);
			continue;
		}
		if (at >= 0) {
			struct pyload_fw *same = &out->v[first + (size_t)at];

			for (size_t k = 0; k < fw.entries.n; k++)
				strv_push(&same->entries, fw.entries.v[k]);
			strv_release(&fw.entries);
			free(dist);
			continue;
		}
		strv_push_take(&dists, dist ? dist : xstrdup(""));
		fw.name = xstrdup(names.v[i]);
		fw.by_strings = true;
		fw.calls = strcmp(names.v[i], "onnxruntime") ? NULL
							     : "?preload_dlls";
		fw.site = xstrdup(site);
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = fw;
	}
	STRV_RELEASE_EACH(&names, &dists, &known);
	buf_release(&p);
}

void pyload_find(const struct strv *sites, struct pyload_fws *out)
{
	struct strv seen = STRV_INIT;

	for (size_t i = 0; sites && i < sites->n; i++) {
		char *real = plat_realpath(sites->v[i]);

		if (real && strv_find(&seen, real) < 0) {
			size_t from = out->n;

			strv_push(&seen, real);
			for (size_t k = 0;
			     k < sizeof(fw_kinds) / sizeof(*fw_kinds); k++)
				find_kind(sites->v[i], &fw_kinds[k], out);
			find_others(sites->v[i], from, out);
		}
		free(real);
	}
	strv_release(&seen);
}

/* ---- the prediction ----------------------------------------------------- */

/*
 * Is n a copy of lib bundled under auditwheel's name
 * (libcudnn-74a4c495.so.9.1.0: lib<stem>-<8 hex digits>.so...)?
 */
static bool bundled(const char *n, const struct nvlib *lib)
{
	const char *dash = n ? strchr(n, '-') : NULL;
	struct buf plain = BUF_INIT;
	bool same;

	if (!dash || strspn(dash + 1, "0123456789abcdef") != 8 ||
	    strncmp(dash + 9, ".so", 3))
		return false;
	buf_add(&plain, n, (size_t)(dash - n));
	buf_adds(&plain, dash + 9);
	same = nvlib_match_file(plain.data, NULL) == lib;
	buf_release(&plain);
	return same;
}

/*
 * The N of a cuDNN front library's soname libcudnn.so.N, or 0; with
 * bundled_too, also of one a wheel bundles under auditwheel's name
 * (ctranslate2's libcudnn-74a4c495.so.9.1.0, which dlopens its
 * sub-libraries as any cuDNN 9 does).
 */
static unsigned cudnn_front_of(const struct loader_obj *o, bool bundled_too)
{
	const struct nvlib *dnn = nvlib_get(NVLIB_CUDNN);
	const char *s = o->elf.soname, *dash;
	const char *v = s ? nvlib_so_version(dnn, s) : NULL;

	if (!v && bundled_too && bundled(s, dnn) && (dash = strchr(s, '-')))
		v = dash + 9 + 4; /* after "-HASHHASH.so." */
	if (!v || *v < '1' || *v > '9')
		return 0;
	return (unsigned)strtoul(v, NULL, 10);
}

static unsigned cudnn_front(const struct loader_obj *o)
{
	return cudnn_front_of(o, false);
}

/*
 * dlopen(stem.so.M.m.p), then .M.m, then .M, as cuDNN 9's front library
 * does (its own version's parts; .M alone when its version is not
 * known): the first that loads is the sub-library. A name that is not
 * found before the last leaves no miss.
 */
static void dlopen_sub(struct loader *l, size_t front, const char *stem,
		       unsigned major, const char *version, bool exact,
		       bool optional)
{
	struct version v;
	struct buf name = BUF_INIT;
	size_t idx, nmiss;

	if (exact && version && !version_parse(version, &v) && v.n >= 3 &&
	    v.part[0] == major) {
		for (unsigned n = 3; n >= 2; n--) {
			nmiss = l->nmiss;

			buf_reset(&name);
			buf_printf(&name, "%s.so", stem);
			for (unsigned k = 0; k < n; k++)
				buf_printf(&name, ".%lu", v.part[k]);
			if (loader_dlopen(l, front, name.data, &idx) ==
			    CUENV_OK)
				goto out;
			loader_forget_misses(l, nmiss);
		}
	}
	buf_reset(&name);
	buf_printf(&name, "%s.so.%u", stem, major);
	nmiss = l->nmiss;
	/* one that is not there at all is not loaded when a model runs
	 * either: the front library checks for it at its first call */
	if (loader_dlopen(l, front, name.data, &idx) && optional)
		loader_forget_misses(l, nmiss);
out:
	buf_release(&name);
}

/* What each cuDNN front library among objects [from, nobj) dlopens. */
static void cudnn_dlopens(struct loader *l, size_t from, bool later)
{
	size_t end = l->nobj;

	for (size_t i = from; i < end; i++) {
		unsigned major = cudnn_front_of(&l->obj[i], true);
		struct buf ver = BUF_INIT;
		bool known;

		if (!major)
			continue;
		known = pyload_file_version(l->obj[i].path, &ver);
		if (major >= 9) {
			const char *const *subs =
				later ? nvlib_cudnn9_later : nvlib_cudnn9_first;

			for (size_t k = 0; subs[k]; k++)
				dlopen_sub(l, i, subs[k], major,
					   known ? ver.data : NULL, true,
					   later);
		} else if (later) {
			for (size_t k = 0; nvlib_cudnn8_later[k]; k++)
				dlopen_sub(l, i, nvlib_cudnn8_later[k], major,
					   NULL, false, true);
		}
		buf_release(&ver);
	}
}

/* The loaded object that is the file path (by real path), or LOADER_NONE. */
static size_t loaded_file(const struct loader *l, const char *path)
{
	char *want = plat_realpath(path);
	size_t found = LOADER_NONE;

	for (size_t i = 0; want && i < l->nobj && found == LOADER_NONE; i++) {
		char *got = plat_realpath(l->obj[i].path);

		if (got && !strcmp(got, want))
			found = i;
		free(got);
	}
	free(want);
	return found;
}

/* fw's dlopener asks for dlnames [from, to), each once. */
static void fw_dlopens(struct loader *l, const struct pyload_fw *fw,
		       size_t from, size_t to)
{
	size_t by, idx;

	if (!fw->dlopener || from >= to)
		return;
	by = loaded_file(l, fw->dlopener);
	if (by == LOADER_NONE &&
	    loader_dlopen(l, LOADER_NONE, fw->dlopener, &by) != CUENV_OK)
		return;
	for (size_t i = from; i < to; i++)
		loader_dlopen(l, by, fw->dlnames.v[i], &idx);
}

/* Is real (a real path) under the real folder dir? */
static bool under(const char *real, const char *dir)
{
	size_t n = strlen(dir);

	return real && !strncmp(real, dir, n) && real[n] == '/';
}

/* Is the object e, or one it needs, a bundled copy of lib? */
static bool has_bundled(const struct elf_info *e, const struct nvlib *lib)
{
	for (size_t i = 0; i < e->needed.n; i++)
		if (bundled(e->needed.v[i], lib))
			return true;
	return bundled(e->soname, lib);
}

/*
 * A framework no kind describes dlopens, when it computes, the CUDA
 * sonames its own objects (under its site-packages, not the wheels')
 * name in their bytes and do not DT_NEED, each through the object that
 * names it (ctranslate2 asks for libcublas.so.12 so). Not the driver
 * (the machine's), nor NCCL and CUPTI, named for several GPUs and
 * profilers.
 */
static unsigned long soname_majors(const char *name);

/*
 * Does e name, beside name, a soname of the same library of a major in
 * want? cupy's NVRTC module names libnvrtc.so.12 and .so.13 and takes
 * the first that loads: a CUDA 12 build's is .12.
 */
static bool other_major_named(const struct elf_info *e, const char *name,
			      const struct nvlib *lib, unsigned long want)
{
	unsigned long m = soname_majors(name);

	if (!want || !m || (m & want))
		return false;
	for (size_t k = 0; k < e->cuda_named.n; k++)
		if (nvlib_match_file(e->cuda_named.v[k], NULL) == lib &&
		    (soname_majors(e->cuda_named.v[k]) & want))
			return true;
	return false;
}

static void strings_dlopens(struct loader *l, const struct pyload_fw *fw,
			    size_t from)
{
	char *site = plat_realpath(fw->site);
	struct buf nv = BUF_INIT;
	size_t end = l->nobj, idx;
	unsigned long want;

	if (!fw->by_strings || !site)
		goto out;
	want = pyload_fw_majors(l, fw);
	buf_path(&nv, site, "nvidia");
	for (size_t i = from; i < end; i++) {
		struct cuenv_err err = CUENV_ERR_INIT;
		char *real = plat_realpath(l->obj[i].path);
		struct elf_info e; /* the loader reads no more than it needs */

		elf_info_init(&e);
		if (under(real, site) && !under(real, nv.data) &&
		    elf_read_file(real, &e, &err) == CUENV_OK)
			for (size_t k = 0; k < e.cuda_named.n; k++) {
				const char *name = e.cuda_named.v[k];
				const struct nvlib *lib =
					nvlib_match_file(name, NULL);

				/* NCCL and CUPTI: asked for only on several
				 * GPUs or by a profiler, not predicted */
				if (strv_find(&e.needed, name) >= 0 ||
				    !strcmp(name, NVLIB_DRIVER_SO ".1") ||
				    !lib || has_bundled(&e, lib) ||
				    lib->id == NVLIB_NCCL ||
				    lib->id == NVLIB_CUPTI ||
				    /* the runtime linked in: not dlopened */
				    (lib->id == NVLIB_CUDART &&
				     e.cudart_static) ||
				    other_major_named(&e, name, lib, want))
					continue;
				loader_dlopen(l, i, name, &idx);
			}
		elf_info_release(&e);
		err_release(&err);
		free(real);
	}
out:
	free(site);
	buf_release(&nv);
}

static bool optional_lib(const struct pyload_fw *fw, const char *name,
			 const char *own);
static char *pyload_own_copy(const struct pyload_fw *fw, const char *name);

/*
 * Is the entry at path a module for an add-on the package leaves to the
 * user, every CUDA library it links one (optional_lib: cupy's NCCL and
 * cuDNN 8 modules)? It is imported only by who has that add-on: not
 * predicted.
 */
static bool addon_module(const struct pyload_fw *fw, const char *path)
{
	struct strv needed = STRV_INIT;
	bool yes = false, all = true;

	if (!fw->by_strings)
		return false;
	needed_of(path, &needed);
	for (size_t i = 0; all && i < needed.n; i++) {
		char *own;

		if (!nvlib_is_cuda_file(needed.v[i]))
			continue;
		own = pyload_own_copy(fw, needed.v[i]);
		/* one toolkit library (onnxruntime 1.18's provider): the
		 * package's own CUDA path, not an add-on's */
		all = optional_lib(fw, needed.v[i], own);
		yes = true;
		free(own);
	}
	strv_release(&needed);
	return yes && all;
}

/* What fw's import and use dlopen by path: its entries, in order. */
static void dlopen_entries(struct loader *l, const struct pyload_fw *fw)
{
	for (size_t i = 0; i < fw->entries.n; i++) {
		size_t idx;

		if (!addon_module(fw, fw->entries.v[i]))
			loader_dlopen(l, LOADER_NONE, fw->entries.v[i], &idx);
	}
}

void pyload_predict(struct loader *l, const char *python,
		    const struct pyload_fw *fw, bool on_use,
		    struct pyload_span *span)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	if (python && !l->nobj)
		loader_program(l, python, &err); /* no program: no RPATH */
	err_release(&err);
	span->first = span->predicted = l->nobj;
	dlopen_entries(l, fw);
	cudnn_dlopens(l, span->first, false);
	fw_dlopens(l, fw, 0, fw->at_import);
	span->on_use = l->nobj;
	if (on_use) {
		size_t from = l->nobj;

		fw_dlopens(l, fw, fw->at_import, fw->dlnames.n);
		strings_dlopens(l, fw, span->first);
		cudnn_dlopens(l, from, false);
		cudnn_dlopens(l, span->first, true);
	}
	loader_check_versions(l);
}

void pyload_observed(struct loader *l, const struct pyobs *obs,
		     const struct pyload_fw *fw, struct pyload_span *span)
{
	for (size_t i = 0; i < obs->maps.n; i++)
		loader_adopt(l, obs->maps.v[i],
			     obs->executable &&
				     !strcmp(obs->maps.v[i], obs->executable));
	span->first = 0;
	span->predicted = span->on_use = l->nobj;
	dlopen_entries(l, fw);
	fw_dlopens(l, fw, 0, fw->dlnames.n);
	strings_dlopens(l, fw, 0);
	cudnn_dlopens(l, 0, false);
	cudnn_dlopens(l, 0, true);
	loader_check_versions(l);
}

/* ---- versions and the environment's own copies -------------------------- */

/* "nvidia_nvjitlink_cu12-12.9.86.dist-info" -> "12.9.86" */
static bool dist_info_version(const char *ent, struct buf *out)
{
	static const char sfx[] = ".dist-info";
	size_t n = strlen(ent), ns = sizeof(sfx) - 1;
	const char *dash = strchr(ent, '-');

	if (!dash || n <= ns || strcmp(ent + n - ns, sfx))
		return false;
	buf_reset(out);
	buf_add(out, dash + 1, (size_t)(ent + n - ns - (dash + 1)));
	return version_is_valid(out->data);
}

/* Does the RECORD text list rel ("nvidia/x/lib/f,sha256=...,size")? */
static bool record_lists(const char *text, const char *rel)
{
	size_t n = strlen(rel);

	for (const char *p = text; (p = strstr(p, rel)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == ',')
			return true;
	return false;
}

/*
 * The dist-info folder name of the NVIDIA wheel in site whose RECORD
 * lists rel ("nvidia_nvjitlink_cu12-12.9.86.dist-info"), into out.
 */
static bool wheel_of(const char *site, const char *rel, struct buf *out)
{
	struct plat_dir *d = plat_opendir(site);
	const char *ent;
	bool found = false;
	struct buf ver = BUF_INIT;

	while (d && !found && (ent = plat_readdir(d))) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf rec = BUF_INIT, text = BUF_INIT;

		if (!strncmp(ent, "nvidia_", 7) &&
		    dist_info_version(ent, &ver)) {
			buf_path(&rec, site, ent);
			buf_path(&rec, rec.data, "RECORD");
			found = !file_read(rec.data, RECORD_MAX,
					   FILE_MAY_BE_MISSING, &text, &err) &&
				record_lists(text.data, rel);
			if (found)
				buf_sets(out, ent);
		}
		BUF_RELEASE_EACH(&rec, &text);
		err_release(&err);
	}
	if (d)
		plat_closedir(d);
	buf_release(&ver);
	return found;
}

/* SITE/nvidia/NAME/lib/FILE (path real): the dist-info of its wheel. */
static bool wheel_of_file(const char *real, struct buf *out)
{
	const char *nv = strstr(real, "/nvidia/");
	char *site;
	bool ok;

	while (nv && strstr(nv + 1, "/nvidia/"))
		nv = strstr(nv + 1, "/nvidia/");
	if (!nv)
		return false;
	site = xstrndup(real, (size_t)(nv - real));
	ok = wheel_of(site, nv + 1, out);
	free(site);
	return ok;
}

bool pyload_file_version(const char *path, struct buf *out)
{
	struct buf dist = BUF_INIT;
	char *real = plat_realpath(path);
	const char *base, *so;
	struct version v;
	bool ok = false;

	if (!real)
		return false;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	so = strstr(base, ".so.");
	if (so && !version_parse(so + 4, &v) && v.n >= 3) {
		buf_sets(out, so + 4);
		ok = true;
		goto out;
	}
	/* SITE/nvidia/NAME/lib/FILE, as the wheel's RECORD lists it */
	if (wheel_of_file(real, &dist))
		ok = dist_info_version(dist.data, out);
out:
	free(real);
	buf_release(&dist);
	return ok;
}

/* The file DIR/lib/name for a folder DIR in top, as a heap path, or NULL. */
static char *lib_in(const char *top, const char *name)
{
	struct plat_dir *d = plat_opendir(top);
	struct buf p = BUF_INIT;
	const char *ent;
	char *found = NULL;

	while (d && !found && (ent = plat_readdir(d))) {
		buf_reset(&p);
		buf_path(&p, top, ent);
		buf_path(&p, p.data, "lib");
		buf_path(&p, p.data, name);
		if (is_file(p.data))
			found = buf_detach(&p);
	}
	if (d)
		plat_closedir(d);
	buf_release(&p);
	return found;
}

/*
 * The environment's own copy of soname name, as a heap path, or NULL: a
 * file in site's NVIDIA wheels (site/nvidia/NAME/lib/name, CUDA 13's
 * site/nvidia/cu13/lib/name), else in a wheel's own lib folder beside
 * them (torch 2.7's site/cusparselt/lib/libcusparseLt.so.0).
 */
static char *pyload_own_copy(const struct pyload_fw *fw, const char *name)
{
	struct buf nv = BUF_INIT;
	char *found;

	buf_path(&nv, fw->site, "nvidia");
	found = lib_in(nv.data, name);
	if (!found)
		found = lib_in(fw->site, name);
	buf_release(&nv);
	return found;
}

/* ---- the wheel a missing library comes from ----------------------------- */

/*
 * Does line ("Requires-Dist: nvidia-cufft-cu12==11.3.0.4; ...") pin a
 * wheel named wheel ("nvidia-cufft", then "-cuNN" or nothing)? The
 * requirement "nvidia-cufft-cu12==11.3.0.4" into out.
 */
static bool pins(const char *line, size_t len, const char *wheel, bool exact,
		 struct buf *out)
{
	static const char key[] = "Requires-Dist:";
	size_t nk = sizeof(key) - 1, nw = strlen(wheel), i;
	const char *p = line + nk, *end = line + len;

	if (len < nk || strncmp(line, key, nk))
		return false;
	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) < nw || strncasecmp(p, wheel, nw))
		return false;
	i = nw;
	if (p + i + 3 <= end && !strncmp(p + i, "-cu", 3)) {
		i += 3;
		while (p + i < end && p[i] >= '0' && p[i] <= '9')
			i++;
	}
	if (p + i < end &&
	    (p[i] == '-' || p[i] == '_' || (p[i] >= 'a' && p[i] <= 'z') ||
	     (p[i] >= 'A' && p[i] <= 'Z')))
		return false; /* a longer name: nvidia-cublasmp */
	while (p + i < end && p[i] == ' ')
		i++;
	if (!exact) { /* any requirement of it: the name alone */
		buf_reset(out);
		buf_add(out, p, nw);
		return true;
	}
	if (p + i + 2 > end || strncmp(p + i, "==", 2))
		return false;
	for (i += 2; p + i < end && p[i] == ' '; i++)
		;
	while (p + i < end && p[i] != ';' && p[i] != ' ' && p[i] != ',' &&
	       p[i] != '\r')
		i++;
	buf_reset(out);
	for (size_t k = 0; k < i; k++)
		if (p[k] != ' ')
			buf_addc(out, p[k]);
	return true;
}

/* The requirements of site's packages (not NVIDIA's wheels) on the wheel
 * of soname's library, each once, into found: exact pins, or any. */
static void wheel_requirements(const char *site, const char *soname, bool exact,
			       struct strv *found)
{
	const struct nvlib *e = nvlib_match_file(soname, NULL);
	struct plat_dir *d;
	const char *ent;
	struct buf req = BUF_INIT;

	if (!e || !e->wheel)
		return;
	d = plat_opendir(site);
	while (d && (ent = plat_readdir(d))) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf path = BUF_INIT, text = BUF_INIT;
		size_t n = strlen(ent);

		if (n > 10 && !strcmp(ent + n - 10, ".dist-info") &&
		    strncmp(ent, "nvidia_", 7)) {
			buf_path(&path, site, ent);
			buf_path(&path, path.data, "METADATA");
			if (!file_read(path.data, METADATA_MAX,
				       FILE_MAY_BE_MISSING, &text, &err))
				for (const char *l = text.data; l && *l;) {
					const char *nl = strchr(l, '\n');
					size_t len = nl ? (size_t)(nl - l)
							: strlen(l);

					if (pins(l, len, e->wheel, exact,
						 &req) &&
					    strv_find(found, req.data) < 0)
						strv_push(found, req.data);
					l = nl ? nl + 1 : NULL;
				}
		}
		BUF_RELEASE_EACH(&path, &text);
		err_release(&err);
	}
	if (d)
		plat_closedir(d);
	buf_release(&req);
}

bool pyload_wheel_pin(const char *site, const char *soname, struct buf *out)
{
	struct strv found = STRV_INIT;
	bool ok;

	wheel_requirements(site, soname, true, &found);
	/* two packages pinning two versions: no one command is right */
	ok = found.n == 1;
	if (ok)
		buf_sets(out, found.v[0]);
	strv_release(&found);
	return ok;
}

/* ---- judging ------------------------------------------------------------ */

void pyload_issues_release(struct pyload_issues *is)
{
	for (size_t i = 0; i < is->n; i++)
		FREE_EACH(is->v[i].name, is->v[i].path, is->v[i].source,
			  is->v[i].want, is->v[i].detail);
	free(is->v);
	strv_release(&is->unseen);
	memset(is, 0, sizeof(*is));
}

/* path as under fw's site-packages ("onnxruntime/capi/..."), or whole. */
static const char *in_site(const struct pyload_fw *fw, const char *path)
{
	size_t n = strlen(fw->site);

	return !strncmp(path, fw->site, n) && path[n] == '/' ? path + n + 1
							     : path;
}

static void add_unseen(struct pyload_issues *out, const char *line)
{
	if (strv_find(&out->unseen, line) < 0)
		strv_push(&out->unseen, line);
}

static void add_issue(struct pyload_issues *out, enum pyload_kind kind,
		      const char *name, const struct loader_obj *o,
		      const char *want, char *detail_take)
{
	struct pyload_issue *is;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	is = &out->v[out->n++];
	is->kind = kind;
	is->name = xstrdup(name);
	is->path = o ? xstrdup(o->path) : NULL;
	is->source = o ? xstrdup(loader_source_name(o->source)) : NULL;
	is->want = want ? xstrdup(want) : NULL;
	is->detail = detail_take;
}

/* The real folder of path, heap, or NULL. */
static char *real_dir(const char *path)
{
	char *real = plat_realpath(path), *slash;

	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	if (slash && slash != real)
		*slash = '\0';
	return real;
}

static const char *obj_name(const struct loader_obj *o)
{
	return o->elf.soname ? o->elf.soname : o->names.v[0];
}

/* cuDNN's sub-libraries in another folder than their front library. */
static void judge_mixed(const struct loader *l, const struct pyload_span *sp,
			struct pyload_issues *out)
{
	for (size_t f = sp->first; f < l->nobj; f++) {
		char *front;

		/* not a bundled front: whether cuDNN takes a wheel's
		 * sub-libraries under it is decided on a GPU, not here */
		if (!cudnn_front(&l->obj[f]))
			continue;
		front = real_dir(l->obj[f].path);
		for (size_t i = sp->first; front && i < l->nobj; i++) {
			const struct loader_obj *o = &l->obj[i];
			const struct nvlib *e =
				nvlib_match_file(obj_name(o), NULL);
			char *dir;
			struct buf d = BUF_INIT;

			if (i == f || !e || e->id != NVLIB_CUDNN ||
			    o->loader != f)
				continue;
			dir = real_dir(o->path);
			if (dir && strcmp(dir, front)) {
				buf_printf(&d, "its front library %s is in %s",
					   obj_name(&l->obj[f]), front);
				add_issue(out, PYLOAD_MIXED, obj_name(o), o,
					  front, buf_detach(&d));
			}
			free(dir);
			buf_release(&d);
		}
		free(front);
	}
}

/* The environment's wheels' libraries loaded from elsewhere, older. */
static void judge_older(const struct loader *l, const struct pyload_span *sp,
			const struct pyload_fw *fw, struct pyload_issues *out)
{
	for (size_t i = sp->first; i < l->nobj; i++) {
		const struct loader_obj *o = &l->obj[i];
		const char *name = obj_name(o);
		char *own, *ro = NULL, *rl = NULL;
		struct buf vo = BUF_INIT, vl = BUF_INIT;

		if (!nvlib_is_cuda_file(name))
			continue;
		own = pyload_own_copy(fw, name);
		if (own) {
			ro = plat_realpath(own);
			rl = plat_realpath(o->path);
		}
		if (ro && rl && strcmp(ro, rl) &&
		    pyload_file_version(own, &vo) &&
		    pyload_file_version(o->path, &vl) &&
		    version_cmp_str(vl.data, vo.data) < 0) {
			struct buf d = BUF_INIT;

			buf_printf(&d, "%s %s is older than the wheel's %s",
				   name, vl.data, vo.data);
			add_issue(out, PYLOAD_OLDER, name, o, own,
				  buf_detach(&d));
		}
		FREE_EACH(own, ro, rl);
		BUF_RELEASE_EACH(&vo, &vl);
	}
}

/* ---- CUDA majors -------------------------------------------------------- */

/* Bit N of "..._cuN-..." in a dist-info name, or 0. */
static unsigned long dist_major(const char *dist)
{
	const char *cu = strstr(dist, "_cu"), *dash = strchr(dist, '-');
	char *end;
	unsigned long m;

	/* the "_cu" before digits: nvidia_cuda_runtime_cu12's second */
	while (cu && (cu[3] < '1' || cu[3] > '9'))
		cu = strstr(cu + 1, "_cu");
	if (!cu || !dash || cu > dash)
		return 0;
	m = strtoul(cu + 3, &end, 10);
	return end == dash && m < 64 ? 1ul << m : 0;
}

/* The majors the soname of a CUDA toolkit library says (not cuDNN's). */
static unsigned long soname_majors(const char *name)
{
	const char *ver;
	const struct nvlib *e = nvlib_match_file(name, &ver);
	const char *sv = e ? nvlib_so_version(e, name) : NULL;

	if (!e || (e->flags & NVLIB_OWN_VERSION) || !sv || !*sv)
		return 0;
	return nvlib_majors(e, sv);
}

/* The majors the CUDA runtime beside the file (its real folder) says. */
static unsigned long beside_majors(const char *real)
{
	char *dir = xstrdup(real), *slash = strrchr(dir, '/');
	struct plat_dir *d;
	const char *ent;
	unsigned long m = 0;

	if (slash)
		*slash = '\0';
	d = plat_opendir(dir);
	while (d && !m && (ent = plat_readdir(d))) {
		const struct nvlib *e = nvlib_match_file(ent, NULL);
		const char *sv = e && e->id == NVLIB_CUDART
					 ? nvlib_so_version(e, ent)
					 : NULL;

		if (sv && *sv)
			m = nvlib_majors(e, sv);
	}
	if (d)
		plat_closedir(d);
	free(dir);
	return m;
}

/*
 * The CUDA majors of a loaded CUDA library: what its soname, its
 * wheel's name and the runtime beside it say, together (0: nothing
 * does). cuDNN and NCCL follow their own versions: their wheel's name,
 * or the CUDA runtime of the folder they were put in (the machine's
 * CUDA 13 lib/ holds cuDNN 9.19 for CUDA 13), says which CUDA they are
 * built for.
 */
static unsigned long file_majors(const struct loader_obj *o)
{
	const struct nvlib *e = nvlib_match_file(obj_name(o), NULL);
	char *real = plat_realpath(o->path);
	struct buf dist = BUF_INIT;
	unsigned long all = ~0ul, m;

	if (!e || !real)
		goto out;
	if ((m = soname_majors(obj_name(o))))
		all &= m;
	if (wheel_of_file(real, &dist) && (m = dist_major(dist.data)))
		all &= m;
	/* cuDNN and NCCL too: a copy in a CUDA N folder is its build */
	if ((m = beside_majors(real)))
		all &= m;
out:
	free(real);
	buf_release(&dist);
	return all == ~0ul ? 0 : all;
}

unsigned long pyload_fw_majors(const struct loader *l,
			       const struct pyload_fw *fw)
{
	char *site = plat_realpath(fw->site);
	struct buf nv = BUF_INIT;
	unsigned long all = ~0ul;
	struct plat_dir *d;
	const char *ent;

	if (!site)
		return 0;
	buf_path(&nv, site, "nvidia");
	for (size_t i = 0; i < l->nobj; i++) {
		char *real = plat_realpath(l->obj[i].path);

		if (under(real, site) && !under(real, nv.data))
			for (size_t k = 0; k < l->obj[i].elf.needed.n; k++) {
				unsigned long m = soname_majors(
					l->obj[i].elf.needed.v[k]);

				all &= m ? m : ~0ul;
			}
		free(real);
	}
	/* no CUDA DT_NEEDED (TensorFlow, JAX dlopen): the wheels say, or
	 * what the framework says of its build (Paddle's version file) */
	if (all == ~0ul && fw->stated)
		all = fw->stated;
	d = all == ~0ul ? plat_opendir(site) : NULL;
	while (d && (ent = plat_readdir(d))) {
		unsigned long m =
			strncmp(ent, "nvidia_", 7) ? 0 : dist_major(ent);

		all &= m ? m : ~0ul;
	}
	if (d)
		plat_closedir(d);
	free(site);
	buf_release(&nv);
	return all == ~0ul ? 0 : all;
}

/* The lowest CUDA major of a mask. */
static unsigned low_major(unsigned long m)
{
	unsigned n = 0;

	while (m && !(m & 1ul)) {
		m >>= 1;
		n++;
	}
	return n;
}

/* Has site a wheel of soname name's library (nvidia_cudnn_cu12-...,
 * CUDA 13's nvidia_cublas-...), or a package there that requires one? */
static bool family_wheel(const char *site, const char *name)
{
	const struct nvlib *e = nvlib_match_file(name, NULL);
	struct plat_dir *d = e && e->wheel ? plat_opendir(site) : NULL;
	struct buf stem = BUF_INIT;
	const char *ent;
	bool yes = false;

	if (!d)
		return false;
	for (const char *c = e->wheel; *c; c++) /* nvidia-cudnn: nvidia_cudnn */
		buf_addc(&stem, *c == '-' ? '_' : *c);
	while (!yes && (ent = plat_readdir(d)))
		yes = !strncmp(ent, stem.data, stem.len) &&
		      (!strncmp(ent + stem.len, "_cu", 3) ||
		       ent[stem.len] == '-') &&
		      strstr(ent, ".dist-info");
	plat_closedir(d);
	buf_release(&stem);
	if (!yes) { /* or a package here asks for it */
		struct strv reqs = STRV_INIT;

		wheel_requirements(site, name, false, &reqs);
		yes = reqs.n > 0;
		strv_release(&reqs);
	}
	return yes;
}


/*
 * Is soname name, which fw cannot have here (missing, or of another
 * CUDA major), an add-on that package leaves to the user? For a package
 * found by its files: a library outside the toolkit (cuDNN, NCCL,
 * cuTENSOR: their own versions) of which the environment has no wheel
 * nor a requirement, as cupy's cuDNN and NCCL modules. The toolkit's
 * own libraries are never optional.
 */
static bool optional_lib(const struct pyload_fw *fw, const char *name,
			 const char *own)
{
	const struct nvlib *e = nvlib_match_file(name, NULL);

	return fw->by_strings && !own && e && (e->flags & NVLIB_OWN_VERSION) &&
	       !family_wheel(fw->site, name);
}

/* CUDA libraries of another major than fw's build. */
static void judge_major(const struct loader *l, const struct pyload_span *sp,
			const struct pyload_fw *fw, struct pyload_issues *out)
{
	unsigned long want = pyload_fw_majors(l, fw);

	for (size_t i = sp->first; want && i < l->nobj; i++) {
		const struct loader_obj *o = &l->obj[i];
		unsigned long m =
			nvlib_is_cuda_file(obj_name(o)) ? file_majors(o) : 0;
		struct buf d = BUF_INIT;

		if (!m || (m & want))
			continue;
		char *own = pyload_own_copy(fw, obj_name(o));

		if (!optional_lib(fw, obj_name(o), own)) {
			buf_printf(&d,
				   "%s is CUDA %u's; %s is a CUDA %u build "
				   "(there is no compatibility across CUDA "
				   "majors)",
				   obj_name(o), low_major(m), fw->name,
				   low_major(want));
			add_issue(out, PYLOAD_MAJOR, obj_name(o), o, own,
				  buf_detach(&d));
		}
		buf_release(&d);
		free(own);
	}
}

void pyload_judge(const struct loader *l, const struct pyload_span *sp,
		  const struct pyload_fw *fw, struct pyload_issues *out)
{
	struct strv plugins = STRV_INIT; /* plugin, names, plugin, ... */
	struct buf u = BUF_INIT;

	for (size_t i = 0; i < fw->entries.n; i++)
		if (addon_module(fw, fw->entries.v[i])) {
			buf_reset(&u);
			buf_printf(&u,
				   "%s, an add-on's module (it links what no "
				   "wheel here gives and nothing here asks "
				   "for)",
				   in_site(fw, fw->entries.v[i]));
			add_unseen(out, u.data);
		}
	for (size_t i = 0; i < l->nmiss; i++) {
		const struct loader_miss *m = &l->miss[i];
		struct buf d = BUF_INIT;

		if (m->by != LOADER_NONE && m->by < sp->first)
			continue; /* the interpreter's own */
		if (!strcmp(m->name, NVLIB_DRIVER_SO ".1")) {
			out->driver_missing = true; /* the machine's */
			continue;
		}
		/* a package's plugin for another product (onnxruntime's
		 * TensorRT provider needs libnvinfer.so.10) is loaded only
		 * when asked for; its import, observed, fails on its own */
		if (fw->by_strings && !nvlib_is_cuda_file(m->name)) {
			const char *by =
				m->by != LOADER_NONE
					? in_site(fw, l->obj[m->by].path)
					: m->name;
			size_t k = 0;

			/* plugins: the plugin, then the names it needs */
			while (k < plugins.n && strcmp(plugins.v[k], by))
				k += 2;
			if (k >= plugins.n) {
				strv_push(&plugins, by);
				strv_push(&plugins, m->name);
			} else {
				buf_reset(&u);
				buf_printf(&u, "%s, %s", plugins.v[k + 1],
					   m->name);
				free(plugins.v[k + 1]);
				plugins.v[k + 1] = buf_detach(&u);
			}
			continue;
		}
		char *own = pyload_own_copy(fw, m->name);

		if (optional_lib(fw, m->name, own)) {
			buf_reset(&u);
			buf_printf(&u,
				   "%s, an add-on's library (no wheel here "
				   "gives or pins it)",
				   m->name);
			add_unseen(out, u.data);
			free(own);
			continue;
		}
		buf_printf(&d, "%s: %s", m->name, m->why);
		if (m->by != LOADER_NONE)
			buf_printf(&d, " (needed by %s)", l->obj[m->by].path);
		/* the wheel's copy the asking object cannot reach */
		add_issue(out, PYLOAD_MISSING, m->name, NULL, own,
			  buf_detach(&d));
		free(own);
	}
	for (size_t i = 0; i < l->nprob; i++) {
		const struct loader_problem *p = &l->prob[i];
		const struct loader_obj *prov = p->provider != LOADER_NONE
							? &l->obj[p->provider]
							: NULL;
		struct buf d = BUF_INIT;
		char *own;

		if (p->user < sp->predicted)
			continue; /* the interpreter's, or mapped: it bound */
		if (p->symbol)
			buf_printf(&d, "undefined symbol: %s, version %s",
				   p->symbol, p->version);
		else
			buf_printf(&d, "version `%s' not found", p->version);
		buf_printf(&d, " (required by %s)", l->obj[p->user].path);
		own = prov ? pyload_own_copy(fw, obj_name(prov)) : NULL;
		add_issue(out, PYLOAD_SYMBOL,
			  prov ? obj_name(prov) : p->version, prov, own,
			  buf_detach(&d));
		free(own);
	}
	for (size_t i = 0; i + 1 < plugins.n; i += 2) {
		buf_reset(&u);
		buf_printf(&u,
			   "%s, a plugin for another product (it needs %s, "
			   "not here)",
			   plugins.v[i], plugins.v[i + 1]);
		add_unseen(out, u.data);
	}
	judge_mixed(l, sp, out);
	judge_older(l, sp, fw, out);
	judge_major(l, sp, fw, out);
	strv_release(&plugins);
	buf_release(&u);
}

void pyload_judge_observed(const struct loader *l,
			   const struct pyload_span *span,
			   const struct pyobs *obs, const struct pyload_fw *fw,
			   struct pyload_issues *out)
{
	if (obs->ran && !obs->imported) {
		const char *e = obs->error ? obs->error : "it failed";

		/* the machine's driver, not the environment's fault */
		if (strstr(e, NVLIB_DRIVER_SO ".1"))
			out->driver_missing = true;
		else
			add_issue(out, PYLOAD_IMPORT, fw->name, NULL, NULL,
				  xstrdup(e));
	}
	pyload_judge(l, span, fw, out);
}
