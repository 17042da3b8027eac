#include "explain/explain.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/plat_path.h"
#include "nvidia/compat.h"
#include "nvidia/nvlib.h"
#include "plat/file.h"
#include "artifact/fwmsg.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

/* A line longer than this is cut where it is kept (finding->line). */
#define LINE_KEEP 300

/* ---- the findings seen --------------------------------------------------- */

/*
 * Every finding's key, kept or not (past EXPLAIN_KEEP): its name, or for
 * a mismatch its framework and versions, or for CUPTI's its kind. An
 * open-addressing table (linear probing, at most half full), so that a
 * log of many names is read in time linear in its length.
 */
#define OMITTED ((size_t)-1)

struct explain_slot {
	char *key; /* NULL: empty */
	size_t at; /* the finding's index in ex->v, or OMITTED */
};

struct explain_keys {
	struct explain_slot *v;
	size_t cap, n; /* cap a power of two */
};

static uint64_t key_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* key's slot in k: its own, or the empty one where it would go. */
static struct explain_slot *key_slot(const struct explain_keys *k,
				     const char *key)
{
	size_t i = (size_t)key_hash(key) & (k->cap - 1);

	while (k->v[i].key && strcmp(k->v[i].key, key))
		i = (i + 1) & (k->cap - 1);
	return &k->v[i];
}

static void keys_grow(struct explain_keys *k)
{
	struct explain_slot *old = k->v;
	size_t ocap = k->cap;

	k->cap = ocap ? 2 * ocap : 64;
	k->v = xcalloc(k->cap, sizeof(*k->v));
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key)
			*key_slot(k, old[i].key) = old[i];
	free(old);
}

static void keys_free(struct explain_keys *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->cap; i++)
		free(k->v[i].key);
	free(k->v);
	free(k);
}

/* Was key seen? *f gets its finding, NULL when it was not kept. */
static bool seen(const struct explain *ex, const char *key,
		 struct explain_finding **f)
{
	const struct explain_slot *s;

	*f = NULL;
	if (!ex->keys || !ex->keys->n)
		return false;
	s = key_slot(ex->keys, key);
	if (!s->key)
		return false;
	if (s->at != OMITTED)
		*f = &ex->v[s->at];
	return true;
}

/* Record key (not seen before) as the finding at, or OMITTED. */
static void remember(struct explain *ex, const char *key, size_t at)
{
	struct explain_slot *s;

	if (!ex->keys)
		ex->keys = xcalloc(1, sizeof(*ex->keys));
	if (2 * (ex->keys->n + 1) > ex->keys->cap)
		keys_grow(ex->keys);
	s = key_slot(ex->keys, key);
	if (s->key)
		BUG("explain: key '%s' remembered twice", key);
	s->key = xstrdup(key);
	s->at = at;
	ex->keys->n++;
}

/* ---- reading the text ---------------------------------------------------- */

void explain_init(struct explain *ex)
{
	memset(ex, 0, sizeof(*ex));
}

static void finding_release(struct explain_finding *f)
{
	FREE_EACH(f->name, f->soname, f->releases, f->wanted_by, f->framework,
		  f->built, f->loaded, f->line, f->driver_cuda, f->driver_min,
		  f->driver_compat, f->driver_row, f->symbol, f->path,
		  f->picked, f->symver, f->model_file, f->model_version,
		  f->model_mixed, f->model_mixed_dir, f->model_observed,
		  f->model_error, f->absent, f->site);
	for (size_t i = 0; i < f->ncopies; i++)
		FREE_EACH(f->copies[i].path, f->copies[i].where,
			  f->copies[i].version);
	free(f->copies);
	for (size_t i = 0; i < f->nrows; i++)
		FREE_EACH(f->rows[i].framework, f->rows[i].versions,
			  f->rows[i].cuda, f->rows[i].cudnn);
	free(f->rows);
	STRV_RELEASE_EACH(&f->store, &f->loader);
}

void explain_release(struct explain *ex)
{
	for (size_t i = 0; i < ex->n; i++)
		finding_release(&ex->v[i]);
	free(ex->v);
	keys_free(ex->keys);
	explain_context_release(&ex->ctx);
	explain_init(ex);
}

bool explain_recognised(const struct explain *ex)
{
	for (size_t i = 0; i < ex->n; i++)
		if (ex->v[i].kind != EXPLAIN_NO_RELEASE)
			return true;
	return false;
}

/*
 * Keep *f (new: its key not seen; its strings become ex's) as a finding
 * of line, unless ex holds EXPLAIN_KEEP findings already: then f's
 * strings are freed and it counts in ex->omitted. Returns the finding
 * kept, or NULL.
 */
static struct explain_finding *keep(struct explain *ex,
				    struct explain_finding *f, const char *key,
				    const char *line)
{
	struct explain_finding *kept;
	struct buf b = BUF_INIT;

	if (ex->n >= EXPLAIN_KEEP) {
		remember(ex, key, OMITTED);
		ex->omitted++;
		finding_release(f);
		return NULL;
	}
	remember(ex, key, ex->n);
	ex->v = xrealloc(ex->v, (ex->n + 1) * sizeof(*ex->v));
	kept = &ex->v[ex->n++];
	*kept = *f;
	buf_add_display(&b, line, LINE_KEEP);
	kept->line = buf_detach(&b);
	return kept;
}

/* A finding named name (a library's file or DLL name), kept or not. */
static struct explain_finding *add_named(struct explain *ex,
					 struct explain_finding *f,
					 const char *name, const char *line)
{
	f->name = xstrdup(name);
	return keep(ex, f, name, line);
}

/*
 * Does the line say that the loader found a library and could not use
 * it, and why? Windows' errors by their number (Python's "[WinError N]",
 * LoadLibrary's "with error N", cuDNN's "error code N") or their text,
 * glibc's dlerror() by its text.
 */
static enum explain_found says_found(const char *line)
{
	static const struct {
		const char *words;
		enum explain_found why;
	} says[] = {
		/* ERROR_PROC_NOT_FOUND */
		{ "procedure could not be found", EXPLAIN_FOUND_NO_ENTRY },
		{ "WinError 127", EXPLAIN_FOUND_NO_ENTRY },
		{ "with error 127", EXPLAIN_FOUND_NO_ENTRY },
		{ "error code 127", EXPLAIN_FOUND_NO_ENTRY },
		/* ERROR_DLL_INIT_FAILED */
		{ "initialization routine failed", EXPLAIN_FOUND_INIT_FAILED },
		{ "WinError 1114", EXPLAIN_FOUND_INIT_FAILED },
		{ "with error 1114", EXPLAIN_FOUND_INIT_FAILED },
		{ "error code 1114", EXPLAIN_FOUND_INIT_FAILED },
		/* ERROR_COMMITMENT_LIMIT, ERROR_NOT_ENOUGH_MEMORY */
		{ "paging file is too small", EXPLAIN_FOUND_NO_MEMORY },
		{ "WinError 1455", EXPLAIN_FOUND_NO_MEMORY },
		{ "with error 1455", EXPLAIN_FOUND_NO_MEMORY },
		{ "WinError 8]", EXPLAIN_FOUND_NO_MEMORY },
		{ "cannot allocate memory", EXPLAIN_FOUND_NO_MEMORY },
		{ "failed to map segment", EXPLAIN_FOUND_NO_MEMORY },
		/* ERROR_BAD_EXE_FORMAT; glibc's open_verify() */
		{ "not a valid Win32 application", EXPLAIN_FOUND_BAD_FILE },
		{ "WinError 193", EXPLAIN_FOUND_BAD_FILE },
		{ "with error 193", EXPLAIN_FOUND_BAD_FILE },
		{ "wrong ELF class", EXPLAIN_FOUND_BAD_FILE },
		{ "invalid ELF header", EXPLAIN_FOUND_BAD_FILE },
		{ "file too short", EXPLAIN_FOUND_BAD_FILE },
		{ "ELF file OS ABI invalid", EXPLAIN_FOUND_BAD_FILE },
		{ "ELF file version", EXPLAIN_FOUND_BAD_FILE },
		{ "only ET_DYN and ET_EXEC", EXPLAIN_FOUND_BAD_FILE },
	};

