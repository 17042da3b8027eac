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
 *    8.1.0" and PyTorch's "cuDNN version incompatibility: PyTorch was
 *    compiled  against (9, 26, 0) but found runtime version (9, 19, 0)";
 *  - CUPTI's troubles: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (a driver
 *    setting, no library missing), "incompatible libcupti version" and
 *    TensorFlow's "CUPTI could not be loaded or symbol could not be
 *    found".
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

#include "buf.h"
#include "err.h"
#include "ldcache.h"
#include "needs.h"
#include "nvlib.h"

enum explain_kind {
	EXPLAIN_LIBRARY,	/* a CUDA library of the table, by name */
	EXPLAIN_NO_RELEASE,	/* a table library no release gives so */
	EXPLAIN_DRIVER,		/* libcuda.so.1, nvcuda.dll: the driver */
	EXPLAIN_CUDNN_MISMATCH, /* built with cuDNN X, loaded Y */
	EXPLAIN_CUPTI_PRIVILEGES,
	EXPLAIN_CUPTI_LOAD, /* incompatible libcupti, CUPTI not loaded */
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
	char *soname;	 /* the Linux soname it stands for ("libcudart.so.11.0"
			     for cudart64_110.dll), or NULL (no version) */
	char *releases;	 /* "CUDA 11.2", "CUDA 11.x", "cuDNN 8.x", or NULL */
	bool missing;	 /* the text says it could not be loaded */
	char *framework; /* mismatch: "tensorflow", "torch" */
	char *built;	 /* mismatch: the cuDNN it was compiled with */
	char *loaded;	 /* mismatch: the cuDNN it found */
	char *line;	 /* the first line it was found on, trimmed */
	struct explain_row *rows; /* explain_frameworks */
	size_t nrows;
	struct strv store;  /* explain_machine: "cuda 11.8.0 (installed)
			       gives libcupti.so.11.8: PATH" */
	struct strv loader; /* explain_machine: "loader cache: libcupti.so.12
			       => PATH", "LD_LIBRARY_PATH: PATH" */
	bool store_exact;   /* an install holds soname itself */
	bool loader_exact;  /* the loader's path holds soname itself */
};

/* The findings an explain keeps: a log of many names reports the first
 * ones (enough for any real log) and counts the rest. */
#define EXPLAIN_KEEP 100

struct explain_keys;

struct explain {
	struct explain_finding *v;
	size_t n;
	size_t omitted; /* distinct findings past EXPLAIN_KEEP, not kept */
	struct explain_keys *keys; /* every finding's key, kept or not */
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
	struct strv lines;    /* the commands that fix it, runnable */
	char *state;	      /* what the store gives, in words */
};

void explain_fix_init(struct explain_fix *fx);
void explain_fix_release(struct explain_fix *fx);

/*
 * The fix, once fx->s holds explain_scan's wants (finished) and fx->in
 * the store matched against them (needs_match_installed): an installed
 * match in force here -> `cuenv exec -- PROGRAM`; installed but not
 * selected -> `cuenv local` of it; else the catalogue's install line
 * followed by `cuenv local` of the same versions. Nothing asked: no fix.
 */
void explain_fix_decide(struct explain_fix *fx, const struct catalog *cat);

struct json_t;

/* `cuenv explain --json`'s object: findings, installed, fix. New ref. */
struct json_t *explain_json(const struct explain *ex,
			    const struct explain_fix *fx);

#endif
