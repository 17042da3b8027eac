/*
 * explain.h: what a framework's error message, a pasted log, a soname or
 * a Windows DLL name says about CUDA (`cuenv explain`).
 *
 * The text is read line by line for what the frameworks really print:
 *
 *  - a CUDA library's name anywhere: TensorFlow's dso_loader "Could not
 *    load dynamic library 'libcupti.so.11.2'; dlerror: ...", Python's
 *    "ImportError: libcublasLt.so.11: cannot open shared object file",
 *    Windows' "cudart64_110.dll not found", or the bare name. Each is a
 *    library of nvlib's table; its release(s) come from the table, never
 *    from a list here. A name of the table with a version that no
 *    release gives (libcudart.so.99) is reported as such; the driver's
 *    libcuda.so.1 / nvcuda.dll as the driver;
 *  - a cuDNN built-against / loaded pair: TensorFlow's (and XLA's)
 *    "Loaded runtime CuDNN library: 8.0.5 but source was compiled with:
 *    8.1.0" (TensorFlow 1.x: "7201 (compatibility version 7200) but
 *    source was compiled with 7004", cuDNN's number) and PyTorch's "cuDNN version incompatibility: PyTorch was
 *    compiled  against (9, 26, 0) but found runtime version (9, 19, 0)";
 *  - CUPTI's troubles: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (a driver
 *    setting, no library missing; also by its number, a CUPTI call's
 *    "error 35", and "Insufficient privilege to run libcupti"),
 *    "incompatible libcupti version" and TensorFlow's "CUPTI could not be
 *    loaded or symbol could not be found";
 *  - a symbol missing: ld.so's "PATH: undefined symbol: S" (the library
 *    at fault is S's owner by its name, cudaMemsetAsync the runtime's),
 *    cuDNN's "Could not load symbol S from cublas64_11.dll" (that file
 *    was loaded and lacks S: copies mixed, nothing missing), and the
 *    versioned forms of ld.so and ld.
 *
 * Then, each a separate step so that the command chooses what to read:
 * the framework releases of manifests/compat/frameworks.tsv that ask for
 * each finding (explain_frameworks), what the store and the loader's
 * path hold of the same library (explain_machine), and a needs_scan of
 * what the text requires, for core/needs to match against the store and
 * the catalogue (explain_scan): the fix is needs' answer.
 *
 * Nothing here prints; explain_frameworks and explain_machine read files.
 */
#ifndef CUENV_EXPLAIN_H
#define CUENV_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "artifact/ldcache.h"
#include "needs/needs.h"
#include "nvidia/nvlib.h"

enum explain_kind {
	EXPLAIN_LIBRARY,	/* a CUDA library of the table, by name */
	EXPLAIN_NO_RELEASE,	/* a table library no release gives so */
	EXPLAIN_DRIVER,		/* libcuda.so.1, nvcuda.dll: the driver */
	EXPLAIN_CUDNN_MISMATCH, /* built with cuDNN X, loaded Y */
	EXPLAIN_CUPTI_PRIVILEGES,
	EXPLAIN_CUPTI_LOAD, /* incompatible libcupti, CUPTI not loaded */
	EXPLAIN_DRIVER_OLD, /* the driver is older than the CUDA runtime */
	EXPLAIN_MIXED,	    /* a symbol missing in a CUDA library: mixed
			       copies of one release and another */
	EXPLAIN_SYMBOL,	    /* "undefined symbol: S, version libY.so.N":
			       the copy of libY loaded lacks S@libY.so.N */
	EXPLAIN_TOO_OLD,    /* a toolkit library older than the framework
			       asks (JAX's check: cuBLAS, the runtime) */
	EXPLAIN_TOOLKIT_MISMATCH, /* the toolkit (nvcc) that compiles a
				     framework's extensions is another CUDA
				     than the framework's: built, loaded */
};

/*
 * The loader found a library's file and could not use it, so no other
 * copy installed elsewhere is the fix (the one found must change): why.
 */
enum explain_found {
	EXPLAIN_FOUND_NOT_SAID,
	EXPLAIN_FOUND_NO_ENTRY,	   /* Windows' 127: a DLL it imports from
				      lacks an entry point */
	EXPLAIN_FOUND_INIT_FAILED, /* Windows' 1114: its initialisation
				      (DllMain) failed */
	EXPLAIN_FOUND_NO_MEMORY,   /* Windows' 1455 (the paging file), 8;
				      glibc's "cannot allocate memory" */
	EXPLAIN_FOUND_BAD_FILE,	   /* Windows' 193; glibc's wrong ELF
				      class, invalid ELF header, file too
				      short: not a library for this machine */
};