	for (size_t i = 0; i < sizeof(says) / sizeof(*says); i++)
		if (str_find_nocase(line, says[i].words))
			return says[i].why;
	return EXPLAIN_FOUND_NOT_SAID;
}

/* Does the line say that a library could not be loaded? */
static bool says_missing(const char *line)
{
	static const char *const words[] = {
		/* Windows' 126, ERROR_MOD_NOT_FOUND: it or a DLL it needs */
		"module could not be found",
		"with error 126",
		"error code 126",   /* cuDNN 8's "could not load library X.
				     error code 126" */
		"could not locate", /* torch's and onnxruntime's "Could not
				       locate cublasLt64_12.dll" */
		"cannot open shared object file",
		"Could not load dynamic",
		"not found",
		"No such file",
		"could not be loaded",
		"Library not loaded",
		"cannot load",
		"Unable to load",
		/* TensorFlow 1.x's "Couldn't open CUDA library libcupti.so",
		 * XLA's "Failed to load libcupti" */
		"couldn't open",
		"could not open",
		"failed to load",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (str_find_nocase(line, words[i]))
			return true;
	return false;
}

/*
 * Does the line give Windows' loader error on a DLL: 126 (it or a DLL it
 * imports not found: LoadLibrary's "failed with error 126", Python's
 * "[WinError 126] The specified module could not be found") or 127?
 */
static bool says_windows_load_error(const char *line)
{
	return str_find_nocase(line, "with error 126") ||
	       str_find_nocase(line, "WinError 126") ||
	       str_find_nocase(line, "module could not be found") ||
	       says_found(line);
}

/*
 * A DLL that is none of NVIDIA's but is built on CUDA, by its name
 * (onnxruntime_providers_cuda.dll, onnxruntime_providers_tensorrt.dll,
 * torch_cuda.dll), that Windows could not load (line): its finding, into
 * *f (not kept yet). What it imports is CUDA's and cuDNN's DLLs; which one
 * is missing Windows' error does not say. False for anything else.
 */
static bool framework_dll(const char *tok, const char *line,
			  const struct explain_context *c,
			  struct explain_finding *f)
{
	if (!says_windows_load_error(line) ||
	    (!str_find_nocase(tok, "cuda") &&
	     !str_find_nocase(tok, "tensorrt")))
		return false;
	f->kind = EXPLAIN_LIBRARY;
	f->dll = true;
	f->imports = true;
	f->framework = c->framework ? xstrdup(c->framework) : NULL;
	return true;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' ||
	       c == '+';
}

static void add_mismatch(struct explain *ex, const char *line,
			 const char *framework, char *built, char *loaded)
{
	struct explain_finding *f, m = { .kind = EXPLAIN_CUDNN_MISMATCH };
	struct buf key = BUF_INIT;

	if (!built || !loaded) {
		free(built);
		free(loaded);
		return;
	}
	/* spaces: no name's key */
	buf_printf(&key, "mismatch %s %s %s", framework, built, loaded);
	if (seen(ex, key.data, &f)) {
		free(built);
		free(loaded);
		goto out;
	}
	m.framework = xstrdup(framework);
	m.built = built;
	m.loaded = loaded;
	/* what the machine has of it: its major's libcudnn */
	m.lib = nvlib_get(NVLIB_CUDNN);
	m.soname = nvlib_soname(m.lib, built);
	keep(ex, &m, key.data, line);
out:
	buf_release(&key);
}

/* JAX's name of a toolkit library its check reads: its entry. */
static const struct nvlib *jax_library(const char *what)
{
	static const struct {
		const char *what;
		enum nvlib_id id;
	} libs[] = { { "CUDA", NVLIB_CUDART },
		     { "cuBLAS", NVLIB_CUBLAS },
		     { "cuFFT", NVLIB_CUFFT },
		     { "cuSOLVER", NVLIB_CUSOLVER },
		     { "cuSPARSE", NVLIB_CUSPARSE } };

	for (size_t i = 0; i < sizeof(libs) / sizeof(*libs); i++)
		if (!strcmp(libs[i].what, what))
			return nvlib_get(libs[i].id);
	return NULL;
}

/* A toolkit library older than the framework asks: its own finding. */
static void add_too_old(struct explain *ex, const char *line,
			const char *framework, const char *what,
			const struct nvlib *lib, char *built, char *loaded)
{
	struct explain_finding *f, m = { .kind = EXPLAIN_TOO_OLD };
	struct buf key = BUF_INIT;

	buf_printf(&key, "too-old %s %s %s", lib->stem, built, loaded);
	if (seen(ex, key.data, &f)) {
		FREE_EACH(built, loaded);
	} else {
		m.framework = xstrdup(framework);
		m.name = xstrdup(what);
		m.lib = lib;
		m.built = built;
		m.loaded = loaded;
		keep(ex, &m, key.data, line);
	}
	buf_release(&key);
}

/* The toolkit compiling a framework's extension is not its CUDA. */
static void add_toolkit(struct explain *ex, const char *line,
			const char *framework, char *built, char *loaded)
{
	struct explain_finding *f, m = { .kind = EXPLAIN_TOOLKIT_MISMATCH };
	struct buf key = BUF_INIT, from = BUF_INIT;

	buf_printf(&key, "toolkit %s %s", built, loaded);
	if (seen(ex, key.data, &f)) {
		FREE_EACH(built, loaded);
	} else {
		/* the framework's CUDA, in the words of the message */
		buf_printf(&from, "\"PyTorch (%s)...\"", built);
		explain_context_built(&ex->ctx, built, from.data);
		m.framework = xstrdup(framework);
		m.built = built;
		m.loaded = loaded;
		keep(ex, &m, key.data, line);
	}
	BUF_RELEASE_EACH(&key, &from);
}

static void found_mismatch(void *arg, const char *line, const char *framework,
			   const char *what, char *built, char *loaded)
{
	const struct nvlib *lib = jax_library(what);

	if (!strcmp(what, "cuDNN"))
		add_mismatch(arg, line, framework, built, loaded);
	else if (!strcmp(what, "nvcc") && built && loaded)
		add_toolkit(arg, line, framework, built, loaded);
	else if (lib && built && loaded)
		add_too_old(arg, line, framework, what, lib, built, loaded);
	else
		FREE_EACH(built, loaded);
}

static void read_mismatches(struct explain *ex, const char *line)
{
	fwmsg_cudnn_mismatches(line, &ex->ctx.pending_min, found_mismatch, ex);
}

/* ---- the driver, a symbol missing ---------------------------------------- */

static struct explain_finding *add_once(struct explain *ex, enum explain_kind k,
					const char *line);

/*
 * cudaErrorInsufficientDriver (35) in its forms, and PyTorch's "The NVIDIA
 * driver on your system is too old (found version 11040)": the CUDA the
 * driver supports, 11.4, kept.
 */
static void read_driver(struct explain *ex, const char *line)
{
	static const char *const words[] = {
		"driver version is insufficient for CUDA runtime",
		"cudaErrorInsufficientDriver",
		"cuda runtime error (35)",
		"NVIDIA driver on your system is too old",
		/* the NVIDIA Container Toolkit's check of an image's
		 * NVIDIA_REQUIRE_CUDA against the driver */
		"requirement error: unsatisfied condition: cuda>",
	};
	struct explain_finding *f;
	const char *p;

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		if (!str_find_nocase(line, words[i]))
			continue;
		f = add_once(ex, EXPLAIN_DRIVER_OLD, line);
		/* who says it: the container toolkit, before the program */
		if (f && !f->name && strstr(words[i], "requirement"))
			f->name = xstrdup("nvidia-container-cli");
		p = strstr(line, "(found version ");
		if (f && p && !f->driver_cuda) {
			unsigned long v = strtoul(p + 15, NULL, 10);
			struct buf b = BUF_INIT;

			if (v >= 1000 && v <= 99999) {
				buf_printf(&b, "%lu.%lu", v / 1000,
					   (v % 1000) / 10);
				f->driver_cuda = buf_detach(&b);
			}
		}
		return;
	}
}

/* The library a symbol's name belongs to: cudnnGetLibConfig is
 * libcudnn's, nvrtcGetCUBIN libnvrtc's; NULL for another's. */
