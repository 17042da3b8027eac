/*
 * needs_scan.c: what the files ask for (see needs.h): the libraries
 * binaries name or load, what frameworks' own files (build info, version
 * files, wheel metadata) and Python's frameworks report of their CUDA and
 * cuDNN; needs_match.c matches this against what is installed and what
 * the catalogue offers.
 */
#include "needs/needs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "nvidia/compat.h"
#include "artifact/fwmsg.h"
#include "artifact/pysrc.h"
#include "plat/plat_path.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- what the files ask for ---------------------------------------------- */

void needs_scan_init(struct needs_scan *s)
{
	memset(s, 0, sizeof(*s));
}

void needs_scan_release(struct needs_scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];

		FREE_EACH(w->soname, w->dll, w->provided_by, w->found, w->range,
			  w->elsewhere);
		STRV_RELEASE_EACH(&w->needed_by, &w->loaded_by, &w->named_by);
	}
	free(s->v);
	for (size_t i = 0; i < s->nrep; i++) {
		struct needs_report *r = &s->rep[i];

		FREE_EACH(r->framework, r->version, r->source, r->cuda,
			  r->cudnn);
		strv_release(&r->dlls);
		strv_release(&r->notes);
	}
	free(s->rep);
	for (size_t i = 0; i < s->nalt; i++) {
		FREE_EACH(s->alt[i].pattern, s->alt[i].met);
		strv_release(&s->alt[i].files);
	}
	free(s->alt);
	for (size_t i = 0; i < s->nunseen; i++)
		FREE_EACH(s->unseen[i].who, s->unseen[i].name);
	free(s->unseen);
	STRV_RELEASE_EACH(&s->provides, &s->warnings, &s->unread, &s->outside);
	needs_scan_init(s);
}

bool needs_want_managed(const struct needs_want *w)
{
	return nvlib_cuenv_installs(nvlib_get(w->lib)) && !w->provided_by;
}

/* Is base a plugin's file: a Python extension module, or a framework's
 * provider or plugin library it loads by name when asked? */
static bool plugin_file(const char *base)
{
	return strstr(base, ".cpython-") || strstr(base, ".abi3.") ||
	       strstr(base, "_providers_") || strstr(base, "plugin");
}

bool needs_want_plugin(const struct needs_want *w)
{
	const struct nvlib *lib = nvlib_get(w->lib);
	bool yes = nvlib_kit(lib) == NVLIB_KIT_OTHER && w->needed_by.n &&
		   !w->loaded_by.n;

	for (size_t i = 0; yes && i < w->needed_by.n; i++) {
		const char *base = strrchr(w->needed_by.v[i], '/');

		base = base ? base + 1 : w->needed_by.v[i];
		yes = plugin_file(base) &&
		      str_find_nocase(base, nvlib_product(lib));
	}
	return yes;
}

/* Is w required by some file, alternative or not? */
static bool asked_by_a_file(const struct needs_want *w)
{
	return needs_want_managed(w) &&
	       (w->needed_by.n > 0 || w->loaded_by.n > 0);
}

bool needs_want_required(const struct needs_want *w)
{
	return asked_by_a_file(w) && !w->alternative;
}

static bool want_of(const struct needs_want *w, const char *file)
{
	return strv_find(&w->needed_by, file) >= 0 ||
	       strv_find(&w->loaded_by, file) >= 0;
}

const char *needs_alt_met(const struct needs_scan *s, const struct needs_alt *a,
			  bool (*ok)(const struct needs_want *w, void *ctx),
			  void *ctx)
{
	for (size_t k = a->files.n; k-- > 0;) {
		const char *f = a->files.v[k];
		size_t i = 0;

		while (i < s->n && (!asked_by_a_file(&s->v[i]) ||
				    !want_of(&s->v[i], f) || ok(&s->v[i], ctx)))
			i++;
		if (i == s->n)
			return f;
	}
	return NULL;
}

static struct needs_want *want_get(struct needs_scan *s, const char *soname)
{
	struct needs_want *w;
	enum nvlib_id lib;
	const char *ver;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].soname, soname))
			return &s->v[i];
	/* names found in bytes are the framework-loaded ones already */
	if (!elf_nvidia_soname(soname, &lib, &ver))
		return NULL;
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	w = &s->v[s->n++];
	memset(w, 0, sizeof(*w));
	w->soname = xstrdup(soname);
	w->lib = lib;
	w->version = w->soname + (ver - soname);
	return w;
}

/*
 * A bundled copy's name as auditwheel renames it ("libcudnn-74a4c495.so.
 * 9.1.0") as its library's ("libcudnn.so.9.1.0"), into out; false when
 * name is not one.
 */
static bool unmangle(const char *name, struct buf *out)
{
	const char *so = strstr(name, ".so."), *dash;
	enum nvlib_id lib;
	const char *ver;

	buf_reset(out);
	if (!so || so - name < 10)
		return false;
	dash = so - 9;
	if (*dash != '-' || strspn(dash + 1, "0123456789abcdef") != 8)
		return false;
	buf_add(out, name, (size_t)(dash - name));
	buf_adds(out, so);
	return elf_cuda_soname(out->data, &lib, &ver);
}

/* Push path onto l once; true when it was not there. */
static bool push_once(struct strv *l, const char *path)
{
	if (strv_find(l, path) >= 0)
		return false;
	strv_push(l, path);
	return true;
}

/* Does the file name another soname of w's library than w's? */
static bool has_alternative(const struct elf_info *e, const char *soname,
			    enum nvlib_id lib)
{
	enum nvlib_id l2;
	const char *v2;

	const struct strv *lists[] = { &e->cuda_named, &e->needed };

	for (size_t j = 0; j < 2; j++)
		for (size_t k = 0; k < lists[j]->n; k++)
			if (strcmp(lists[j]->v[k], soname) &&
			    elf_cuda_soname(lists[j]->v[k], &l2, &v2) &&
			    l2 == lib)
				return true;
	return false;
}

/* What a bundled copy of a CUDA library (own: its soname as its library
 * gives it, "libcudnn.so.9.1.0") provides and loads. */
static void add_bundled(struct needs_scan *s, const char *path,
			const struct elf_info *e, const char *own)
{
	enum nvlib_id lib, l2;
	const char *ver, *v2;
	struct buf b = BUF_INIT, b0 = BUF_INIT;
	struct needs_want *w;
	size_t subs = 0;

	if (!elf_cuda_soname(own, &lib, &ver))
		return;
	/* as the loader asks for it: cuDNN by its major */
	buf_printf(&b0, "%.*s%lu", (int)(ver - own), own, version_major(ver));
	strv_push(&s->provides, b0.data);
	strv_push(&s->provides, path);
	for (size_t i = 0; i < e->cuda_stems.n; i++) {
		buf_reset(&b);
		buf_printf(&b, "%s.%lu", e->cuda_stems.v[i],
			   version_major(ver));
		if (!elf_cuda_soname(b.data, &l2, &v2) || l2 != lib)
			continue;
		w = want_get(s, b.data);
		if (w && push_once(&w->loaded_by, path))
			subs++;
	}
	/*
	 * cuDNN 8's front library names its sub-libraries whole
	 * ("libcudnn_ops_infer.so.8"), cuDNN 9's builds them from a stem:
	 * either way a bundled front loads them from outside the wheel, at
	 * its own major
	 */
	for (size_t i = 0; i < e->cuda_named.n; i++) {
		const char *n = e->cuda_named.v[i];

		if (!strcmp(n, b0.data) || !elf_cuda_soname(n, &l2, &v2) ||
		    l2 != lib || version_major(v2) != version_major(ver))
			continue;
		w = want_get(s, n);
		if (w && push_once(&w->loaded_by, path))
			subs++;
	}
	if (lib == NVLIB_CUDNN && subs) {
		const char *base = strrchr(path, '/');

		needs_scan_report(s, base ? base + 1 : path, path, NULL, ver);
	}
	buf_release(&b);
	buf_release(&b0);
}

