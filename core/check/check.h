/*
 * check.h: `cuenv check`, proving a selection on the GPU layer by layer.
 *
 * Five layers, in this order, each with a distinct exit code (rc.h):
 *
 *	driver   libcuda.so.1 and the kernel module, against the minimum
 *	         driver the selected CUDA needs                        10
 *	runtime  libcudart, its version, the device and its properties 11
 *	kernel   a vector add, checked on the host                     12
 *	cudnn    libcudnn: version, the CUDA it was built for, a
 *	         convolution checked against a CPU reference           13
 *	cupti    libcupti: version, and an activity trace that records
 *	         the kernel with sane timestamps                       14
 *
 * The work runs in a child process, cuenv-probe (cmd/probe_main.c), whose
 * environment is exactly the activated one and which loads every library
 * by soname through the dynamic loader, as an application would; cuenv
 * itself never loads CUDA. check_cuda.c is the only file that dlopens
 * anything; this module holds the report, the rules that judge it, and
 * its JSON form (written here with no library, so that the probe links
 * libc and libdl only; read back with jansson in check_json.c).
 *
 * Invariants of a finished report (check_report_finish):
 *   - a layer whose prerequisite did not pass is never "pass": the
 *     runtime's device checks need the driver, the kernel needs both, the
 *     convolution needs the runtime, the trace needs the kernel;
 *   - "skip" is either a layer that was not asked for (no cuDNN selected)
 *     or one whose prerequisite failed; the exit code is that of the first
 *     layer that failed, or of the first asked-for layer that was skipped,
 *     else 0.
 * A skipped layer still carries what could be learnt without the GPU:
 * with no driver, libcudart, cuDNN and CUPTI are still loaded and their
 * versions and files reported.
 */
#ifndef CUENV_CHECK_H
#define CUENV_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

enum check_layer_id {
	CHECK_DRIVER,
	CHECK_RUNTIME,
	CHECK_KERNEL,
	CHECK_CUDNN,
	CHECK_CUPTI,
};
#define CHECK_LAYERS 5

enum check_status { CHECK_SKIP, CHECK_PASS, CHECK_FAIL };

struct check_layer {
	enum check_status status;
	bool asked;	     /* part of what was asked for (cuDNN may not be) */
	char *version;	     /* "550.54.15", "12.4", "9.1.0", or NULL */
	char *soname;	     /* what was asked of the loader */
	char *file;	     /* the file the loader picked, or NULL */
	bool foreign;	     /* file is not the selection's */
	double ms;	     /* time the layer took */
	char *message;	     /* what happened, in plain words */
	char *fix;	     /* the command or action that fixes it, or NULL */
	struct strv details; /* "key=value" facts, in order */
	struct strv warnings;
};

struct check_report {
	char *cuda;  /* the selection: CUDA version */
	char *cudnn; /* cuDNN version, or NULL */
	char *cupti; /* CUPTI from another release, or NULL */
	int device;
	struct check_layer layer[CHECK_LAYERS];
};

void check_report_init(struct check_report *r);
void check_report_release(struct check_report *r);

/* "driver", "runtime", "kernel", "cudnn", "cupti". */
const char *check_layer_name(enum check_layer_id id);
/* The exit code of a failure in layer id: CUENV_E_DRIVER + id. */
int check_layer_rc(enum check_layer_id id);
/* "pass", "fail", "skip"; parse returns -1 for anything else. */
const char *check_status_name(enum check_status st);
int check_status_parse(const char *s, enum check_status *st);

/* Set l's status and message (replacing both). */
void check_set(struct check_layer *l, enum check_status st, const char *fmt,
	       ...) __attribute__((format(printf, 3, 4)));
