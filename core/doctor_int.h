/*
 * doctor_int.h: what the parts of `cuenv doctor` share, private to
 * core/doctor*.c: the audit under way, a finding being written, the
 * checks doctor_run() calls in order, and the helpers that write the
 * sentences and commands of findings.
 *
 *	core/doctor.c         findings, their order, the audit's life (the
 *	                      selection's folders, which environment
 *	                      programs get), the shared helpers
 *	core/doctor_select.c  the selection itself, its sonames, its cuDNN
 *	core/doctor_path.c    LD_LIBRARY_PATH, the loader cache, CUDA_HOME
 *	core/doctor_driver.c  the driver against what the toolkit needs
 *	core/doctor_pip.c     NVIDIA's pip wheels and conda's libraries
 *	core/doctor_venv.c    a Python environment's frameworks, through
 *	                      the loader model (core/pyload.h)
 *	core/doctor_dll.c     Windows' loader: the DLLs a program loads
 *
 * Each check reads struct audit and appends findings to au->out; only
 * doctor.c writes the audit's other fields, before the checks that read
 * them.
 */
#ifndef CUENV_DOCTOR_INT_H
#define CUENV_DOCTOR_INT_H

#include "doctor.h"
#include "shell.h"

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
void doctor_reinstall(const struct install *in, const char *cuda,
		      struct buf *b);

/* ---- the checks, in the order doctor_run() calls them ------------------- */

void doctor_check_selection(struct audit *au); /* doctor_select.c */
void doctor_check_sonames(struct audit *au);
void doctor_check_cudnn(struct audit *au);
void doctor_check_dlls(struct audit *au);    /* doctor_dll.c */
void doctor_check_ld_path(struct audit *au); /* doctor_path.c */
void doctor_check_cache(struct audit *au);
void doctor_check_driver(struct audit *au);    /* doctor_driver.c */
void doctor_check_cuda_home(struct audit *au); /* doctor_path.c */
void doctor_check_wheels(struct audit *au);    /* doctor_pip.c */
void doctor_check_conda(struct audit *au);
void doctor_check_python(struct audit *au); /* doctor_venv.c */
/* Does site hold a framework the loader model predicts (pyload.h)? */
bool doctor_python_modelled(const struct audit *au, const char *site);

#endif