/*
 * Is the file at path a Python extension module that binds only lib, a
 * library outside the toolkit ("cupy_backends/cuda/libs/cudnn.cpython-
 * 311-x86_64-linux-gnu.so" for cuDNN, "nccl.abi3.so")? Such a module is
 * imported for that library's feature alone: the package may use the
 * library, its GPU path does not need it.
 */
static bool optional_module(const char *path, enum nvlib_id lib)
{
	const struct nvlib *l = nvlib_get(lib);
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	if (!(l->flags & NVLIB_OWN_VERSION))
		return false;
	if (!strstr(base, ".cpython-") && !strstr(base, ".abi3.so"))
		return false;
	base += *base == '_';
	n = strcspn(base, ".");
	return n == strlen(l->stem) && !strncmp(base, l->stem, n);
}

static void unseen_add(struct needs_scan *s, const char *who, const char *name,
		       enum nvlib_id lib, bool ctypes)
{
	struct needs_unseen *u;

	for (size_t i = 0; i < s->nunseen; i++)
		if (s->unseen[i].lib == lib && !strcmp(s->unseen[i].who, who))
			return;
	s->unseen = xrealloc(s->unseen, (s->nunseen + 1) * sizeof(*s->unseen));
	u = &s->unseen[s->nunseen++];
	u->who = xstrdup(who);
	u->name = xstrdup(name);
	u->lib = lib;
	u->ctypes = ctypes;
}

void needs_scan_add(struct needs_scan *s, const char *path,
		    const struct elf_info *e)
{
	enum nvlib_id lib;
	const char *ver;
	struct needs_want *w;
	struct buf own = BUF_INIT;
	bool provider = false;

	s->files++;
	if (e->soname && elf_cuda_soname(e->soname, &lib, &ver)) {
		strv_push(&s->provides, e->soname);
		strv_push(&s->provides, path);
		provider = true;
	} else if (e->soname && unmangle(e->soname, &own)) {
		add_bundled(s, path, e, own.data);
		provider = true;
	}
	for (size_t i = 0; i < e->needed.n; i++) {
		w = want_get(s, e->needed.v[i]);
		if (w && optional_module(path, w->lib))
			push_once(&w->named_by, path);
		else if (w)
			push_once(&w->needed_by, path);
	}
	for (size_t i = 0; i < e->cuda_named.n; i++) {
		if (strv_find(&e->needed, e->cuda_named.v[i]) >= 0)
			continue;
		w = want_get(s, e->cuda_named.v[i]);
		if (!w || strv_find(&w->loaded_by, path) >= 0)
			continue;
		/*
		 * dlopen'd by name: required, unless the file names another
		 * soname of the library (an alternative), is NVIDIA's own
		 * library (whose loads its selection provides), loads the
		 * profiler (CUPTI: only when profiling), carries the runtime
		 * it names (libcudart_static linked in), or is an optional
		 * module of that library alone
		 */
		if (provider || w->lib == NVLIB_CUPTI ||
		    (w->lib == NVLIB_CUDART && e->cudart_static) ||
		    optional_module(path, w->lib) ||
		    has_alternative(e, w->soname, w->lib))
			push_once(&w->named_by, path);
		else
			push_once(&w->loaded_by, path);
	}
	/* an unversioned name a file of NVIDIA's own does not complete */
	for (size_t i = 0; !provider && i < e->cuda_stems.n; i++) {
		const struct nvlib *l =
			nvlib_match_file(e->cuda_stems.v[i], NULL);

		if (l)
			unseen_add(s, path, e->cuda_stems.v[i], l->id, false);
	}
	buf_release(&own);
}

bool needs_scan_want(struct needs_scan *s, const char *soname, const char *who)
{
	struct needs_want *w = want_get(s, soname);

	if (!w)
		return false;
	if (strv_find(&w->needed_by, who) < 0)
		strv_push(&w->needed_by, who);
	return true;
}

/* The want for a Windows DLL name, or NULL when it is no CUDA DLL. */
static struct needs_want *want_dll(struct needs_scan *s, const char *dll)
{
	struct buf so = BUF_INIT;
	struct needs_want *w = NULL;

	if (nvlib_dll_soname(dll, &so))
		w = want_get(s, so.data);
	if (w && !w->dll)
		w->dll = xstrdup(dll);
	buf_release(&so);
	return w;
}

void needs_scan_add_pe(struct needs_scan *s, const char *path,
		       const struct pe_info *p)
{
	const struct strv *linked[] = { &p->imports, &p->delay };
	struct needs_want *w;
	struct buf so = BUF_INIT;

	s->files++;
	s->pe_files++;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < linked[k]->n; i++) {
			w = want_dll(s, linked[k]->v[i]);
			if (w && strv_find(&w->needed_by, path) < 0)
				strv_push(&w->needed_by, path);
		}
	for (size_t i = 0; i < p->cuda_named.n; i++) {
		w = want_dll(s, p->cuda_named.v[i]);
		/* a name the import tables hold is needed, not only named */
		if (w && strv_find(&w->needed_by, path) < 0 &&
		    strv_find(&w->named_by, path) < 0)
			strv_push(&w->named_by, path);
	}
	if (p->name && nvlib_dll_soname(p->name, &so)) {
		strv_push(&s->provides, so.data);
		strv_push(&s->provides, path);
	}
	buf_release(&so);
}

/* ---- what the frameworks' own files say ---------------------------------- */

/* Does name end with the path suffix, at a '/' or as the whole of it? */
/* A separator in an archive member's name ('/') or a local path (Windows:
 * '\\' too). */
static bool is_sep(char c)
{
	return c == '/' || plat_path_is_sep(plat_path_native(), c);
}

static bool path_ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	if (n < k)
		return false;
	for (size_t i = 0; i < k; i++) {
		char a = name[n - k + i];

		if (a != suffix[i] && !(suffix[i] == '/' && is_sep(a)))
			return false;
	}
	return n == k || is_sep(name[n - k - 1]);
}

/* ".../x.dist-info/METADATA", or a wheel's PEP 658 "x.whl.metadata" */
static bool dist_info_metadata(const char *name)
{
	size_t n = strlen(name);
	const char *d;

	if (n > sizeof(".whl.metadata") &&
	    !strcmp(name + n - (sizeof(".whl.metadata") - 1), ".whl.metadata"))
		return true;
	if (!path_ends(name, "METADATA") || n < sizeof("a.dist-info/METADATA"))
		return false;
	d = name + n - sizeof("METADATA");
	return d - name >= 10 && !strncmp(d - 10, ".dist-info", 10);
}

/* A .py or .json at the top of a package: one read_statements reads. */
static bool statement_name(const char *name)
{
	const char *dot = strrchr(name, '.');
	unsigned depth = 0;

	for (const char *p = name; *p; p++)
		depth += is_sep(*p);
	return dot && depth <= 1 &&
	       (!strcmp(dot, ".py") || !strcmp(dot, ".json"));
}

bool needs_metadata_name(const char *name)
{
	return path_ends(name, "tensorflow/python/platform/build_info.py") ||
	       path_ends(name, "torch/version.py") ||
	       path_ends(name, "version/__init__.py") ||
	       dist_info_metadata(name) || statement_name(name);
}

static struct needs_report *report_add(struct needs_scan *s,
				       const char *framework,
				       const char *source)
{
	struct needs_report *r;

	s->rep = xrealloc(s->rep, (s->nrep + 1) * sizeof(*s->rep));
	r = &s->rep[s->nrep++];
	memset(r, 0, sizeof(*r));
	r->framework = xstrdup(framework);
	r->source = xstrdup(source);
	return r;
}

void needs_minimum_text(struct buf *out, const char *what, const char *v,
			const char *sep)
{
	buf_printf(out, "%s%s %s%s", sep, what, v, strchr(v, '.') ? "+" : ".x");
}