/* Set l's fix (replacing it). */
void check_fix(struct check_layer *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void check_warn(struct check_layer *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set detail key (replacing an earlier value of the same key). */
void check_detail(struct check_layer *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Replace the string *field with a copy of s (NULL clears it). */
void check_setstr(char **field, const char *s);

/*
 * Apply the dependency rules above: a layer that claims "pass" while a
 * prerequisite did not pass becomes "skip", saying which one failed.
 * Idempotent; cuenv runs it again on what the probe reported.
 */
void check_report_finish(struct check_report *r);

/*
 * The exit code of a finished report: CUENV_OK, or the code of the first
 * layer that failed, or of the first asked-for layer that was skipped.
 * *first, when not NULL, is set to that layer (or -1).
 */
int check_report_rc(const struct check_report *r, int *first);

/*
 * The report as one line of JSON (README "cuenv check --json" lists the
 * fields), appended to out. Strings that are not valid UTF-8 (a path's
 * bytes) have the bad bytes replaced by U+FFFD, so the line always
 * parses.
 */
void check_report_to_json(const struct check_report *r, struct buf *out);

/*
 * Parse a report written by check_report_to_json (text is NUL-terminated)
 * into r, which must be initialised and is replaced. Unknown fields are
 * ignored; a missing layer is "skip". Returns CUENV_OK, or CUENV_E_GPU
 * with a message when text is not such a report. (check_json.c: jansson.)
 */
int check_report_from_json(const char *text, struct check_report *r,
			   struct cuenv_err *err);

/* ---- judging ------------------------------------------------------------- */

/*
 * Judge the driver once libcuda.so.1 loaded and initialised: cuda is the
 * selected CUDA version ("12.4.1"); module the kernel module's driver
 * version ("550.54.15") or NULL when unknown; driver_cuda what
 * cuDriverGetVersion said (12040; 0 unknown); need and compat the
 * minimum driver for that release and, under minor version
 * compatibility, for its major (compat.h; NULL when the table has no
 * row). Sets l's status (pass, pass with a warning, or fail), message
 * and fix; details and file are left alone.
 *
 *   module >= need                         pass
 *   libcuda supports the release although
 *     the module is older                  pass, noting forward
 *                                          compatibility (cuda-compat)
 *   same major and module >= compat        pass, warning: minor version
 *                                          compatibility
 *   otherwise                              fail, naming the minimum and
 *                                          NVIDIA's cuda-compat-M-m
 *                                          package for data-center GPUs
 */
void check_judge_driver(struct check_layer *l, const char *cuda,
			const char *module, int driver_cuda, const char *need,
			const char *compat);

/*
 * Is file (what the loader picked for soname) the selection's, that is
 * the same file as <dir>/<soname> for one of the folders own? Compared
 * through realpath(), so links in either path do not matter. When the
 * selection has a file by that name, *provided (when not NULL) gets a
 * heap copy of its path, else NULL.
 */
bool check_file_is_own(const char *file, const char *soname,
		       const struct strv *own, char **provided);

/*
 * The soname a library called stem ("libcudart.so", "libcupti.so",
 * "libcudnn.so") has in the folders dirs: of the names there that are
 * stem followed by numbers (".12", ".11.0", ".12.4.127"), the one with
 * the fewest parts, which is the soname link ldconfig makes (libcudart.so
 * .11.0 beside libcudart.so.11.8.89). Heap string, or NULL when none.
 */
char *check_find_soname(const struct strv *dirs, const char *stem);

/* ---- versions as people read them ---------------------------------------- */

/* 12040 -> "12.4", 11080 -> "11.8" (CUDA's 1000 * major + 10 * minor). */
void check_cuda_version(int v, struct buf *out);
/* cudnnGetVersion(): 8907 -> "8.9.7", 90100 -> "9.1.0", 91900 -> "9.19.0". */
void check_cudnn_version(size_t v, struct buf *out);
/* cuptiGetVersion(): 22 -> "22" (API version), 130001 -> "13.0.1". */
void check_cupti_version(unsigned v, struct buf *out);

/*
 * The NVIDIA kernel module's version, read before any library is loaded:
 * <root>/sys/module/nvidia/version, else the "Kernel Module" line of
 * <root>/proc/driver/nvidia/version (root is "" on a real system). On
 * success out has the version and source the file it came from; returns
 * false when neither says (no driver loaded).
 */
bool check_module_version(const char *root, struct buf *out,
			  struct buf *source);

/* ---- the probe (check_cuda.c) -------------------------------------------- */

/* What cuenv-probe is asked to check (all strings borrowed). */
struct check_probe {
	int device;
	const char *cuda;	   /* the selected CUDA version (required) */
	const char *cudnn;	   /* the selected cuDNN version, or NULL */
	const char *cupti;	   /* CUPTI from another release, or NULL */
	const char *driver_need;   /* minimum driver (compat.h), or NULL */
	const char *driver_compat; /* ... under minor version compat, or NULL */
	const char *driver_module; /* the module version as overridden
					(CUENV_DRIVER_VERSION), or NULL: read it */
	const char *module_root;   /* where /sys and /proc are: "" */
	const char *driver_lib;	   /* "libcuda.so.1" */
	const char *runtime_lib;   /* "libcudart.so.12" */
	const char *cudnn_lib;	   /* "libcudnn.so.9", or NULL: not asked */
	const char *cupti_lib;	   /* "libcupti.so.12" */
	struct strv own;	   /* the selection's library folders */
	const char *ld_library_path; /* the probe's, for advice; or NULL */
	const char *visible_devices; /* CUDA_VISIBLE_DEVICES, or NULL */
	bool unload;		     /* dlclose everything at the end */
	/* Called as each step starts, so that a crash can be placed. */
	void (*stage)(void *arg, const char *step);
	void *stage_arg;
};

/*
 * Run every layer in-process, filling r (initialised by the caller, and
 * finished here). The libraries stay loaded unless p->unload: the probe
 * exits right after, and unloading CUDA libraries runs their destructors
 * in an order they were not written for.
 */
void check_probe_run(const struct check_probe *p, struct check_report *r);

/*
 * cuenv-probe's command line (argv[1..argc-1]; check_plan_make writes
 * it) into p: --cuda, --cudnn, --cupti, --device N, --driver-need,
 * --driver-compat, --runtime, --cudnn-lib, --cupti-lib and --own (each
 * pushed onto p->own), each with its value as the next argument or
 * after '=' (borrowed from argv), named in full or by a prefix only one
 * of them has, as getopt_long takes them. Returns 0, or -1 for anything
 * else, a device that is not a number from 0, or a missing --cuda,
 * --runtime or --cupti-lib: then the caller prints check_probe_usage.
 * p->own is the caller's to release either way.
 */
int check_probe_args(struct check_probe *p, int argc, char **argv);

/* What cuenv-probe says on a bad command line. */
extern const char check_probe_usage[];

/* The PTX of the test kernel (entry "cuenv_vadd"), NUL-terminated. */
extern const char check_vadd_ptx[];

#endif