static const struct nvlib *symbol_lib(const char *sym)
{
	static const struct {
		const char *prefix;
		enum nvlib_id id;
	} by[] = {
		{ "cudnn", NVLIB_CUDNN },
		{ "cublasLt", NVLIB_CUBLASLT },
		{ "cublas", NVLIB_CUBLAS },
		{ "nvrtc", NVLIB_NVRTC },
		{ "cufft", NVLIB_CUFFT },
		{ "cusparse", NVLIB_CUSPARSE },
		{ "cusolver", NVLIB_CUSOLVER },
		{ "curand", NVLIB_CURAND },
		{ "__nvJitLink", NVLIB_NVJITLINK },
		{ "nvJitLink", NVLIB_NVJITLINK },
		{ "cupti", NVLIB_CUPTI },
		{ "cuda", NVLIB_CUDART },
		{ "_ZN5cudnn", NVLIB_CUDNN },
		{ "_ZN11nvrtcHelpers", NVLIB_NVRTC },
	};

	for (size_t i = 0; i < sizeof(by) / sizeof(*by); i++)
		if (!strncmp(sym, by[i].prefix, strlen(by[i].prefix)))
			return nvlib_get(by[i].id);
	return NULL;
}

/*
 * The file before ": undefined symbol" at p in line (the path an
 * ImportError names), heap, or NULL.
 */
static char *asker_path(const char *line, const char *p)
{
	const char *s, *e;

	for (s = p; s > line && s[-1] == ' '; s--)
		;
	if (s > line && s[-1] == ':')
		s--;
	for (e = s; s > line && !isspace((unsigned char)s[-1]) &&
		    s[-1] != '"' && s[-1] != '\'';
	     s--)
		;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}

/*
 * The release a versioned symbol's name asks for: NVIDIA names the
 * entry points a release added after it (__nvJitLinkAddData_12_1 is
 * 12.1's), "12.1"; NULL when the name ends otherwise.
 */
static char *symbol_release(const char *sym)
{
	size_t n = strlen(sym), b, a;
	struct buf out = BUF_INIT;

	for (b = n; b > 0 && isdigit((unsigned char)sym[b - 1]); b--)
		;
	if (b == n || b < 2 || sym[b - 1] != '_')
		return NULL;
	for (a = b - 1; a > 0 && isdigit((unsigned char)sym[a - 1]); a--)
		;
	if (a == b - 1 || a < 1 || sym[a - 1] != '_')
		return NULL;
	buf_printf(&out, "%.*s.%s", (int)(b - 1 - a), sym + a, sym + b);
	return buf_detach(&out);
}

/*
 * Where line says PATH asks for SYM at the version V (a soname:
 * libY.so.N), in the wordings of the loader and the linker:
 *
 *  - ld.so at binding (Python's ImportError): "PATH: undefined symbol:
 *    SYM, version V";
 *  - ld.so at relocation: "PATH: symbol SYM, version V not defined in file
 *    F with link time reference", also without the comma;
 *  - ld at link time: "PATH: undefined reference to `SYM@V'" (without @V
 *    it is a library not linked, no version asked: NULL).
 *
 * Returns V's start, with *at where PATH's text ends (for asker_path),
 * *sym and *n the symbol; NULL for a line of none of them.
 */
static const char *symbol_asked(const char *line, const char **at,
				const char **sym, size_t *n)
{
	const char *p, *e, *v;

	if ((p = strstr(line, "undefined symbol: "))) {
		*sym = p + strlen("undefined symbol: ");
		e = *sym + strcspn(*sym, " ,\"'\t");
		if (strncmp(e, ", version ", 10))
			return NULL;
		v = e + 10;
	} else if ((p = strstr(line, ": symbol ")) &&
		   strstr(p, " not defined in file ")) {
		p += 2;
		*sym = p + strlen("symbol ");
		e = *sym + strcspn(*sym, " ,\t");
		v = e + (*e == ',');
		if (strncmp(v, " version ", 9))
			return NULL;
		v += 9;
	} else if ((p = strstr(line, ": undefined reference to `"))) {
		p += 2;
		*sym = p + strlen("undefined reference to `");
		e = *sym + strcspn(*sym, "@'` \t");
		if (*e != '@')
			return NULL;
		v = e + 1 + (e[1] == '@'); /* SYM@@V: the default version */
	} else {
		return NULL;
	}
	if (e == *sym || !name_char(*v))
		return NULL;
	*at = p;
	*n = (size_t)(e - *sym);
	return v;
}

/*
 * A symbol asked for at a version (symbol_asked's wordings): PATH asks
 * for SYM at the version libY.so.N and the copy of libY that was loaded
 * (or found by the linker) does not define it. A CUDA library's (by the
 * version's name, else PATH's); the loader model on this machine says
 * which copy that is (explain_model). True when the line was read as
 * one.
 */
static bool read_symbol(struct explain *ex, const char *line)
{
	const char *p, *sym, *v;
	struct explain_finding *f, m = { .kind = EXPLAIN_SYMBOL };
	const struct nvlib *lib;
	struct buf key = BUF_INIT;
	char *path, *base, *symbol, *version;
	const char *ver;
	size_t n;

	v = symbol_asked(line, &p, &sym, &n);
	if (!v)
		return false;
	version = xstrndup(v, strcspn(v, " ,\"'`\t"));
	lib = nvlib_match_file(version, &ver);
	path = asker_path(line, p);
	if (!lib && path) {
		base = strrchr(path, '/');
		lib = nvlib_match_file(base ? base + 1 : path, &ver);
	}
	if (!lib) {
		FREE_EACH(path, version);
		return false;
	}
	symbol = xstrndup(sym, n);
	buf_printf(&key, "symbol %s %s", symbol, version);
	if (!seen(ex, key.data, &f)) {
		m.lib = lib;
		m.built = symbol_release(symbol);
		if (nvlib_match_file(version, &ver) == lib)
			m.soname = xstrdup(version);
		m.symbol = symbol;
		m.symver = version;
		m.path = path;
		symbol = version = path = NULL;
		keep(ex, &m, key.data, line);
	}
	FREE_EACH(path, symbol, version);
	buf_release(&key);
	return true;
}

/*
 * "LIB: version `V' not found (required by PATH)" (ld.so's, at loading):
 * PATH's DT_VERNEED asks LIB's soname for the version node V (glibc's
 * GLIBC_2.38; NVIDIA's libnvJitLink.so.12.4, a release's own node) and
 * the copy loaded (LIB) has no such node. Read as the versioned form
 * above with no symbol, when LIB or V is a CUDA library's: the model
 * says which copy loads for PATH and which copies have V. True when the
 * line was read as one.
 */
static bool read_version_missing(struct explain *ex, const char *line)
{
	const char *p = strstr(line, ": version "), *v, *e, *by;
	struct explain_finding *f, m = { .kind = EXPLAIN_SYMBOL };
	const struct nvlib *lib, *named;
	struct buf key = BUF_INIT;
	char *loaded = NULL, *version = NULL, *path = NULL;
	const char *base, *ver, *bver;
	bool ok = false;

	if (!p)
		return false;
	v = p + strlen(": version ");
	if (*v != '`' && *v != '\'' && *v != '"')
		return false;
	v++;
	e = v + strcspn(v, "`'\" \t");
	if (e == v || !*e || strncmp(e + 1, " not found (required by ", 24))
		return false;
	by = e + 1 + 24;
	version = xstrndup(v, (size_t)(e - v));
	path = xstrndup(by, strcspn(by, ")"));
	loaded = asker_path(line, p + 2);
	base = loaded ? strrchr(loaded, '/') : NULL;
	base = base ? base + 1 : loaded;
	named = nvlib_match_file(version, &ver);
	lib = base ? nvlib_match_file(base, &bver) : NULL;
	if (!lib || !*path)
		goto out;
	if (named && named != lib)
		goto out;
	ok = true;
	buf_printf(&key, "version %s %s", base, version);
	if (!seen(ex, key.data, &f)) {
		m.lib = lib;
		/* libnvJitLink.so.12.4: release 12.4's node */
		if (named && strchr(ver, '.'))
			m.built = xstrdup(ver);
		m.soname = xstrdup(base);
		m.symver = version;
		m.path = path;
		version = path = NULL;
		keep(ex, &m, key.data, line);
	}
out:
	FREE_EACH(loaded, version, path);
	buf_release(&key);
	return ok;
}