void needs_scan_report(struct needs_scan *s, const char *framework,
		       const char *source, const char *cuda, const char *cudnn)
{
	struct needs_report *r = report_add(s, framework, source);

	r->cuda = cuda ? xstrdup(cuda) : NULL;
	r->cudnn = cudnn ? xstrdup(cudnn) : NULL;
}

/*
 * A CUDA version as build files spell it: "11.2"; Windows' TensorFlow
 * "64_112" (11.2) and "64_8" (cuDNN 8); "121" from a "+cu121" tag. NULL
 * when it is none.
 */
static char *build_version(const char *v, int cuda)
{
	struct buf b = BUF_INIT;
	size_t n;

	if (!strncmp(v, "64_", 3))
		v += 3;
	n = strlen(v);
	if (cuda && n >= 3 && n <= 4 && strspn(v, "0123456789") == n)
		buf_printf(&b, "%.*s.%s", (int)(n - 1), v, v + n - 1);
	else
		buf_adds(&b, v);
	if (!version_is_valid(b.data)) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/* The first n parts of version v (fewer when it has fewer). */
static char *version_cut(const char *v, unsigned n)
{
	struct buf b = BUF_INIT;
	unsigned k = 0;

	for (const char *p = v; *p; p++) {
		if (*p == '.' && ++k == n)
			break;
		buf_add(&b, p, 1);
	}
	return buf_detach(&b);
}

/* Keep in *slot the higher of it and v (taken), when of the same major or
 * when *slot is empty. */
static void keep_higher_take(char **slot, char *v)
{
	if (v && (!*slot || version_cmp_str(v, *slot) > 0)) {
		free(*slot);
		*slot = v;
	} else {
		free(v);
	}
}

/*
 * The library whose DLL prefix dll has, followed by a release suffix
 * (digits and '_', then ".dll"), whether or not any release ships that
 * suffix: "cudart64_112.dll" is the runtime's. The longest prefix wins
 * (cublasLt64_ over cublas64_ cannot clash: the next character differs).
 */
static const struct nvlib *dll_library(const char *dll)
{
	const struct nvlib *best = NULL;
	size_t n = strlen(dll), bl = 0;

	if (n < 5 || strcasecmp(dll + n - 4, ".dll"))
		return NULL;
	for (int i = 0; i < NVLIB_COUNT; i++) {
		const struct nvlib *e = nvlib_get((enum nvlib_id)i);
		size_t pl = e->dll ? strlen(e->dll) : 0;

		if (!pl || e->dll_style == NVLIB_DLL_NONE ||
		    e->dll_style == NVLIB_DLL_YEAR || n <= pl + 4 ||
		    strncasecmp(dll, e->dll, pl) ||
		    strspn(dll + pl, "0123456789_") != n - pl - 4 || pl <= bl)
			continue;
		best = e;
		bl = pl;
	}
	return best;
}

/*
 * Add the DLL name a build file says it loads to r. NVIDIA's table wins
 * over the file: a name of a known library that no release ships
 * (TensorFlow 2.10's cudart64_112.dll; every CUDA 11.x runtime DLL is
 * cudart64_110.dll) becomes the table's name for r's release, and the
 * contradiction is said in r's notes.
 */
static void add_dll(struct needs_report *r, const char *dll)
{
	const struct nvlib *lib;
	unsigned long majors;
	struct buf fix = BUF_INIT, note = BUF_INIT;
	const char *v;

	lib = nvlib_match_dll(dll, &majors);
	if (!lib)
		lib = dll_library(dll);
	v = lib && (lib->flags & NVLIB_OWN_VERSION) ? r->cudnn : r->cuda;
	if (!lib || majors || !v || !nvlib_dll_name(lib, v, &fix) ||
	    !strcasecmp(fix.data, dll)) {
		strv_push(&r->dlls, dll);
		goto out;
	}
	strv_push(&r->dlls, fix.data);
	buf_printf(&note,
		   "says %s, which no release ships: %s %s's is %s "
		   "(NVIDIA's table)",
		   dll, lib->flags & NVLIB_OWN_VERSION ? "cuDNN" : "CUDA", v,
		   fix.data);
	strv_push(&r->notes, note.data);
out:
	buf_release(&fix);
	buf_release(&note);
}

/*
 * A report of framework, from the Python file name, when text assigns a
 * CUDA or a cuDNN version (cuda_version = '11.8', cudnn_version = '8'):
 * TensorFlow's build_info.py and a package's version file say them
 * alike. NULL when it assigns neither.
 */
static struct needs_report *versions_report(struct needs_scan *s,
					    const char *framework,
					    const char *name, const char *text,
					    size_t len)
{
	struct buf b = BUF_INIT;
	struct needs_report *r = NULL;
	char *cuda = NULL, *dnn = NULL;

	if (pysrc_value(text, len, "cuda_version", &b))
		cuda = build_version(b.data, 1);
	if (pysrc_value(text, len, "cudnn_version", &b))
		dnn = build_version(b.data, 0);
	if (cuda || dnn) {
		r = report_add(s, framework, name);
		r->cuda = cuda;
		r->cudnn = dnn;
	}
	buf_release(&b);
	return r;
}

static void read_build_info(struct needs_scan *s, const char *name,
			    const char *text, size_t len)
{
	static const char *const dlls[] = { "cudart_dll_name", "cudnn_dll_name",
					    "nvcuda_dll_name" };
	struct needs_report *r =
		versions_report(s, "tensorflow", name, text, len);
	struct buf b = BUF_INIT;

	for (size_t i = 0; r && i < sizeof(dlls) / sizeof(*dlls); i++)
		if (pysrc_value(text, len, dlls[i], &b) && b.len)
			add_dll(r, b.data);
	buf_release(&b);
}

static void read_torch_version(struct needs_scan *s, const char *name,
			       const char *text, size_t len)
{
	struct buf b = BUF_INIT;
	struct needs_report *r;
	char *cuda = NULL;

	if (pysrc_value(text, len, "cuda", &b))
		cuda = build_version(b.data, 1);
	if (cuda) {
		r = report_add(s, "torch", name);
		r->cuda = cuda;
		if (pysrc_value(text, len, "__version__", &b))
			r->version = xstrdup(b.data);
	}
	buf_release(&b);
}

/*
 * A package's own version file, PKG/version/__init__.py (Paddle's:
 * cuda_version = '11.8', cudnn_version = '8.6.0'; 'False' in a CPU
 * build): the CUDA and cuDNN it was built with, reported as PKG's.
 */
static void read_version_file(struct needs_scan *s, const char *name,
			      const char *text, size_t len)
{
	struct buf b = BUF_INIT, pkg = BUF_INIT;
	struct needs_report *r;
	size_t n = strlen(name) - strlen("/version/__init__.py");
	size_t k = n;

	while (k > 0 && !is_sep(name[k - 1]))
		k--;
	buf_add(&pkg, name + k, n - k);
	r = versions_report(s, pkg.len ? pkg.data : name, name, text, len);
	if (r && pysrc_value(text, len, "full_version", &b) && b.len)
		r->version = xstrdup(b.data);
	buf_release(&b);
	buf_release(&pkg);
}

/* ---- what any other build says of itself --------------------------------- */

/*
 * Does key (a constant's name: cuda, cuda_version, CUDA_VERSION,
 * cudaVersion) name the version of what ("cuda", "cudnn")? Not when a
 * word of it says it is something else: a GPU architecture list, a
 * path, the driver, another product's.
 */
static bool key_names(const char *k, size_t kl, const char *what)
{
	static const char *const other[] = {
		"arch",		"archs",   "arches",   "list", "capability",
		"capabilities", "compute", "driver",   "home", "path",
		"dir",		"root",	   "hip",      "rocm", "flags",
		"min",		"max",	   "supported"
	};
	struct buf w = BUF_INIT;
	bool hit = false, bad = false;
	size_t wl = strlen(what);

	for (size_t i = 0; i <= kl && !bad; i++) {
		if (i < kl && isalnum((unsigned char)k[i])) {
			char c = (char)tolower((unsigned char)k[i]);

			buf_add(&w, &c, 1);
			continue;
		}
		if (w.len >= wl && !strncmp(w.data, what, wl) &&
		    (!w.data[wl] || !strcmp(w.data + wl, "version") ||
		     !strcmp(w.data + wl, "ver")))
			hit = true;
		for (size_t j = 0; j < sizeof(other) / sizeof(*other); j++)
			if (w.len && !strcmp(w.data, other[j]))
				bad = true;
		buf_reset(&w);
	}
	buf_release(&w);
	return hit && !bad;
}

/*
 * The version a constant's value states of CUDA (cudnn: of cuDNN):
 * "12.1", "12.1.105", "12", "12.x", "cu121"; digits alone as CUDA and
 * cuDNN write them in numbers: CUDA 118 (11.8), 1201 (12.1, xformers'
 * major * 100 + minor), 12010 (CUDA_VERSION); cuDNN 8600 and 90100
 * (CUDNN_VERSION). NULL for any other value, and for a major no release
 * of its kind could have (CUDA 7 to 29, cuDNN 5 to 29).
 */
static char *stated_version(const char *v, size_t n, bool cudnn)
{
	struct buf b = BUF_INIT;
	unsigned long x, M;
	size_t d;

	if (!cudnn && n > 2 && !strncmp(v, "cu", 2) &&
	    isdigit((unsigned char)v[2])) {
		v += 2;
		n -= 2;
	}
	d = 0;
	while (d < n && isdigit((unsigned char)v[d]))
		d++;
	if (!d || d > 5)
		return NULL;
	x = strtoul(v, NULL, 10);
	if (d < n) {
		/* 12.1, 12.1.105, 12.x */
		buf_add(&b, v, n);
		if (n > 2 && !strcmp(b.data + n - 2, ".x"))
			buf_setlen(&b, n - 2);
	} else if (!cudnn && d == 3) {
		buf_printf(&b, "%lu.%lu", x / 10, x % 10);
	} else if (!cudnn && d == 4) {
		buf_printf(&b, "%lu.%lu", x / 100, x % 100);
	} else if (!cudnn && d == 5) {
		buf_printf(&b, "%lu.%lu", x / 1000, x % 1000 / 10);
	} else if (cudnn && d == 4) {
		buf_printf(&b, "%lu.%lu", x / 1000, x % 1000 / 100);
	} else if (cudnn && d == 5) {
		buf_printf(&b, "%lu.%lu", x / 10000, x % 10000 / 100);
	} else if (d <= 2) {
		buf_printf(&b, "%lu", x);
	}
	M = b.len ? version_major(b.data) : 0;
	if (!b.len || !version_is_valid(b.data) || M < (cudnn ? 5 : 7) ||
	    M > 29) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/* What one text member says: the first CUDA, cuDNN, +cuNNN label. */
struct statement {
	char *cuda, *cudnn, *label, *version;
	bool cuda_many, cudnn_many; /* stated twice, differently: a table */
};

/* *have (the first stated), or on a second, different value, *many. */
static void state_once(char **have, bool *many, char *v)
{
	if (!*have)
		*have = v;
	else if (v && strcmp(*have, v))
		*many = true;
	if (*have != v)
		free(v);
}

static void take_statement(const char *k, size_t kl, const char *v, size_t vl,
			   bool quoted, void *ctx)
{
	struct statement *st = ctx;
	const char *plus = quoted ? memchr(v, '+', vl) : NULL;

	if (key_names(k, kl, "cudnn"))
		state_once(&st->cudnn, &st->cudnn_many,
			   stated_version(v, vl, true));
	else if (key_names(k, kl, "cuda"))
		state_once(&st->cuda, &st->cuda_many,
			   stated_version(v, vl, false));
	/* a version with a CUDA label: 2.5.1+cu124 (torchaudio's own,
	 * or the torch xformers was built against) */
	if (plus && isdigit((unsigned char)*v) && !st->label &&
	    (size_t)(plus - v) + 4 < vl && !strncmp(plus + 1, "cu", 2) &&
	    isdigit((unsigned char)plus[3]))
		st->label = stated_version(plus + 1,
					   vl - (size_t)(plus - v) - 1, false);
	if (!st->version && kl == 11 && !memcmp(k, "__version__", 11) && quoted)
		st->version = xstrndup(v, vl);
}

/*
 * The package a member belongs to, from its path: the folder holding it
 * ("x.whl/xformers/cpp_lib.json", "SITE/torchaudio/version.py"), or a
 * wheel's project when it lies at the wheel's top.
 */
static void member_package(const char *name, struct buf *out)
{
	const char *base = name + strlen(name), *dir;

	while (base > name && !is_sep(base[-1]))
		base--;
	/* a data folder is its package's: cupy/.data/_wheel.json is cupy's */
	do {
		dir = base > name ? base - 1 : base;
		while (dir > name && !is_sep(dir[-1]))
			dir--;
		if (*dir != '.' || dir == name)
			break;
		base = dir;
	} while (1);
	buf_reset(out);
	buf_add(out, dir, base > dir ? (size_t)(base - dir - 1) : 0);
	if (out->len > 4 && !strcmp(out->data + out->len - 4, ".whl"))
		buf_setlen(out, strcspn(out->data, "-"));
}

/*
 * Any other text member a build carries at its top (a .py or .json
 * beside its modules): each constant that names CUDA or cuDNN and a
 * version (key_names, stated_version), else a +cuNNN label in a version
 * it gives, is what the package was built with. Nothing when it names
 * neither.
 */
/*
 * The libraries Python source loads with ctypes by a name without a
 * version ("libcudnn.so", "libcudnn.so.*[0-9]"): unseen loads of name.
 */
static void read_ctypes(struct needs_scan *s, const char *name,
			const char *text, size_t len)
{
	if (!mem_find(text, len, "ctypes", 6))
		return;
	for (int i = 0; i < NVLIB_COUNT; i++) {
		const struct nvlib *l = nvlib_get((enum nvlib_id)i);
		size_t n = strlen(l->so);
		const char *p = text, *end = text + len;

		if (!(l->flags & NVLIB_FRAMEWORK))
			continue;
		while ((p = mem_find(p, (size_t)(end - p), l->so, n))) {
			const char *q = p + n;

			p = q;
			/* the name alone, or a glob: not libcudnn_ops, not
			 * libcudnn.so.9 */
			if (q < end &&
			    (isalnum((unsigned char)*q) || *q == '_' ||
			     (*q == '.' && q + 1 < end &&
			      isdigit((unsigned char)q[1]))))
				continue;
			unseen_add(s, name, l->so, l->id, true);
			break;
		}
	}
}

static void read_statements(struct needs_scan *s, const char *name,
			    const char *text, size_t len)
{
	struct statement st = { 0 };
	struct buf pkg = BUF_INIT;

	read_ctypes(s, name, text, len);
	pysrc_each(text, len, take_statement, &st);
	/* a table of several releases states none of them */
	if (st.cuda_many) {
		FREE_EACH(st.cuda, st.label);
		st.cuda = st.label = NULL;
	}
	if (st.cudnn_many) {
		free(st.cudnn);
		st.cudnn = NULL;
	}
	if (!st.cuda) {
		st.cuda = st.label;
		st.label = NULL;
	}
	if (st.cuda || st.cudnn) {
		struct needs_report *r;

		member_package(name, &pkg);
		r = report_add(s, pkg.len ? pkg.data : name, name);
		r->cuda = st.cuda;
		r->cudnn = st.cudnn;
		r->version = st.version;
		st.cuda = st.cudnn = st.version = NULL;
	}
	FREE_EACH(st.cuda, st.cudnn, st.label, st.version);
	buf_release(&pkg);
}


/* "Nvidia_CuDNN-cu12" as PEP 503 normalises it: "nvidia-cudnn-cu12". */
static void normalise_name(const char *p, size_t n, struct buf *out)
{
	buf_reset(out);
	for (size_t i = 0; i < n; i++) {
		char c = (char)tolower((unsigned char)p[i]);

		buf_add(out, c == '_' || c == '.' ? "-" : &c, 1);
	}
}

/* "-cu12" at the end of name: 12; 0 when there is none. */
static unsigned cu_suffix(const char *name)
{
	const char *d = strrchr(name, '-');
	char *e;
	unsigned long m;

	if (!d || strncmp(d, "-cu", 3) || !isdigit((unsigned char)d[3]))
		return 0;
	m = strtoul(d + 3, &e, 10);
	return *e || m > 99 ? 0 : (unsigned)m;
}

/* What a set of requirements (those under no extra, or one extra's) asks. */
struct meta_acc {
	char *cuda, *cudnn;
	unsigned major; /* a CUDA major said without a version, or 0 */
};

/*
 * A METADATA's requirements: those every install gets, and each extra's
 * apart, in the order met (jax 0.4.25's "cuda11_pip" pins CUDA 11, its
 * "cuda12" CUDA 12: no one answer).
 */
struct meta_read {
	struct meta_acc base;
	struct strv extras; /* names of x[] */
	struct meta_acc *x;
};

static void meta_acc_release(struct meta_acc *a)
{
	free(a->cuda);
	free(a->cudnn);
	memset(a, 0, sizeof(*a));
}

static unsigned acc_major(const struct meta_acc *a)
{
	return a->cuda ? (unsigned)version_major(a->cuda) : a->major;
}

static bool acc_says(const struct meta_acc *a)
{
	return a->cuda || a->cudnn || a->major;
}

/* b's minimums into a (b unchanged). */
static void acc_merge(struct meta_acc *a, const struct meta_acc *b)
{
	keep_higher_take(&a->cuda, b->cuda ? xstrdup(b->cuda) : NULL);
	keep_higher_take(&a->cudnn, b->cudnn ? xstrdup(b->cudnn) : NULL);
	if (!a->major)
		a->major = b->major;
}

/*
 * The name of the extra a requirement's marker (after its ';') asks for:
 * "extra == 'with_cuda'" is "with_cuda"; NULL when there is none.
 */
static char *marker_extra(const char *semi)
{
	const char *p = strstr(semi, "extra");
	size_t n;

	if (!p)
		return NULL;
	p += 5;
	p += strspn(p, " ");
	if (strncmp(p, "==", 2))
		return NULL;
	p += 2;
	p += strspn(p, " ");
	if (*p != '\'' && *p != '"')
		return NULL;
	n = strcspn(p + 1, "'\"");
	if (!n || p[1 + n] != *p)
		return NULL;
	return xstrndup(p + 1, n);
}

/*
 * The CUDA part a normalised requirement name names, into stem ("cudnn",
 * "cuda-runtime"), with the CUDA major of its "-cu12" suffix, or 0; false
 * for a package that is not NVIDIA's.
 */
static bool requirement_stem(const char *name, struct buf *stem,
			     unsigned *major)
{
	*major = 0;
	if (!strcmp(name, "cuda-toolkit")) {
		/* NVIDIA's metapackage: cuda-toolkit[cudart,cupti]==13.2.2 */
		buf_adds(stem, "cuda-runtime");
		return true;
	}
	if (strncmp(name, "nvidia-", 7))
		return false;
	*major = cu_suffix(name);
	buf_adds(stem, name + 7);
	if (*major)
		buf_setlen(stem, stem->len - strlen(strrchr(stem->data, '-')));
	return true;
}

static bool lower_bound(const char *p)
{
	return !strncmp(p, "==", 2) || !strncmp(p, ">=", 2) ||
	       !strncmp(p, "~=", 2);
}

/*
 * The version of the first lower bound among the specifiers at p
 * ("[extra] <10.0,>=9.1 ; ..."), trailing dots cut; NULL where there is
 * none or it is not a version.
 */
static char *requirement_pin(const char *p)
{
	struct buf b = BUF_INIT;
	char *pin = NULL;

	while (*p == ' ')
		p++;
	if (*p == '[' && strchr(p, ']'))
		p = strchr(p, ']') + 1;
	for (const char *q = p; *q && *q != ';'; q++) {
		if (lower_bound(q)) {
			p = q;
			break;
		}
	}
	if (!lower_bound(p))
		return NULL;
	p += 2;
	while (*p == ' ')
		p++;
	buf_add(&b, p, strspn(p, "0123456789."));
	while (b.len && b.data[b.len - 1] == '.')
		buf_setlen(&b, b.len - 1);
	if (version_is_valid(b.data))
		pin = buf_detach(&b);
	buf_release(&b);
	return pin;
}

/*
 * A dependency is not a build: NCCL, NVSHMEM and cuSPARSELt follow their
 * own versions and link the CUDA runtime they need themselves (a package
 * whose GPU code has CUDA linked in statically still depends on
 * nvidia-nccl-cu12), so their -cuNN says nothing of what the package's
 * own files were built with.
 */
static bool not_a_build(const char *stem)
{
	return !strcmp(stem, "nccl") || !strcmp(stem, "nvshmem") ||
	       !strcmp(stem, "cusparselt");
}

/* "+cu121" (torch) or "+cuda12.cudnn89" (jaxlib) in a local version. */
static void read_local_version(const char *v, struct meta_acc *a)
{
	const char *plus = strchr(v, '+');
	char *e;
	unsigned long m;

	if (!plus)
		return;
	if (!strncmp(plus, "+cu", 3) && isdigit((unsigned char)plus[3]) &&
	    strspn(plus + 3, "0123456789") == strlen(plus + 3))
		keep_higher_take(&a->cuda, build_version(plus + 3, 1));
	if (!strncmp(plus, "+cuda", 5) && isdigit((unsigned char)plus[5])) {
		m = strtoul(plus + 5, &e, 10);
		if (m && m < 100 && !a->major)
			a->major = (unsigned)m;
		if (!strncmp(e, ".cudnn", 6) && isdigit((unsigned char)e[6]) &&
		    isdigit((unsigned char)e[7]) && !e[8]) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "%c.%c", e[6], e[7]);
			keep_higher_take(&a->cudnn, buf_detach(&b));
		}
	}
}