/* A copy of a library on this machine, judged by the loader model
 * (explain_model): where it is, whether it gives what the text asks. */
struct explain_copy {
	char *path;
	char *where;   /* "beside it (RUNPATH)", "LD_LIBRARY_PATH",
			  "cuda 12.4.1 (installed)", "ld.so.cache" */
	char *version; /* "12.9.86", or NULL when nothing says */
	bool satisfies;
};

/* Frameworks of one build that ask for a finding: "tensorflow", "2.5.0
 * to 2.11.0" (or "2.4, 2.5, 2.7"), CUDA "11.2", cuDNN "8.1". */
struct explain_row {
	char *framework;
	char *versions;
	char *cuda;
	char *cudnn;  /* or NULL */
	bool windows; /* a row of the table's Windows builds */
};

struct explain_finding {
	enum explain_kind kind;
	char *name; /* as written: "libcupti.so.11.2", "cudart64_110.dll";
			     NULL for mismatch and CUPTI findings */
	const struct nvlib *lib; /* or NULL */
	bool dll;		 /* name is a Windows DLL */
	char *soname;	/* the Linux soname it stands for ("libcudart.so.11.0"
			     for cudart64_110.dll), or NULL (no version) */
	char *releases; /* "CUDA 11.2", "CUDA 11.x", "cuDNN 8.x", or NULL */
	bool missing;	/* the text says it could not be loaded */
	enum explain_found found; /* the loader found it and could not
				     use it: why (EXPLAIN_FOUND_NOT_SAID: the
				     text does not say it was found) */
	bool imports;		  /* name is a framework's own DLL that imports
			       CUDA's (onnxruntime_providers_cuda.dll), kind
			       EXPLAIN_LIBRARY, lib NULL: Windows' 126 says
			       it or a DLL it imports is missing, never
			       which; framework: the text's, or NULL;
			       releases: the CUDA and cuDNN the text says
			       the framework's build uses, or NULL */
	char *wanted_by; /* a library the loader found whose loading failed
			    on this one ("libcudnn_cnn_infer.so.8. Error:
			    libcuda.so: cannot open ..."), or NULL */
	char *framework; /* mismatch: "tensorflow", "torch" */
	char *built;	 /* mismatch: the cuDNN it was compiled with; too
			    old: the library's version it asks at least */
	char *loaded;	 /* mismatch, too old: the version it found */
	char *line;	 /* the first line it was found on, trimmed */
	struct explain_row *rows; /* explain_frameworks */
	size_t nrows;
	struct strv store;  /* explain_machine: "cuda 11.8.0 (installed)
			       gives libcupti.so.11.8: PATH" */
	struct strv loader; /* explain_machine: "loader cache: libcupti.so.12
			       => PATH", "LD_LIBRARY_PATH: PATH" */
	bool store_exact;   /* an install holds soname itself */
	bool loader_exact;  /* the loader's path holds soname itself */
	/* EXPLAIN_DRIVER_OLD: the CUDA the driver supports, when the text
	 * says ("11.4" for PyTorch's "found version 11040"), and what the
	 * table asks of a driver for the CUDA in use (explain_frameworks) */
	char *driver_cuda;
	char *driver_min;    /* "520.61.05": that release's own minimum */
	char *driver_compat; /* "450": its major's, minor-version compat */
	char *driver_row;    /* the table's row used, "11.8.0" */
	/* EXPLAIN_MIXED: the symbol and the file that lacks it, as written */
	char *symbol;
	char *path;
	char *picked; /* explain_machine: the copy the loader picks */
	/* EXPLAIN_SYMBOL: the version S is asked at ("libnvJitLink.so.12",
	 * also soname when it names a library of the table); built: the
	 * release the symbol's name asks for ("12.1" of _12_1), or NULL */
	char *symver;
	/* explain_model, for EXPLAIN_SYMBOL (the loader run for path) and a
	 * cuDNN mismatch (for the framework's library in its site-packages):
	 * the file the loader picks here, its source, its version, whether
	 * it satisfies; the copies here; absent: why it could not run */
	bool modelled;
	char *model_file;
	const char *model_from;
	char *model_version;
	char *model_mixed; /* "libcudnn_graph.so.9 from DIR": a cuDNN
			      sub-library the model loads from another
			      folder than the front library, or NULL */
	bool model_ok;
	char *model_mixed_dir; /* that sub-library's folder, when it is one
				  of LD_LIBRARY_PATH's, or NULL */
	char *model_observed;  /* the python whose import was observed
				 (pyobs.h): what it mapped is fact, the rest
				 predicted from there; NULL: the model alone */
	char *model_error;     /* that import's error ("RuntimeError: cuDNN
				 version incompatibility: ..."), or NULL */
	bool by_selection;     /* model_file's folder is the selection's, on
			      LD_LIBRARY_PATH */
	char *absent;
	char *site; /* the site-packages folder the model read */
	struct explain_copy *copies;
	size_t ncopies;
};