/*
 * "PATH: undefined symbol: SYM" where PATH is a CUDA library or SYM is
 * one's: two releases of one library mixed in one process (a newer
 * libcudnn_graph.so.9 beside an older libcudnn.so.9; an old CUDA's
 * libnvrtc.so found before the one shipped). The library is SYM's
 * owner by its name when that is another than PATH's (PATH asked for
 * it: libcublas.so.4 lacking cudaMemsetAsync is the runtime's copy), else
 * PATH's (a lookup in it: dlsym's wording is the same). The form with
 * ", version libY.so.N" after SYM is read_symbol's, for the loader model.
 * True when the line was read as one.
 */
static bool read_mixed(struct explain *ex, const char *line)
{
	const char *p = strstr(line, "undefined symbol: "), *sym, *e;
	struct explain_finding *f, m = { .kind = EXPLAIN_MIXED };
	const struct nvlib *lib = NULL, *owner;
	struct buf key = BUF_INIT, b = BUF_INIT;
	char *path = NULL, *base, *symbol;
	const char *ver = "";
	bool asker = false; /* path asks for the symbol, another's */

	if (!p)
		return false;
	sym = p + strlen("undefined symbol: ");
	for (e = sym; *e && !isspace((unsigned char)*e) && *e != ',' &&
		      *e != '"' && *e != '\'';
	     e++)
		;
	if (e == sym || !strncmp(e, ", version lib", 13))
		return false;
	/* the file that lacks it: the path before ": undefined symbol" */
	path = asker_path(line, p);
	if (path) {
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		lib = nvlib_match_file(base, &ver);
	}
	symbol = xstrndup(sym, strcspn(sym, " ,\"'"));
	owner = symbol_lib(symbol);
	/* libcublas.so.4 lacking cudaMemsetAsync: the runtime's copy is
	 * the wrong one, not the asker's */
	if (owner && owner != lib) {
		lib = owner;
		asker = true;
	}
	if (!lib) {
		FREE_EACH(path, symbol);
		return false;
	}
	buf_printf(&key, "mixed %s", symbol);
	if (!seen(ex, key.data, &f)) {
		m.lib = lib;
		m.symbol = symbol;
		symbol = NULL;
		base = path ? strrchr(path, '/') : NULL;
		base = base ? base + 1 : path;
		if (base && !asker && nvlib_match_file(base, &ver)) {
			m.name = xstrdup(base);
			nvlib_match_file(m.name, &ver);
			if (*ver && nvlib_majors(lib, ver)) {
				size_t stem = (size_t)(ver - m.name);

				/* its soname: the major (cuDNN's) or the
				 * release's own */
				if (lib->flags & NVLIB_OWN_VERSION)
					buf_printf(&b, "%.*s%lu", (int)stem,
						   m.name,
						   strtoul(ver, NULL, 10));
				else
					buf_adds(&b, m.name);
				m.soname = buf_detach(&b);
			}
		}
		m.path = path;
		path = NULL;
		keep(ex, &m, key.data, line);
	}
	FREE_EACH(path, symbol);
	buf_release(&key);
	buf_release(&b);
	return true;
}

static bool classify_dll(const char *tok, struct explain_finding *f);
static bool classify_so(const char *tok, struct explain_finding *f);

/*
 * "Could not load symbol SYM from FILE" (cuDNN's lookup of an entry point
 * it can do without, with Windows' "Error code 127" or ld.so's "undefined
 * symbol"), "Symbol SYM not found in FILE" (a DLL's lookup): FILE was
 * loaded and lacks SYM, a copy older than its caller knows (of a release
 * the catalogue may not have: PhysX's cudart64_65.dll). Copies mixed, as
 * read_mixed's, never a library missing. True when the line was read as
 * one.
 */
static bool read_dlsym(struct explain *ex, const char *line)
{
	static const struct {
		const char *before, *after; /* SYM between, FILE after */
	} says[] = {
		{ "Could not load symbol ", " from " },
		{ "Symbol ", " not found in " },
	};
	const char *p = NULL, *sym = NULL, *e = NULL, *name = NULL, *dll;
	struct explain_finding *f, m = { .kind = EXPLAIN_LIBRARY };
	struct buf key = BUF_INIT;
	char *file, *base;
	size_t n;
	bool ok;

	for (size_t i = 0; i < sizeof(says) / sizeof(*says) && !e; i++) {
		size_t after = strlen(says[i].after);

		p = str_find_nocase(line, says[i].before);
		if (!p)
			continue;
		sym = p + strlen(says[i].before);
		e = sym + strcspn(sym, " \t\"'");
		if (e == sym || strncmp(e, says[i].after, after))
			e = NULL;
		else
			name = e + after;
	}
	if (!e || !name)
		return false;
	name += *name == '"' || *name == '\'';
	/* a DLL's path may hold spaces (C:\Program Files (x86)\...) */
	dll = str_find_nocase(name, ".dll");
	n = dll ? (size_t)(dll + 4 - name) : strcspn(name, " \t\"'");
	while (n && (name[n - 1] == '.' || name[n - 1] == ','))
		n--;
	file = xstrndup(name, n);
	base = file + strlen(file);
	while (base > file && base[-1] != '/' && base[-1] != '\\')
		base--;
	ok = n > 4 && !strcasecmp(file + n - 4, ".dll") ? classify_dll(base, &m)
							: classify_so(base, &m);
	if (!ok || !m.lib ||
	    (m.kind != EXPLAIN_LIBRARY && m.kind != EXPLAIN_NO_RELEASE)) {
		finding_release(&m);
		free(file);
		return false;
	}
	m.kind = EXPLAIN_MIXED;
	m.symbol = xstrndup(sym, (size_t)(e - sym));
	m.name = xstrdup(base);
	buf_printf(&key, "mixed %s", m.symbol);
	if (!seen(ex, key.data, &f)) {
		m.path = file;
		file = NULL;
		keep(ex, &m, key.data, line);
	} else {
		finding_release(&m);
	}
	free(file);
	buf_release(&key);
	return true;
}

/* The one finding of kind k (a CUPTI trouble), once. */
static struct explain_finding *add_once(struct explain *ex, enum explain_kind k,
					const char *line)
{
	struct explain_finding *f, c = { .kind = k };
	struct buf key = BUF_INIT;

	buf_printf(&key, "kind %d", (int)k);
	if (!seen(ex, key.data, &f))
		f = keep(ex, &c, key.data, line);
	buf_release(&key);
	return f;
}

/* "cuptiGetContextId with error 35", "failed with error 35.": CUPTI's
 * result 35 is CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (cupti_result.h); the
 * runtime's 35, cudaErrorInsufficientDriver, is read_driver's, on lines
 * that name no CUPTI call. */
static bool cupti_error_35(const char *line)
{
	for (const char *p = line; (p = str_find_nocase(p, "error ")); p++) {
		const char *d = p + strlen("error ");

		d += !strncasecmp(d, "code ", 5) ? 5 : 0;
		if (!strncmp(d, "35", 2) && !isdigit((unsigned char)d[2]))
			return true;
	}
	return false;
}