/*
 * The CUDA tag of a package's own name, one '-' word of it: cuNN and
 * cudaNN(x) say CUDA NN (cupy-cuda12x, jax-cuda12-plugin, cudf-cu12,
 * tensorrt-cu12); cuNNN and cudaNNN say NN.N (spconv-cu120,
 * mxnet-cu112, cupy-cuda102); a pair of digits past 29 is N.N
 * (mxnet-cu92: 9.2).
 */
static void read_package_name(const char *name, struct meta_acc *a)
{
	for (const char *w = name; *w; w += *w == '-') {
		size_t n = strcspn(w, "-"), pre = 0, d;
		const char *p;

		if (n > 4 && !strncmp(w, "cuda", 4))
			pre = 4;
		else if (n > 2 && !strncmp(w, "cu", 2))
			pre = 2;
		p = w + pre;
		w += n;
		d = pre ? strspn(p, "0123456789") : 0;
		if (!d || (pre + d != n && (pre + d + 1 != n || p[d] != 'x')))
			continue;
		/* CuPy's install guide: cupy-cuda11x is for CUDA 11.2 to 11.8 */
		if (!strcmp(name, "cupy-cuda11x")) {
			keep_higher_take(&a->cuda, xstrdup("11.2"));
		} else if (d == 2 && strtoul(p, NULL, 10) >= 30 &&
			   p[d] != 'x') {
			struct buf b = BUF_INIT;

			buf_printf(&b, "%c.%c", p[0], p[1]);
			keep_higher_take(&a->cuda, buf_detach(&b));
		} else if (d == 2 && strtoul(p, NULL, 10) >= 7 && !a->major) {
			a->major = (unsigned)strtoul(p, NULL, 10);
		} else if (d == 3 && p[d] != 'x') {
			keep_higher_take(&a->cuda, build_version(p, 1));
		}
		return;
	}
}

