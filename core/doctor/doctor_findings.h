/*
 * doctor_findings.h: what `cuenv doctor`'s audit reads (struct doctor_in,
 * gathered by the caller), what it finds (struct findings), and the
 * audit under way with the helpers every check writes findings with.
 * Below doctor.c, which runs the checks in order, and below each check
 * (doctor_int.h), so that the checks never call back into doctor.c.
 */
#ifndef CUENV_DOCTOR_FINDINGS_H
#define CUENV_DOCTOR_FINDINGS_H

#include <stdbool.h>

#include "select/activate.h"
#include "nvidia/catalog.h"
#include "nvidia/compat.h"
#include "artifact/ldcache.h"

enum doctor_severity {
	DOCTOR_PROBLEM, /* this breaks: exit CUENV_E_DOCTOR */
	DOCTOR_WARNING, /* this can break, or mixes releases */
	DOCTOR_INFO,	/* worth knowing */
};

struct finding {
	const char *id; /* static, stable */
	enum doctor_severity severity;
	char *what;	   /* the fact: what is wrong */
	char *why;	   /* how it breaks */
	char *fix;	   /* the command(s) that fix it; "" when none */
	struct strv paths; /* the files and folders involved */
};

struct findings {
	struct finding *v;
	size_t n;
};

void findings_release(struct findings *f);
size_t findings_count(const struct findings *f, enum doctor_severity s);
/* "problem", "warning", "info" */
const char *doctor_severity_name(enum doctor_severity s);

/*
 * Windows' loader, for doctor_check_dlls (core/artifact/dllsearch.h): the folders
 * it searches besides PATH, and how to tell whether one holds a file.
 */
struct doctor_win {
	const char *system_root;    /* %SystemRoot%: C:\Windows */
	const char *cwd;	    /* the current folder */
	const char *python;	    /* python.exe on PATH, or NULL */
	const char *python_version; /* its "3.10", or NULL: not known */
	bool (*exists)(void *ctx, const char *dir, const char *name);
	void *ctx;
};

/* exists for the real file system: dir holds name, not a folder. */
bool doctor_dll_exists(void *ctx, const char *dir, const char *name);

struct doctor_in {
	const struct envmap *env;	 /* this process's environment */
	const struct activation *a;	 /* activation_compute() from env */
	int act_rc;			 /* what it returned */
	const struct cuenv_err *act_err; /* its message when act_rc */
	const char *driver;		 /* "550.54.15", NULL: none found */
	const char *driver_from;	 /* where driver was read */
	const struct driver_req *need;	 /* for the selected CUDA, or NULL */
	const struct ldcache *cache;	 /* NULL: not read */
	const char *cache_path;		 /* for messages */
	const char *cache_error;	 /* why it could not be read, or NULL */
	const struct ldconf *conf;	 /* the configuration behind it */
	const struct strv *site_dirs;	 /* Python's sys.path folders */
	const char *python;		 /* the interpreter asked, or NULL */
	bool observe;	    /* import each framework in python (pyobs.h) */
	unsigned import_ms; /* the deadline of one import (0: default) */
	const struct strv *loader_defaults; /* the loader's default folders,
					       in order, or NULL */
	const char *loader_platform;	    /* $PLATFORM, or NULL */
	const char *loader_lib;		    /* $LIB, or NULL */
	const struct catalog *cat;	    /* what cuenv can install, or NULL:
					    none could be read */
	const struct doctor_win *win;	    /* Windows' loader, or NULL: the
					    loader is Linux's */
};

struct audit {
	const struct doctor_in *in;
	struct findings *out;
	const struct activation *a;
	const struct envmap *eff; /* the environment programs get */
	int shell_active;	  /* eff is this shell's own environment */
	struct buf label;	  /* "cuda 12.4.1 + cudnn 9.1.0.70" */
	struct strv dirs;	  /* the selection's library folders */
	struct strv real_dirs;	  /* ... through links */
	struct strv provides;	  /* library file names in them */
	struct strv missing;	  /* sonames expected there but absent */
};

/* A finding being written. */
struct draft {
	struct buf what, why, fix;
	struct strv paths;
};

#define DRAFT_INIT                                                             \
	{                                                                      \
		BUF_INIT, BUF_INIT, BUF_INIT, STRV_INIT                        \
	}

/* Append d to out as a finding; d is left empty. */
void doctor_emit(struct findings *out, const char *id, enum doctor_severity s,
		 struct draft *d);
/* The same, with why and fix (NULL: none) appended to d first. */
void doctor_emit_with(struct findings *out, const char *id,
		      enum doctor_severity s, struct draft *d, const char *why,
		      const char *fix);
/* A finding of its what (printf's fmt), why and fix, naming no path. */
void doctor_emitf(struct findings *out, const char *id, enum doctor_severity s,
		  const char *why, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ---- words and lists ---------------------------------------------------- */

/* Push s onto sv unless it is there already. */
void doctor_push_unique(struct strv *sv, const char *s);
/* The folder part of path ("/a/b/c" -> "/a/b"), heap. */
char *doctor_parent(const char *path);
/* "a, b, c and 4 more" */
void doctor_list(struct buf *b, const struct strv *names);

/* ---- CUDA libraries ----------------------------------------------------- */

/* The CUDA major the first library in libs names by its soname, or 0. */
unsigned doctor_libs_major(const struct strv *libs);
/* The CUDA library file names in dir, sorted. */
void doctor_cuda_libs(const char *dir, struct strv *out);
/* Is name among the library files of the selection's folders? */
int doctor_provides(const struct audit *au, const char *name);

/* ---- commands in fixes -------------------------------------------------- */

/* The command that changes the selection where it was made. */
void doctor_setter(const struct audit *au, struct buf *b);
/* "cuenv install SPEC [--cudnn V] [--cupti V]" for what sel asks. */
void doctor_install_cmd(const struct selection *sel, const char *cuda,
			struct buf *b);
/* How to rebuild an install whose files lack something. */
void doctor_reinstall(const struct store_version *in, const char *cuda,
		      struct buf *b);

#endif