/*
 * What the text says around its findings, read from every line: the
 * framework that printed it, that framework's version, and the CUDA and
 * cuDNN its build uses (from a "+cu117" wheel version, a jaxlib's
 * "+cuda11.cudnn86", an nvidia-*-cu12 or cupy-cuda12x wheel, a Paddle
 * ".post112" build, a "compiled with CUDA 11.8" line, a library the
 * program opened successfully, the frameworks table for the framework's
 * version). Each with where it came from, in words; cuda_other is set
 * when two lines name two CUDA majors: then the CUDA cannot be known.
 */
struct explain_context {
	char *framework;      /* "jax", "tensorflow", "pytorch", "paddle",
				 "ctranslate2", "onnxruntime", "cupy" */
	char *framework_from; /* "external/xla/xla/" */
	char *pin;	      /* "ctranslate2==4.5.0": the pip name and
				 version the text gives, or NULL */
	char *version;	      /* that version */
	char *cuda, *cuda_from;
	char *cuda_other, *cuda_other_from;
	char *cudnn, *cudnn_from;
	bool jax;	    /* anything in the text is JAX's */
	char *org_tf;	    /* "external/org_tensorflow/...": TensorFlow
				 built into JAX, or into TF Serving */
	bool serving;	    /* the text is TensorFlow Serving's */
	struct strv loaded; /* sonames the program opened */
	char *pending_min;  /* JAX's "Outdated cuDNN installation" block:
				 its "Minimum supported" so far */
	char *site;	    /* the first ".../site-packages" folder a line
			       names (a traceback's), or NULL */
};

/*
 * Read one line of text into c. True when the line says a library was
 * opened ("Successfully opened dynamic library libcudart.so.11.0"): its
 * names are no finding, only context.
 */
bool explain_context_line(struct explain_context *c, const char *line);

/* The CUDA the build uses, from the framework's version in the
 * frameworks table: fw's rows (compat_frameworks) for c->version, when
 * they agree on the major. */
struct framework_builds;
void explain_context_table(struct explain_context *c,
			   const struct framework_builds *fw);

/* The CUDA the build uses is v, as a finding read it from the quote
 * from (torch's extension builder: "PyTorch (11.8)" on its own line). */
void explain_context_built(struct explain_context *c, const char *v,
			   const char *from);

void explain_context_release(struct explain_context *c);

/* Once every line is read: what can only be decided from them all
 * (external/org_tensorflow/ paths are JAX's unless the text is TF
 * Serving's). */
void explain_context_finish(struct explain_context *c);

/* The CUDA release the text says its build uses ("11.7", "12"), or NULL
 * when it says none or two majors. Borrowed from c. */
const char *explain_context_cuda_known(const struct explain_context *c);

/* The findings an explain keeps: a log of many names reports the first
 * ones (enough for any real log) and counts the rest. */
#define EXPLAIN_KEEP 100

struct explain_keys;

struct explain {
	struct explain_finding *v;
	size_t n;
	size_t omitted; /* distinct findings past EXPLAIN_KEEP, not kept */
	struct explain_keys *keys; /* every finding's key, kept or not */
	struct explain_context ctx;
};

void explain_init(struct explain *ex);
void explain_release(struct explain *ex);

/*
 * Read len bytes of text (a message, a log, a name; NUL bytes end
 * nothing) and add what it names into ex, each library once, in the
 * order first seen, at most EXPLAIN_KEEP in all: the others are counted
 * in ex->omitted, each once. A name is marked missing when a line that
 * names it says it could not be loaded. Time linear in len. Returns the
 * number of findings added.
 */
size_t explain_parse(struct explain *ex, const char *text, size_t len);

/* A log pasted on standard input, at most this large. */
#define EXPLAIN_STDIN_MAX (16u << 20)

/*
 * `cuenv explain TEXT...` or `cuenv explain -`: explain_parse the n
 * args joined by spaces, or, when they are the one word "-", what is
 * left to read from fd (at most EXPLAIN_STDIN_MAX bytes). Returns
 * CUENV_OK; CUENV_NO, with a hint, when the text names nothing cuenv
 * knows; CUENV_E_USAGE for input too large; CUENV_E_STORE when fd
 * cannot be read.
 */
int explain_read(struct explain *ex, char **args, int n, int fd,
		 struct cuenv_err *err);