static void read_cupti(struct explain *ex, const char *line)
{
	struct explain_finding *f;

	if (strstr(line, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES") ||
	    strstr(line, "ERR_NVGPUCTRPERM") ||
	    (str_find_nocase(line, "cupti") &&
	     (str_find_nocase(line, "insufficient privilege") ||
	      cupti_error_35(line))))
		add_once(ex, EXPLAIN_CUPTI_PRIVILEGES, line);
	if (str_find_nocase(line, "incompatible libcupti") ||
	    strstr(line, "CUPTI could not be loaded")) {
		f = add_once(ex, EXPLAIN_CUPTI_LOAD, line);
		if (f)
			f->lib = nvlib_get(NVLIB_CUPTI);
	}
}

/* The table's entry whose DLL prefix name starts with (cudart64_99.dll),
 * or whose stem the DLL is named after (cupti.dll), or NULL. */
static const struct nvlib *dll_prefix(const char *name, bool *bare)
{
	size_t n = strlen(name);

	*bare = false;
	for (int i = 0; i < NVLIB_COUNT; i++) {
		const struct nvlib *e = nvlib_get((enum nvlib_id)i);
		size_t sl = strlen(e->stem);

		if (n == sl + 4 && !strncasecmp(name, e->stem, sl)) {
			*bare = true;
			return e;
		}
		if (e->dll && e->dll_style != NVLIB_DLL_NONE &&
		    !strncasecmp(name, e->dll, strlen(e->dll)))
			return e;
	}
	return NULL;
}

/*
 * cuDNN's sub-libraries on Windows: cudnn_ops_infer64_8.dll,
 * cudnn_cnn64_9.dll, NAME64_MAJOR.dll for libNAME.so.MAJOR; the Linux
 * soname into b.
 */
static bool cudnn_part_dll(const char *tok, struct buf *b)
{
	size_t n = strlen(tok);
	const char *u;
	unsigned long M;
	char *end;

	if (n < 14 || strncasecmp(tok, "cudnn_", 6) ||
	    strcasecmp(tok + n - 4, ".dll"))
		return false;
	u = strrchr(tok, '_');
	if (u - tok < 8 || strncmp(u - 2, "64", 2) ||
	    !isdigit((unsigned char)u[1]))
		return false;
	M = strtoul(u + 1, &end, 10);
	if (strcasecmp(end, ".dll"))
		return false;
	buf_reset(b);
	buf_adds(b, "lib");
	for (const char *p = tok; p < u - 2; p++)
		buf_addc(b, (char)tolower((unsigned char)*p));
	buf_printf(b, ".so.%lu", M);
	return true;
}

/* A DLL name's finding, into *f (not kept yet); false: not CUDA's. */
static bool classify_dll(const char *tok, struct explain_finding *f)
{
	unsigned long majors;
	const struct nvlib *lib;
	struct buf sv = BUF_INIT, b = BUF_INIT;
	bool bare;

	if (!strcasecmp(tok, NVLIB_DRIVER_DLL)) {
		f->kind = EXPLAIN_DRIVER;
		return true;
	}
	f->dll = true;
	lib = nvlib_match_dll(tok, &majors);
	if (!lib && cudnn_part_dll(tok, &b)) {
		/* cudnn_ops_infer64_8.dll is libcudnn_ops_infer.so.8 */
		bool yes = classify_so(b.data, f);

		FREE_EACH(f->soname);
		f->soname = buf_detach(&b);
		f->dll = true;
		return yes;
	}
	if (!lib) {
		lib = dll_prefix(tok, &bare);
		f->kind = bare ? EXPLAIN_LIBRARY : EXPLAIN_NO_RELEASE;
		f->lib = lib;
		return lib;
	}
	f->kind = EXPLAIN_LIBRARY;
	f->lib = lib;
	if (lib->dll_style == NVLIB_DLL_YEAR) {
		/* cupti64_2022.3.0.dll: CUPTI's own year version */
		size_t pl = strlen(lib->dll);

		buf_printf(&b, "CUPTI %.*s", (int)(strlen(tok) - pl - 4),
			   tok + pl);
		f->releases = buf_detach(&b);
	} else if (nvlib_dll_soname(tok, &b)) {
		buf_adds(&sv, strstr(b.data, ".so.") + 4);
		f->soname = buf_detach(&b);
		if (nvlib_describe_releases(lib, sv.data, &b)) {
			char *r = buf_detach(&b);

			buf_printf(&b, "%s %s", nvlib_product(lib), r);
			free(r);
			f->releases = buf_detach(&b);
		}
	}
	buf_release(&sv);
	buf_release(&b);
	return true;
}

/* A file name's finding (libcudart.so.11.0), into *f (not kept yet);
 * false: not CUDA's. */
static bool classify_so(const char *tok, struct explain_finding *f)
{
	const struct nvlib *lib;
	const char *ver;
	struct buf b = BUF_INIT;
	size_t n = strlen(NVLIB_DRIVER_SO);

	if (!strncmp(tok, NVLIB_DRIVER_SO, n) && (!tok[n] || tok[n] == '.')) {
		f->kind = EXPLAIN_DRIVER;
		return true;
	}
	lib = nvlib_match_file(tok, &ver);
	if (!lib)
		return false;
	f->kind = EXPLAIN_LIBRARY;
	f->lib = lib;
	if (!*ver) {
		/* libcupti.so: no version asked for */
	} else if (nvlib_describe_releases(lib, ver, &b)) {
		char *r = buf_detach(&b);

		f->soname = xstrdup(tok);
		buf_printf(&b, "%s %s", nvlib_product(lib), r);
		free(r);
		f->releases = buf_detach(&b);
	} else if (nvlib_majors(lib, ver) && (lib->flags & NVLIB_OWN_VERSION)) {
		/* a file's full version (libcudnn_ops.so.9.1.0): its soname
		 * has the major only */
		size_t stem = (size_t)(ver - tok);
		unsigned long M = strtoul(ver, NULL, 10);

		buf_printf(&b, "%.*s%lu", (int)stem, tok, M);
		f->soname = buf_detach(&b);
		buf_printf(&b, "%s %lu.x", nvlib_product(lib), M);
		f->releases = buf_detach(&b);
	} else if (nvlib_majors(lib, ver)) {
		/* a file's full version (libcudart.so.11.8.89) */
		buf_printf(&b, "CUDA %u", nvlib_major(lib, ver));
		f->releases = buf_detach(&b);
	} else {
		f->kind = EXPLAIN_NO_RELEASE;
	}
	buf_release(&b);
	return true;
}

/*
 * The name tok of line: its finding once (a name seen before, kept or
 * not, is not read again), marked missing when line says so.
 */
static void read_name(struct explain *ex, const char *tok, bool dll,
		      const char *line, bool missing)
{
	struct explain_finding *f, fresh = { .kind = EXPLAIN_LIBRARY };
	enum explain_found found;

	if (!seen(ex, tok, &f)) {
		if (!(dll ? classify_dll(tok, &fresh) ||
				      framework_dll(tok, line, &ex->ctx, &fresh)
			  : classify_so(tok, &fresh))) {
			finding_release(&fresh);
			return;
		}
		f = add_named(ex, &fresh, tok, line);
	}
	if (f && missing)
		f->missing = true;
	if (f && (found = says_found(line))) {
		f->found = found;
		f->missing = false;
	}
}

/*
 * The library the loader's error names, when it is not the one the line
 * says was being loaded: "Could not load library libcudnn_cnn_infer.so.8.
 * Error: libcuda.so: cannot open shared object file" found cuDNN's file
 * and failed on the driver's it needs. NULL for anything else; *at gets
 * where the error's name starts.
 */
static char *failed_dependency(const char *line, const char **at)
{
	const char *e = strstr(line, ": cannot open shared object file");
	const char *s = e;
	char *name;

	if (!e)
		return NULL;
	while (s > line && name_char(s[-1]))
		s--;
	name = xstrndup(s, (size_t)(e - s));
	if (strncmp(name, "lib", 3) || !strstr(name, ".so")) {
		free(name);
		return NULL;
	}
	*at = s;
	return name;
}

/* Is tok a library's name without ".so" ("Failed to load libcupti (is
 * it installed and accessible?)") in a line that says it is missing? */
static bool bare_name(const char *tok, const char *line)
{
	return (nvlib_by_stem(tok + 3) ||
		!strcmp(tok + 3, NVLIB_DRIVER_STEM)) &&
	       says_missing(line);
}

static void read_names(struct explain *ex, const char *line)
{
	const char *p = line;
	struct buf tok = BUF_INIT;
	int missing = -1; /* says_missing(line), once asked */
	const char *alt = strchr(line, '{'), *dep_at = NULL;
	char *dep = failed_dependency(line, &dep_at), *found = NULL;
	struct explain_finding *df;
	size_t before;

	while (*p) {
		size_t n = 0;
		bool dll;

		while (*p && !name_char(*p))
			p++;
		while (name_char(p[n]))
			n++;
		if (!n)
			break;
		buf_reset(&tok);
		buf_add(&tok, p, n);
		p += n;
		while (tok.len && (tok.data[tok.len - 1] == '.' ||
				   tok.data[tok.len - 1] == '-'))
			buf_setlen(&tok, tok.len - 1);
		dll = tok.len > 4 &&
		      !strcasecmp(tok.data + tok.len - 4, ".dll");
		if (!dll && !strncmp(tok.data, "lib", 3) &&
		    !strstr(tok.data, ".so") && bare_name(tok.data, line))
			buf_adds(&tok, ".so");
		if (!dll &&
		    (strncmp(tok.data, "lib", 3) || !strstr(tok.data, ".so")))
			continue;
		/* found by the loader: its dependency failed, not it */
		if (dep && p <= dep_at && strcmp(tok.data, dep)) {
			if (!found)
				found = xstrdup(tok.data);
			continue;
		}
		if (missing < 0)
			missing = says_missing(line);
		before = ex->n;
		read_name(ex, tok.data, dll, line, missing);
		/* "Unable to load any of {libcudnn_ops.so.9.1.0,
		 * libcudnn_ops.so.9.1, ...}": one library's candidates, read
		 * as the first that names a library */
		if (ex->n > before && alt && alt < p && strchr(alt, '}')) {
			p = strchr(alt, '}') + 1;
			alt = NULL;
		}
	}
	if (found && seen(ex, dep, &df) && df && !df->wanted_by) {
		df->wanted_by = found;
		found = NULL;
	}
	FREE_EACH(dep, found);
	buf_release(&tok);
}

size_t explain_parse(struct explain *ex, const char *text, size_t len)
{
	size_t before = ex->n, i = 0;
	struct buf line = BUF_INIT;
	bool cupti_load = false;

	while (i < len) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		buf_reset(&line);
		for (size_t k = i; k < e; k++)
			buf_addc(&line,
				 text[k] && text[k] != '\r' ? text[k] : ' ');
		i = e + 1;
		/* a library opened is context, never a finding */
		if (explain_context_line(&ex->ctx, line.data))
			continue;
		read_mismatches(ex, line.data);
		read_cupti(ex, line.data);
		read_driver(ex, line.data);
		if (!read_symbol(ex, line.data) &&
		    !read_version_missing(ex, line.data) &&
		    !read_mixed(ex, line.data) && !read_dlsym(ex, line.data))
			read_names(ex, line.data);
	}
	explain_context_finish(&ex->ctx);
	/* a JAX log prints TensorFlow's and XLA's source paths; a
	 * TensorFlow one without them names TensorFlow elsewhere */
	for (size_t k = before; k < ex->n; k++) {
		struct explain_finding *f = &ex->v[k];
		const char *fw =
			ex->ctx.jax ? "jax"
			: ex->ctx.framework &&
					!strcmp(ex->ctx.framework, "tensorflow")
				? "tensorflow"
				: NULL;

		if (f->kind != EXPLAIN_CUDNN_MISMATCH || !fw ||
		    (strcmp(f->framework, "xla") &&
		     (!ex->ctx.jax || strcmp(f->framework, "tensorflow"))))
			continue;
		free(f->framework);
		f->framework = xstrdup(fw);
	}
	/* a framework's DLL: the CUDA and cuDNN its build uses, when the
	 * text says (onnxruntime's "Require cuDNN 9.* and CUDA 12.*") */
	for (size_t k = before; k < ex->n; k++) {
		struct explain_finding *f = &ex->v[k];
		const char *cuda = explain_context_cuda_known(&ex->ctx);
		struct buf b = BUF_INIT;

		if (!f->imports || !cuda || f->releases)
			continue;
		buf_printf(&b, "CUDA %s%s", cuda,
			   strchr(cuda, '.') ? "" : ".x");
		if (ex->ctx.cudnn)
			buf_printf(&b, ", cuDNN %s%s", ex->ctx.cudnn,
				   strchr(ex->ctx.cudnn, '.') ? "" : ".x");
		f->releases = buf_detach(&b);
	}
	/* a library that is found missing: its own name said so */
	for (size_t k = before; k < ex->n; k++)
		if (ex->v[k].kind == EXPLAIN_CUPTI_LOAD)
			cupti_load = true;
	for (size_t j = before; cupti_load && j < ex->n; j++)
		if (ex->v[j].lib && ex->v[j].lib->id == NVLIB_CUPTI)
			ex->v[j].missing = true;
	buf_release(&line);
	return ex->n - before;
}