/* The set of requirements a marker puts a requirement in (semi: its ';'). */
static struct meta_acc *meta_slot(struct meta_read *m, const char *semi)
{
	char *extra = semi ? marker_extra(semi) : NULL;
	size_t i;

	if (!extra)
		return &m->base;
	for (i = 0; i < m->extras.n && strcmp(m->extras.v[i], extra); i++)
		;
	if (i == m->extras.n) {
		strv_push(&m->extras, extra);
		m->x = xrealloc(m->x, m->extras.n * sizeof(*m->x));
		memset(&m->x[i], 0, sizeof(m->x[i]));
	}
	free(extra);
	return &m->x[i];
}

/*
 * A pin's local version names the build it asks for, whoever's it is:
 * "jaxlib ==0.4.25+cuda11.cudnn86 ; extra == 'cuda11_pip'".
 */
static void read_pinned_build(const char *p, struct meta_acc *a)
{
	const char *eq = strstr(p, "==");
	struct buf b = BUF_INIT;

	if (!eq)
		return;
	eq += 2;
	eq += strspn(eq, " ");
	buf_add(&b, eq, strcspn(eq, " ,;)"));
	if (strchr(b.data, '+'))
		read_local_version(b.data, a);
	buf_release(&b);
}

/*
 * One Requires-Dist value: "nvidia-cudnn-cu12 (==8.9.2.26) ; platform_...",
 * "nvidia-cudnn-cu12==9.26.0.51; extra == 'cuda'", into the set its
 * marker names.
 */