/*
 * Fill each finding's rows from dir/frameworks.tsv (TensorFlow, PyTorch,
 * JAX): the builds whose CUDA gives the library that soname (TensorFlow's
 * Windows builds for a DLL), whose cuDNN has the library's major, or, for
 * a mismatch, whose cuDNN is the one it was compiled with (its
 * major.minor). Returns CUENV_OK or CUENV_E_MANIFEST (compat_frameworks).
 */
int explain_frameworks(struct explain *ex, const char *dir,
		       struct cuenv_err *err);

/*
 * What this machine holds of each finding's library: in the store (in's
 * lists, the soname each install gives, when that file is there), in
 * the loader cache (cache may be NULL) and in the folders of
 * ld_library_path (a colon-separated list, or NULL). Stats and lists
 * those folders.
 */
void explain_machine(struct explain *ex, const struct needs_installed *in,
		     const struct ldcache *cache, const char *ld_library_path);

/*
 * What the text requires, into s (initialised; call needs_scan_finish
 * after): each library finding's soname, needed by "the message"; each
 * cuDNN mismatch as a report of its framework, built with that cuDNN
 * (and the CUDA all its rows agree on, when they do).
 */
void explain_scan(const struct explain *ex, struct needs_scan *s);

/* Does ex hold anything explained (anything but EXPLAIN_NO_RELEASE)? */
bool explain_recognised(const struct explain *ex);

/*
 * explain's exit status once the report is printed: CUENV_OK when ex is
 * recognised, else CUENV_NO, "no release ships NAME under that name"
 * for its first finding.
 */
int explain_verdict(const struct explain *ex, struct cuenv_err *err);

/* ---- the fix --------------------------------------------------------------- */

struct explain_fix {
	struct needs_scan s;	   /* the libraries the text asks for */
	struct needs_installed in; /* the store's answer */
	struct needs_offer o; /* the catalogue's, when the store has none */
	struct strv lines;    /* the commands that fix it, one a line, each
				 runnable as printed */
	struct strv decide;   /* when the CUDA cannot be known: the
				 commands that find it out, runnable */
	char *unknown;	      /* why the CUDA cannot be known, or NULL */
	char *undecided;      /* why nothing installed here decides it
				 either, and what the user can give, or
				 NULL */
	char *note;	      /* what to do that is no command, or NULL */
	char *state;	      /* what the store gives, in words */
};

void explain_fix_init(struct explain_fix *fx);
void explain_fix_release(struct explain_fix *fx);

/*
 * What a library older than a framework asks (EXPLAIN_TOO_OLD) means
 * for the CUDA release, into fx->s after explain_scan: the oldest
 * release of cat whose copy of the library (its component) is new
 * enough is a minimum; where cat has none, fx->note says so.
 */
void explain_fix_minimums(struct explain_fix *fx, const struct explain *ex,
			  const struct catalog *cat);

/*
 * The fix, once fx->s holds explain_scan's wants (finished) and fx->in
 * the store matched against them (needs_match_installed). Nothing asked:
 * no fix. When neither a library asked for nor ex's context names the
 * CUDA release (cuDNN's sonames are built for several): no fix, but
 * fx->unknown says why and fx->decide holds `cuenv needs NAME==V` (the
 * framework's version the text gives) and `cuenv needs --python`.
 * Else an installed match in force here -> a note to run the program
 * under `cuenv exec`; installed but not selected -> `cuenv local` of it;
 * else the catalogue's `cuenv install` line, then `cuenv local` of the
 * same versions, as two commands.
 */
void explain_fix_decide(struct explain_fix *fx, const struct explain *ex,
			const struct catalog *cat);

/* Does s name the CUDA release: a library of the toolkit's, or a
 * framework's report of its CUDA? (cuDNN's and NCCL's sonames do not.) */
bool explain_fix_cuda_named(const struct needs_scan *s);

/*
 * `cuenv needs --python` among fx->decide, once py holds what
 * needs_python_find found for it (py->finder NULL: no interpreter to
 * run): when it found no framework, the command would answer nothing, so
 * it is taken out and fx->undecided says why, and, when no other
 * command is left, what can be given instead (a build's NAME==VERSION
 * on the package index, or its folder).
 */
void explain_fix_frameworks(struct explain_fix *fx,
			    const struct needs_python *py, const char *python);

struct json_t;

/*
 * `cuenv explain --json`'s object: context, findings, installed, fix
 * (each command an array of its arguments), decide, note; error (err's
 * message) when err is given and holds one, so that every exit prints
 * an object. New ref.
 */
struct json_t *explain_json(const struct explain *ex,
			    const struct explain_fix *fx,
			    const struct cuenv_err *err);

#endif