/* ---- the frameworks that ask for it -------------------------------------- */

static bool row_windows(const struct framework_build *b)
{
	return !strncmp(b->notes, "os windows", 10);
}

static bool row_other_os(const struct framework_build *b)
{
	return !strncmp(b->notes, "os ", 3) && strncmp(b->notes, "os linux", 8);
}

/* Does the soname version sv of f's library come with CUDA cuda ("11.2",
 * "11.x")? */
static bool cuda_gives(const struct explain_finding *f, const char *cuda,
		       const char *sv)
{
	struct buf b = BUF_INIT;
	size_t n = strlen(cuda);
	bool yes = false;

	if (n > 2 && !strcmp(cuda + n - 2, ".x")) {
		/* every release of that major: "11.x" among its releases */
		buf_printf(&b, "%.*s", (int)n, cuda);
		yes = f->releases && strstr(f->releases, b.data);
	} else if (nvlib_soname_version(f->lib, cuda, &b)) {
		yes = !strcmp(b.data, sv);
	}
	buf_release(&b);
	return yes;
}

/* Are the table's rows of framework fw those of the mismatch printed by
 * who ("torch", "tensorflow", "jax", "xla": TensorFlow or JAX)? */
static bool mismatch_row(const char *who, const char *fw)
{
	if (!strcmp(who, "torch"))
		return !strcmp(fw, "pytorch");
	if (!strcmp(who, "xla"))
		return !strcmp(fw, "tensorflow") || !strcmp(fw, "jax");
	return !strcmp(who, fw);
}

static bool row_asks(const struct explain_finding *f,
		     const struct framework_build *b)
{
	const char *sv;

	if (f->kind == EXPLAIN_CUDNN_MISMATCH) {
		struct buf mm = BUF_INIT;
		struct version v;
		bool yes;

		if (row_other_os(b) || !b->cudnn || version_parse(f->built, &v))
			return false;
		if (!mismatch_row(f->framework, b->framework))
			return false;
		buf_printf(&mm, "%lu.%lu", v.part[0], v.n > 1 ? v.part[1] : 0);
		yes = version_matches_str(b->cudnn, mm.data);
		buf_release(&mm);
		return yes;
	}
	if (f->kind != EXPLAIN_LIBRARY || !f->soname || !f->lib)
		return false;
	if (f->dll ? !row_windows(b) : row_other_os(b))
		return false;
	sv = strstr(f->soname, ".so.") + 4;
	if (nvlib_kit(f->lib) == NVLIB_KIT_OTHER)
		return false;
	if (nvlib_kit(f->lib) == NVLIB_KIT_CUDNN)
		return b->cudnn &&
		       version_major(b->cudnn) == strtoul(sv, NULL, 10);
	return b->cuda && cuda_gives(f, b->cuda, sv);
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* One build of one framework, the releases that have it (newest first). */
struct group {
	const struct framework_build *first;
	struct strv versions;
};

static int cmp_version(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)a, *(char *const *)b);
}

/* "2.5.0 to 2.11.0" when the group's releases v are a run of at least
 * three of the framework's own (all), else each, oldest first. Sorts
 * both. */