static void read_requirement(const char *v, struct meta_read *m)
{
	struct buf name = BUF_INIT, stem = BUF_INIT;
	size_t n =
		strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			  "0123456789._-");
	const char *semi = strchr(v, ';');
	struct meta_acc *a = meta_slot(m, semi);
	unsigned major;
	char *pin = NULL;

	normalise_name(v, n, &name);
	if (!requirement_stem(name.data, &stem, &major)) {
		read_pinned_build(v + n, a);
		goto out;
	}
	pin = requirement_pin(v + n);
	if (!strcmp(stem.data, "cudnn")) {
		if (pin)
			keep_higher_take(&a->cudnn,
					 version_cut(pin,
						     a != &m->base ? 2 : 3));
	} else if (!strcmp(stem.data, "cuda-runtime") ||
		   !strcmp(stem.data, "cuda-cupti") ||
		   !strcmp(stem.data, "cuda-nvrtc")) {
		if (pin)
			keep_higher_take(&a->cuda, version_cut(pin, 2));
		else if (major && !a->major)
			a->major = major;
	} else if (major && !a->major && !not_a_build(stem.data)) {
		a->major = major;
	}
out:
	free(pin);
	buf_release(&name);
	buf_release(&stem);
}

/* "CUDA 11.8+, cuDNN 8.8+" for what a asks. */
static void acc_describe(const struct meta_acc *a, struct buf *out)
{
	if (a->cuda)
		needs_minimum_text(out, "CUDA", a->cuda, "");
	else if (a->major)
		buf_printf(out, "CUDA %u.x", a->major);
	if (a->cudnn)
		needs_minimum_text(out, "cuDNN", a->cudnn,
				   a->cuda || a->major ? ", " : "");
}

/*
 * The extras' minimums into m->base, the names of those used into used.
 * Extras that agree on the CUDA major (or name none) add to what every
 * install gets. Where they are for two majors or more (jax 0.4.25:
 * cuda11_pip and cuda12), the package does not say which it needs: the
 * extra installed does. Each major's extras are then said in notes, and
 * only what every install gets is a minimum.
 */
static void resolve_extras(struct meta_read *m, struct strv *used,
			   struct strv *notes)
{
	unsigned majors[8], nm = 0, base = acc_major(&m->base);

	for (size_t i = 0; i < m->extras.n; i++) {
		unsigned M = acc_major(&m->x[i]);
		unsigned k = 0;

		while (k < nm && majors[k] != M)
			k++;
		if (M && k == nm && nm < 8 && (!base || M != base))
			majors[nm++] = M;
	}
	if (nm + (base != 0) <= 1) {
		for (size_t i = 0; i < m->extras.n; i++) {
			if (!acc_says(&m->x[i]))
				continue;
			acc_merge(&m->base, &m->x[i]);
			strv_push(used, m->extras.v[i]);
		}
		return;
	}
	for (size_t i = 0; base && i < m->extras.n; i++) {
		unsigned M = acc_major(&m->x[i]);

		if (acc_says(&m->x[i]) && (!M || M == base)) {
			acc_merge(&m->base, &m->x[i]);
			strv_push(used, m->extras.v[i]);
		}
	}
	for (unsigned k = 0; k < nm; k++) {
		struct meta_acc g = { 0 };
		struct buf b = BUF_INIT, names = BUF_INIT;
		size_t n = 0;

		for (size_t i = 0; i < m->extras.n; i++) {
			unsigned M = acc_major(&m->x[i]);

			if ((M != majors[k] && M) || !acc_says(&m->x[i]))
				continue;
			acc_merge(&g, &m->x[i]);
			buf_printf(&names, "%s%s", n++ ? ", " : "",
				   m->extras.v[i]);
		}
		buf_printf(&b, "extra%s %s ask%s for ", n > 1 ? "s" : "",
			   names.data, n > 1 ? "" : "s");
		buf_release(&names);
		acc_describe(&g, &b);
		strv_push(notes, b.data);
		buf_release(&b);
		meta_acc_release(&g);
	}
	strv_push(notes, "its extras are for different CUDA majors: the one "
			 "installed decides (`cuenv needs --python` reads it)");
}

static void read_dist_metadata(struct needs_scan *s, const char *path,
			       const char *text, size_t len)
{
	struct meta_read m = { .extras = STRV_INIT };
	struct strv used = STRV_INIT, notes = STRV_INIT;
	struct buf line = BUF_INIT, name = BUF_INIT, version = BUF_INIT;
	const char *end = text + len;
	struct meta_acc *a = &m.base;

	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *v;

		if (n && p[n - 1] == '\r')
			n--;
		if (!n)
			break; /* the headers end at the first blank line */
		buf_reset(&line);
		buf_add(&line, p, n);
		v = strchr(line.data, ':');
		v = v ? v + 1 + strspn(v + 1, " ") : line.data;
		if (!strncmp(line.data, "Name:", 5))
			normalise_name(v, strlen(v), &name);
		else if (!strncmp(line.data, "Version:", 8))
			buf_sets(&version, v);
		else if (!strncmp(line.data, "Requires-Dist:", 14))
			read_requirement(v, &m);
		p = nl ? nl + 1 : end;
	}
	/* NVIDIA's own wheels provide CUDA; they do not ask for it */
	if (!name.len || !strncmp(name.data, "nvidia-", 7))
		goto out;
	read_local_version(version.data, a);
	read_package_name(name.data, a);
	resolve_extras(&m, &used, &notes);
	if (!a->cuda && a->major) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%u", a->major);
		a->cuda = buf_detach(&b);
	}
	if (a->cuda || a->cudnn || notes.n) {
		struct buf src = BUF_INIT;
		struct needs_report *r;

		/* the pins of the extras that install the GPU support */
		buf_adds(&src, path);
		for (size_t i = 0; i < used.n; i++)
			buf_printf(&src, "%s%s", i ? ", " : " (extra ",
				   used.v[i]);
		if (used.n)
			buf_addc(&src, ')');
		r = report_add(s, name.data, src.data);
		buf_release(&src);

		r->version = version.len ? xstrdup(version.data) : NULL;
		r->cuda = a->cuda;
		r->cudnn = a->cudnn;
		a->cuda = a->cudnn = NULL;
		for (size_t i = 0; i < notes.n; i++)
			strv_push(&r->notes, notes.v[i]);
	}