static char *versions_text(struct strv *v, struct strv *all)
{
	struct buf b = BUF_INIT;
	long lo, hi;

	if (!v->n || !all->n)
		return xstrdup("");
	qsort(v->v, v->n, sizeof(*v->v), cmp_version);
	qsort(all->v, all->n, sizeof(*all->v), cmp_version);
	lo = strv_find(all, v->v[0]);
	hi = strv_find(all, v->v[v->n - 1]);
	if (v->n >= 3 && lo >= 0 && hi >= lo && (size_t)(hi - lo + 1) == v->n) {
		buf_printf(&b, "%s to %s", v->v[0], v->v[v->n - 1]);
	} else {
		for (size_t i = 0; i < v->n; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", v->v[i]);
	}
	return buf_detach(&b);
}

static void rows_for(struct explain_finding *f,
		     const struct framework_builds *fw, size_t nfw,
		     const char *only)
{
	for (size_t t = 0; t < nfw; t++) {
		/* the text says which framework printed it: its rows */
		if (only && fw[t].n &&
		    (!strcmp(only, "tensorflow") || !strcmp(only, "pytorch") ||
		     !strcmp(only, "jax")) &&
		    strcmp(fw[t].v[0].framework, only))
			continue;
		struct group *g = NULL;
		size_t ng = 0;
		struct strv all_lin = STRV_INIT, all_win = STRV_INIT;

		for (size_t i = 0; i < fw[t].n; i++) {
			const struct framework_build *b = &fw[t].v[i];
			struct strv *all = row_windows(b) ? &all_win : &all_lin;
			size_t k;

			if (row_other_os(b) && !row_windows(b))
				continue;
			if (strv_find(all, b->version) < 0)
				strv_push(all, b->version);
			if (!row_asks(f, b))
				continue;
			for (k = 0; k < ng; k++)
				if (same(g[k].first->cuda, b->cuda) &&
				    same(g[k].first->cudnn, b->cudnn) &&
				    row_windows(g[k].first) == row_windows(b))
					break;
			if (k == ng) {
				g = xrealloc(g, (ng + 1) * sizeof(*g));
				g[ng].first = b;
				g[ng].versions = (struct strv)STRV_INIT;
				ng++;
			}
			if (strv_find(&g[k].versions, b->version) < 0)
				strv_push(&g[k].versions, b->version);
		}
		for (size_t k = 0; k < ng; k++) {
			struct explain_row *r;
			const struct framework_build *b = g[k].first;

			f->rows = xrealloc(f->rows,
					   (f->nrows + 1) * sizeof(*f->rows));
			r = &f->rows[f->nrows++];
			r->framework = xstrdup(b->framework);
			r->windows = row_windows(b);
			r->versions =
				versions_text(&g[k].versions,
					      r->windows ? &all_win : &all_lin);
			r->cuda = xstrdup(b->cuda);
			r->cudnn = b->cudnn ? xstrdup(b->cudnn) : NULL;
			strv_release(&g[k].versions);
		}
		free(g);
		strv_release(&all_lin);
		strv_release(&all_win);
	}
}

static int driver_needs(struct explain_finding *f,
			const struct explain_context *c, const char *dir,
			struct cuenv_err *err);

int explain_frameworks(struct explain *ex, const char *dir,
		       struct cuenv_err *err)
{
	static const char *const names[] = { "tensorflow", "pytorch", "jax" };
	struct framework_builds fw[3];
	int rc = CUENV_OK;

	memset(fw, 0, sizeof(fw));
	for (size_t t = 0; t < 3 && !rc; t++)
		rc = compat_frameworks(dir, names[t], NULL, &fw[t], err);
	for (size_t t = 0; t < 3 && !rc; t++)
		if (ex->ctx.framework && !strcmp(ex->ctx.framework, names[t]))
			explain_context_table(&ex->ctx, &fw[t]);
	if (!rc)
		for (size_t i = 0; i < ex->n; i++)
			rows_for(&ex->v[i], fw, 3, ex->ctx.framework);
	for (size_t i = 0; !rc && i < ex->n; i++)
		if (ex->v[i].kind == EXPLAIN_DRIVER_OLD)
			rc = driver_needs(&ex->v[i], &ex->ctx, dir, err);
	for (size_t t = 0; t < 3; t++)
		framework_builds_release(&fw[t]);
	return rc;
}

/* What the table asks of a driver for the CUDA the text says is in use
 * (nothing when it does not say). */
static int driver_needs(struct explain_finding *f,
			const struct explain_context *c, const char *dir,
			struct cuenv_err *err)
{
	struct driver_req r = { 0 };
	int rc;

	if (!c->cuda || c->cuda_other)
		return CUENV_OK;
	rc = compat_driver(dir, c->cuda, &r, err);
	if (!rc) {
		f->driver_min = r.release;
		f->driver_compat = r.compat;
		f->driver_row = r.row;
		memset(&r, 0, sizeof(r));
	}
	driver_req_release(&r);
	return rc;
}

/* ---- this machine -------------------------------------------------------- */

static const char *kind_word(const struct store_version *in)
{
	return in->kind == KIT_CUDNN   ? "cudnn"
	       : in->kind == KIT_CUPTI ? "cupti"
				       : "cuda";
}

/* The soname in's release gives f's library, when one of its folders
 * holds it: into f->store. */
static void store_one(struct explain_finding *f, const struct store_version *in)
{
	struct buf path = BUF_INIT, line = BUF_INIT;
	char *so;
	const struct strv *dirs[2] = { &in->lib, &in->cupti };
	struct plat_stat st;
	enum nvlib_kit kit = nvlib_kit(f->lib);

	/* cuDNN's files are in cuDNN's installs, the toolkit's in CUDA's,
	 * NCCL's and TensorRT's in none */
	if (kit == NVLIB_KIT_OTHER ||
	    (kit == NVLIB_KIT_CUDNN) != (in->kind == KIT_CUDNN))
		return;
	so = nvlib_soname(f->lib, in->version);
	if (!so)
		return;
	for (size_t d = 0; d < 2; d++) {
		for (size_t i = 0; i < dirs[d]->n; i++) {
			buf_reset(&path);
			buf_path(&path, dirs[d]->v[i], so);
			if (plat_stat(path.data, &st) || st.type != PLAT_F_REG)
				continue;
			buf_reset(&line);
			buf_printf(&line, "%s %s (%s", kind_word(in),
				   in->version,
				   in->registered ? "registered" : "installed");
			if (in->kind == KIT_CUDNN)
				buf_printf(&line, ", for CUDA %u",
					   in->cuda_major);
			buf_printf(&line, ") has %s: %s", so, path.data);
			if (strv_find(&f->store, line.data) < 0)
				strv_push(&f->store, line.data);
			if (f->soname && !strcmp(so, f->soname))
				f->store_exact = true;
			goto out;
		}
	}
out:
	free(so);
	buf_release(&path);
	buf_release(&line);
}

/* Is the file name of the same member of a family ("libcudnn_ops" in
 * libcudnn_ops.so.9) as f asks for (its soname's, else the stem)? */
static bool same_member(const struct explain_finding *f, const char *name)
{
	const char *want = f->soname ? f->soname : NULL;
	size_t wn, nn = strcspn(name, ".");

	if (!want || strncmp(want, "lib", 3))
		return nn == strlen(f->lib->stem) + 3 &&
		       !strncmp(name + 3, f->lib->stem, nn - 3);
	wn = strcspn(want, ".");
	return wn == nn && !strncmp(want, name, nn);
}

/* Is name (a file name) f's library under a soname some release gives? */
static bool loader_name(const struct explain_finding *f, const char *name)
{
	const char *ver;
	const struct nvlib *lib = nvlib_match_file(name, &ver);
	struct buf b = BUF_INIT;
	bool yes;

	if (!lib || lib != f->lib || !*ver)
		return false;
	/* the same member of a family: libcudnn, not libcudnn_ops */
	if (!same_member(f, name))
		return false;
	if (f->soname && !strcmp(name, f->soname))
		return true;
	yes = nvlib_describe_releases(lib, ver, &b);
	buf_release(&b);
	return yes;
}

static void loader_dir(struct explain_finding *f, const char *dir)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *ent;
	struct strv names = STRV_INIT;
	struct buf line = BUF_INIT;

	if (!d)
		return;
	while ((ent = plat_readdir(d)))
		if (loader_name(f, ent))
			strv_push(&names, ent);
	plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&line);
		buf_printf(&line, "LD_LIBRARY_PATH: %s/%s", dir, names.v[i]);
		if (strv_find(&f->loader, line.data) < 0)
			strv_push(&f->loader, line.data);
		if (f->soname && !strcmp(names.v[i], f->soname)) {
			f->loader_exact = true;
			/* LD_LIBRARY_PATH comes before the cache */
			if (!f->picked)
				f->picked = xstrdup(line.data);
		}
	}
	strv_release(&names);
	buf_release(&line);
}