out:
	meta_acc_release(&m.base);
	for (size_t i = 0; i < m.extras.n; i++)
		meta_acc_release(&m.x[i]);
	free(m.x);
	STRV_RELEASE_EACH(&m.extras, &used, &notes);
	BUF_RELEASE_EACH(&line, &name, &version);
}

/* ---- a plugin's parent framework (frameworks.tsv) ----------------------- */

const char *needs_plugin_parent(const char *package)
{
	/*
	 * JAX's GPU support ships as packages released with jax and versioned
	 * as it is (jax's METADATA: jax-cuda12-plugin[with-cuda]==V under
	 * extra "cuda12"): jax-cudaNN-plugin, jax-cudaNN-pjrt, jaxlib.
	 */
	if (!strncmp(package, "jax-cuda", 8) || !strcmp(package, "jaxlib"))
		return "jax";
	return NULL;
}

/*
 * The minimum the notes of a frameworks.tsv row state for what ("CUDA",
 * "cuDNN"): "compatible with CUDA >=12.1 and cuDNN >=9.1, <10.0" says
 * 12.1 and 9.1; NULL when they state none (the row's versions are then
 * the ones it was built with).
 */
static char *notes_minimum(const char *notes, const char *what)
{
	const char *p = strstr(notes, "compatible with ");
	struct buf key = BUF_INIT, b = BUF_INIT;
	char *v = NULL;

	buf_printf(&key, "%s >=", what);
	if (p)
		p = strstr(p, key.data);
	if (p) {
		p += key.len;
		buf_add(&b, p, strspn(p, "0123456789."));
		while (b.len && b.data[b.len - 1] == '.')
			buf_setlen(&b, b.len - 1);
		if (version_is_valid(b.data))
			v = buf_detach(&b);
	}
	BUF_RELEASE_EACH(&key, &b);
	return v;
}

/* Do a and b (either may be NULL) state different minimums? */
static bool differ(const char *a, const char *b)
{
	return a && b && version_cmp_str(a, b) != 0;
}

/* Each of own and row says what the other states instead. */
static void note_disagreement(struct needs_report *own,
			      struct needs_report *row, const char *what,
			      const char *mine, const char *table)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "frameworks.tsv's %s %s row says %s >= %s",
		   row->framework, row->version, what, table);
	strv_push(&own->notes, b.data);
	buf_reset(&b);
	buf_printf(&b, "%s %s's own metadata says %s >= %s", own->framework,
		   own->version, what, mine);
	strv_push(&row->notes, b.data);
	buf_release(&b);
}

/* One plugin report (index i: s->rep may move) against rows. */
static void parent_row(struct needs_scan *s, size_t i, const char *parent,
		       const struct framework_builds *rows)
{
	struct buf ver = BUF_INIT, src = BUF_INIT;
	const struct framework_build *hit = NULL;
	struct needs_report *r, *own;
	size_t n = 0, plus;
	unsigned long major;

	own = &s->rep[i];
	/* jaxlib 0.4.25+cuda12.cudnn89: jax 0.4.25 */
	plus = strcspn(own->version, "+");
	buf_add(&ver, own->version, plus);
	major = own->cuda ? version_major(own->cuda) : 0;
	for (size_t k = 0; k < rows->n; k++) {
		const struct framework_build *b = &rows->v[k];

		if (strcmp(b->framework, parent) ||
		    strcmp(b->version, ver.data) ||
		    (major && version_major(b->cuda) != major))
			continue;
		if (!hit)
			hit = b;
		/* the same build twice (an updated table) is one */
		if (b == hit || strcmp(b->cuda, hit->cuda) ||
		    !b->cudnn != !hit->cudnn ||
		    (b->cudnn && strcmp(b->cudnn, hit->cudnn)))
			n++;
	}
	if (!hit)
		goto out;
	buf_printf(&src, "frameworks.tsv: %s %s (the parent of %s %s)", parent,
		   ver.data, own->framework, own->version);
	if (n > 1) {
		/* no CUDA major to choose by: say so rather than choose */
		struct buf b = BUF_INIT;

		buf_printf(&b,
			   "%s: %zu builds of %s %s, and %s does not say "
			   "which CUDA major it is for",
			   src.data, n, parent, ver.data, own->source);
		strv_push(&own->notes, b.data);
		buf_release(&b);
		goto out;
	}
	r = report_add(s, parent, src.data);
	own = &s->rep[i];
	r->version = buf_detach(&ver);
	r->cuda = notes_minimum(hit->notes, "CUDA");
	if (!r->cuda)
		r->cuda = xstrdup(hit->cuda);
	r->cudnn = notes_minimum(hit->notes, "cuDNN");
	if (!r->cudnn && hit->cudnn)
		r->cudnn = xstrdup(hit->cudnn);
	/* a bare major ("12", from a package name) states no minimum */
	if (own->cuda && strchr(own->cuda, '.') && differ(own->cuda, r->cuda))
		note_disagreement(own, r, "CUDA", own->cuda, r->cuda);
	if (differ(own->cudnn, r->cudnn))
		note_disagreement(own, r, "cuDNN", own->cudnn, r->cudnn);
out:
	BUF_RELEASE_EACH(&ver, &src);
}

/* Is r a versioned report of a plugin of parent (jax-cuda12-plugin)? */
static bool plugin_of(const struct needs_report *r, const char *parent)
{
	const char *p = needs_plugin_parent(r->framework);

	return p && !strcmp(p, parent) && r->version;
}

void needs_parent_rows(struct needs_scan *s, const char *parent,
		       const struct framework_builds *rows)
{
	size_t n = s->nrep;

	for (size_t i = 0; i < n; i++) {
		bool again = false;

		if (!plugin_of(&s->rep[i], parent))
			continue;
		/* jax-cuda12-plugin and jax-cuda12-pjrt 0.4.31: one jax */
		for (size_t k = 0; k < i && !again; k++)
			again = plugin_of(&s->rep[k], parent) &&
				!strcmp(s->rep[k].version, s->rep[i].version);
		if (!again)
			parent_row(s, i, parent, rows);
	}
}

bool needs_read_metadata(struct needs_scan *s, const char *name,
			 const char *text, size_t len)
{
	size_t before = s->nrep;

	if (path_ends(name, "tensorflow/python/platform/build_info.py"))
		read_build_info(s, name, text, len);
	else if (path_ends(name, "torch/version.py"))
		read_torch_version(s, name, text, len);
	else if (path_ends(name, "version/__init__.py"))
		read_version_file(s, name, text, len);
	else if (dist_info_metadata(name))
		read_dist_metadata(s, name, text, len);
	else
		read_statements(s, name, text, len);
	return s->nrep > before;
}

static int cmp_want(const void *a, const void *b)
{
	const struct needs_want *x = a, *y = b;

	if (x->lib != y->lib)
		return x->lib < y->lib ? -1 : 1;
	return strcmp(x->soname, y->soname);
}

/*
 * The name path has with its CUDA tag as "*" (".../libx_cuda*.so" for
 * ".../libx_cuda118.so": "cu" or "cuda" and two or three digits after a
 * '_', '-' or '.' of the file's name), into out; false when it has none.
 */
static bool alt_pattern(const char *path, struct buf *out)
{
	const char *base = strrchr(path, '/'), *p;

	base = base ? base + 1 : path;
	for (p = base; (p = strstr(p, "cu")); p++) {
		const char *d = p + (strncmp(p, "cuda", 4) ? 2 : 4);
		size_t n = strspn(d, "0123456789");

		if (p == base || !strchr("_-.", p[-1]) || n < 2 || n > 3 ||
		    isalnum((unsigned char)d[n]))
			continue;
		buf_reset(out);
		buf_add(out, path, (size_t)(d - path));
		buf_printf(out, "*%s", d + n);
		return true;
	}
	return false;
}

/* Add file to the alternative of pattern (a new one when none). */
static void alt_add(struct needs_scan *s, const char *pattern, const char *file)
{
	size_t i = 0;

	while (i < s->nalt && strcmp(s->alt[i].pattern, pattern))
		i++;
	if (i == s->nalt) {
		s->alt = xrealloc(s->alt, (s->nalt + 1) * sizeof(*s->alt));
		memset(&s->alt[i], 0, sizeof(s->alt[i]));
		s->alt[i].pattern = xstrdup(pattern);
		s->nalt++;
	}
	if (strv_find(&s->alt[i].files, file) < 0)
		strv_push(&s->alt[i].files, file);
}

/*
 * The files that require a want, grouped by alt_pattern: a group of two
 * or more is a needs_alt, and a want only its members require is marked
 * alternative.
 */
static void find_alternatives(struct needs_scan *s)
{
	struct buf pat = BUF_INIT;
	size_t keep = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct strv *by[] = { &s->v[i].needed_by,
					    &s->v[i].loaded_by };

		for (size_t b = 0; asked_by_a_file(&s->v[i]) && b < 2; b++)
			for (size_t j = 0; j < by[b]->n; j++)
				if (alt_pattern(by[b]->v[j], &pat))
					alt_add(s, pat.data, by[b]->v[j]);
	}
	for (size_t i = 0; i < s->nalt; i++) {
		if (s->alt[i].files.n < 2) {
			free(s->alt[i].pattern);
			strv_release(&s->alt[i].files);
			continue;
		}
		strv_sort(&s->alt[i].files);
		s->alt[keep++] = s->alt[i];
	}
	s->nalt = keep;
	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];
		const struct strv *by[] = { &w->needed_by, &w->loaded_by };
		bool all = asked_by_a_file(w);

		for (size_t b = 0; all && b < 2; b++)
			for (size_t j = 0; all && j < by[b]->n; j++) {
				size_t k = 0;

				while (k < s->nalt &&
				       strv_find(&s->alt[k].files,
						 by[b]->v[j]) < 0)
					k++;
				all = k < s->nalt;
			}
		w->alternative = all;
	}
	buf_release(&pat);
}

void needs_scan_finish(struct needs_scan *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_want);
	for (size_t i = 0; i < s->n; i++) {
		long k = strv_find(&s->provides, s->v[i].soname);

		/* provides holds pairs: an even index is a soname */
		for (size_t j = 0; k >= 0 && j + 1 < s->provides.n; j += 2) {
			if (!strcmp(s->provides.v[j], s->v[i].soname)) {
				free(s->v[i].provided_by);
				s->v[i].provided_by =
					xstrdup(s->provides.v[j + 1]);
				break;
			}
		}
	}
	find_alternatives(s);
}

/* ---- what Python's frameworks report ------------------------------------- */

/*
 * fd 3 keeps the answer apart from whatever the frameworks print on
 * stdout or stderr. Versions come back as strings: cuDNN's integer
 * (8902, 90100) as "8.9.2", "9.1.0".
 */
const char needs_python_script[] =
	"import json, os, sys\n"
	"os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')\n"
	"def dnn(v):\n"
	"    if v is None:\n"
	"        return None\n"
	"    v = int(v)\n"
	"    if v >= 10000:\n"
	"        return '%d.%d.%d' % (v // 10000, v % 10000 // 100, v % 100)\n"
	"    return '%d.%d.%d' % (v // 1000, v % 1000 // 100, v % 100)\n"
	"def tensorflow():\n"
	"    import tensorflow as m\n"
	"    b = dict(m.sysconfig.get_build_info())\n"
	"    return {'version': m.__version__, 'cuda': b.get('cuda_version'),\n"
	"            'cudnn': b.get('cudnn_version')}\n"
	"def torch():\n"
	"    import torch as m\n"
	"    c = p = None\n"
	"    try:\n"
	"        c = dnn(m.backends.cudnn.version())\n"
	"    except Exception as e:\n"
	"        p = '%s: %s' % (type(e).__name__, e)\n"
	"    r = {'version': m.__version__, 'cuda': m.version.cuda,\n"
	"         'cudnn': c}\n"
	"    if p:\n"
	"        r['problem'] = p\n"
	"    return r\n"
	"def jax():\n"
	"    import jax as m\n"
	"    r = {'version': m.__version__, 'cuda': None, 'cudnn': None}\n"
	"    try:\n"
	"        from jax._src.lib import cuda_versions as cv\n"
	"        if cv is not None:\n"
	"            v = int(cv.cuda_runtime_build_version())\n"
	"            r['cuda'] = '%d.%d' % (v // 1000, v % 1000 // 10)\n"
	"            r['cudnn'] = dnn(cv.cudnn_build_version())\n"
	"    except Exception:\n"
	"        pass\n"
	"    return r\n"
	"out = {'python': sys.version.split()[0], 'frameworks': {}}\n"
	"for name, f in (('tensorflow', tensorflow), ('torch', torch),\n"
	"                ('jax', jax)):\n"
	"    try:\n"
	"        r = f()\n"
	"        out['frameworks'][name] = dict(\n"
	"            (k, None if v is None else str(v))\n"
	"            for k, v in r.items())\n"
	"    except BaseException as e:\n"
	"        out['frameworks'][name] = {\n"
	"            'absent': '%s: %s' % (type(e).__name__, e)}\n"
	"with os.fdopen(3, 'w') as f:\n"
	"    json.dump(out, f)\n";

const char *const needs_framework_names[NEEDS_FRAMEWORKS] = { "tensorflow",
							      "torch", "jax" };

void needs_python_init(struct needs_python *py, const char *exe)
{
	memset(py, 0, sizeof(*py));
	py->exe = exe;
}

/* Free what f holds and empty it. */
static void framework_clear(struct needs_framework *f)
{
	FREE_EACH(f->version, f->cuda, f->cudnn, f->absent, f->problem);
	memset(f, 0, sizeof(*f));
}

void needs_python_release(struct needs_python *py)
{
	for (size_t i = 0; i < py->nfound; i++) {
		free(py->found[i].name);
		strv_release(&py->found[i].folders);
	}
	free(py->found);
	free(py->finder);
	strv_release(&py->sites);
	free(py->version);
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++)
		framework_clear(&py->fw[i]);
	needs_python_init(py, py->exe);
}

static char *json_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

/* A version from Python, or NULL when it is none ("11.2" yes, "None" no). */
static char *json_version(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && version_is_valid(s) ? xstrdup(s) : NULL;
}

int needs_python_parse(struct needs_python *py, const char *text, size_t len)
{
	json_t *j = json_loadb(text, len, 0, NULL), *fws;

	if (!j || !json_is_object(j)) {
		json_decref(j);
		return -1;
	}
	free(py->version);
	py->version = json_str(j, "python");
	fws = json_object_get(j, "frameworks");
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		json_t *o = json_object_get(fws, needs_framework_names[i]);
		struct needs_framework *f = &py->fw[i];

		if (!json_is_object(o))
			continue;
		framework_clear(f);
		f->absent = json_str(o, "absent");
		/* an import that raised anything but "No module named" is a
		 * framework that is there and broken (issue 21: an
		 * ImportError "undefined symbol ..., version ..."): a problem */
		if (f->absent &&
		    strncmp(f->absent, "ModuleNotFoundError: ", 21))
			f->problem = xstrdup(f->absent);
		if (f->absent)
			continue;
		f->version = json_str(o, "version");
		if (f->version && !*f->version) {
			free(f->version); /* an empty __version__ */
			f->version = NULL;
		}
		if (!f->version)
			f->version = xstrdup("?");
		f->cuda = json_version(o, "cuda");
		f->cudnn = json_version(o, "cudnn");
		f->problem = json_str(o, "problem");
		/* torch's cuDNN check failed: the version it was built with
		 * is in its message, read where explain reads it */
		if (!f->cudnn && f->problem)
			f->cudnn = fwmsg_cudnn_built(f->problem);
	}
	json_decref(j);
	return 0;
}