void explain_machine(struct explain *ex, const struct needs_installed *in,
		     const struct ldcache *cache, const char *ld_library_path)
{
	const struct store_version_list *lists[3] = { &in->cudas, &in->cudnns,
						      &in->cuptis };
	struct strv dirs = STRV_INIT;
	struct buf line = BUF_INIT;

	if (ld_library_path)
		strv_split(&dirs, ld_library_path, ':');
	for (size_t i = 0; i < ex->n; i++) {
		struct explain_finding *f = &ex->v[i];

		/* a symbol's copies are explain_model's, judged */
		if (!f->lib || f->kind == EXPLAIN_DRIVER ||
		    f->kind == EXPLAIN_SYMBOL)
			continue;
		for (size_t l = 0; l < 3; l++)
			for (size_t k = lists[l]->n; k-- > 0;)
				store_one(f, lists[l]->v[k]);
		for (size_t k = 0; cache && k < cache->n; k++) {
			if (!loader_name(f, cache->v[k].soname))
				continue;
			buf_reset(&line);
			buf_printf(&line, "loader cache: %s => %s",
				   cache->v[k].soname, cache->v[k].path);
			if (strv_find(&f->loader, line.data) < 0)
				strv_push(&f->loader, line.data);
			if (f->soname && !strcmp(cache->v[k].soname, f->soname))
				f->loader_exact = true;
		}
		for (size_t k = 0; k < dirs.n; k++)
			if (*dirs.v[k])
				loader_dir(f, dirs.v[k]);
		for (size_t k = 0;
		     !f->picked && f->soname && cache && k < cache->n; k++) {
			if (strcmp(cache->v[k].soname, f->soname))
				continue;
			buf_reset(&line);
			buf_printf(&line, "loader cache: %s => %s",
				   cache->v[k].soname, cache->v[k].path);
			f->picked = xstrdup(line.data);
		}
	}
	strv_release(&dirs);
	buf_release(&line);
}

/* ---- what it requires ---------------------------------------------------- */

const char *explain_context_cuda_known(const struct explain_context *c)
{
	return c->cuda && !c->cuda_other ? c->cuda : NULL;
}

void explain_scan(const struct explain *ex, struct needs_scan *s)
{
	const char *known = explain_context_cuda_known(&ex->ctx);
	bool loaded_cupti = false, pinned = false, dnn = false;
	bool reported = false; /* a finding reported the build's CUDA itself
				  (a cuDNN or a toolkit mismatch) */
	bool mixed = false, missing = false, unversioned = false;
	unsigned long majors = 0;
	struct buf agreed = BUF_INIT;

	for (size_t i = 0; i < ex->n; i++) {
		/* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: CUPTI was loaded */
		if (ex->v[i].kind == EXPLAIN_CUPTI_PRIVILEGES)
			loaded_cupti = true;
		/* a symbol missing: another copy installed does not help;
		 * which copy to load is explain_model's fix */
		if (ex->v[i].kind == EXPLAIN_MIXED ||
		    ex->v[i].kind == EXPLAIN_SYMBOL || ex->v[i].found)
			mixed = true;
		/* a log that says what failed: the names only mentioned
		 * (paths listed, libraries found) ask for nothing */
		if (ex->v[i].kind == EXPLAIN_LIBRARY && ex->v[i].missing)
			missing = true;
	}
	for (size_t i = 0; i < ex->n && !mixed; i++) {
		const struct explain_finding *f = &ex->v[i];
		const char *cuda = NULL;

		if (f->kind == EXPLAIN_LIBRARY && f->soname &&
		    nvlib_kit(f->lib) != NVLIB_KIT_OTHER &&
		    (f->missing || !missing) &&
		    !(loaded_cupti && f->lib->id == NVLIB_CUPTI)) {
			needs_scan_want(s, f->soname, "the message");
			if (f->lib->flags & NVLIB_OWN_VERSION) {
				dnn = true;
			} else {
				/* every major that ships all the names
				 * (libcusolver.so.11: 11 and 12) */
				unsigned long m = nvlib_majors(
					f->lib, strstr(f->soname, ".so.") + 4);

				majors = pinned ? majors & m : m;
				pinned = true;
			}
			continue;
		}
		/* a name without a version (libcudart.so, a framework's
		 * DLL): the release the text says the build uses, if any */
		if (f->kind == EXPLAIN_LIBRARY && !f->soname && f->missing &&
		    known && !f->found &&
		    (f->imports ||
		     (!(f->lib->flags & NVLIB_OWN_VERSION) &&
		      !(loaded_cupti && f->lib->id == NVLIB_CUPTI)))) {
			unversioned = true;
			dnn |= f->imports;
			continue;
		}
		/* the toolkit of the framework's CUDA, nvcc with it */
		if (f->kind == EXPLAIN_TOOLKIT_MISMATCH) {
			needs_scan_report(s, f->framework, "the message",
					  f->built, NULL);
			reported = true;
			continue;
		}
		if (f->kind != EXPLAIN_CUDNN_MISMATCH)
			continue;
		reported = true;
		/* the CUDA the text names, else the one all its builds in
		 * the table agree on: the release, or else the major */
		buf_reset(&agreed);
		for (size_t k = 0; !known && k < f->nrows; k++) {
			unsigned long M = strtoul(f->rows[k].cuda, NULL, 10);

			if (!k)
				cuda = f->rows[k].cuda;
			else if (cuda && strcmp(f->rows[k].cuda, cuda))
				cuda = NULL;
			if (!k)
				buf_printf(&agreed, "%lu", M);
			else if (agreed.len &&
				 M != strtoul(agreed.data, NULL, 10))
				buf_reset(&agreed);
		}
		if (!cuda && agreed.len)
			cuda = agreed.data;
		if (cuda && !version_is_valid(cuda)) /* "11.x" */
			cuda = agreed.len ? agreed.data : NULL;
		if (known)
			cuda = known;
		needs_scan_report(s, f->framework, "the message", cuda,
				  f->built);
	}
	/* the CUDA of the build, when the names asked for leave it open
	 * (cuDNN's own sonames are built for several) */
	if (!pinned && !reported && (dnn || unversioned) && known)
		needs_scan_report(s,
				  ex->ctx.framework ? ex->ctx.framework
						    : "the text",
				  "the message", known, ex->ctx.cudnn);
	/* the libraries of the toolkit name the majors that ship them; the
	 * text's release, of one of those majors, is the build's
	 * (TensorFlow 2.7: CUDA 11.2; libcusolver.so.11 is 11 and 12) */
	if (pinned && !reported && known && strtoul(known, NULL, 10) < 64 &&
	    (majors >> strtoul(known, NULL, 10) & 1))
		needs_scan_report(s,
				  ex->ctx.framework ? ex->ctx.framework
						    : "the text",
				  "the message", known,
				  dnn ? ex->ctx.cudnn : NULL);
	buf_release(&agreed);
}

/* ---- the command's text and verdict -------------------------------------- */

int explain_read(struct explain *ex, char **args, int n, int fd,
		 struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc = CUENV_OK;

	if (n == 1 && !strcmp(args[0], "-")) {
		if (!file_read_fd(fd, EXPLAIN_STDIN_MAX, &text))
			rc = CUENV_OK;
		else if (errno == EFBIG)
			rc = cuenv_fail(err, CUENV_E_USAGE,
					"explain: standard input is larger "
					"than %u MiB",
					EXPLAIN_STDIN_MAX >> 20);
		else
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read standard input: %s",
					strerror(errno));
	} else {
		for (int i = 0; i < n; i++)
			buf_printf(&text, "%s%s", i ? " " : "", args[i]);
	}
	if (!rc)
		explain_parse(ex, text.data, text.len);
	if (!rc && !ex->n && ex->ctx.loaded.n) {
		rc = cuenv_fail(err, CUENV_NO,
				"the text only says that %s was opened: "
				"nothing in it failed",
				ex->ctx.loaded.v[0]);
		cuenv_hint(err, "give the lines that say what failed");
	} else if (!rc && !ex->n) {
		rc = cuenv_fail(err, CUENV_NO,
				"nothing in the text names a CUDA library or a "
				"CUDA error that cuenv knows");
		cuenv_hint(err, "give the message as printed, a soname "
				"(libcudnn.so.8) or a DLL name "
				"(cudart64_110.dll)");
	}
	buf_release(&text);
	return rc;
}

int explain_verdict(const struct explain *ex, struct cuenv_err *err)
{
	if (explain_recognised(ex))
		return CUENV_OK;
	return cuenv_fail(err, CUENV_NO, "no release ships %s under that name",
			  ex->v[0].name);
}
