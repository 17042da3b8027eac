/*
 * activate.h: from (root, working directory, environment) to the
 * environment that the selection there gives.
 *
 * This is the one computation behind the prompt hook, `cuenv use`,
 * `exec`, `env`, `which` and `version`: undo whatever cuenv activated
 * before (so leaving a project removes its entries), find the selection,
 * resolve it against the store and apply it.
 */
#ifndef CUENV_ACTIVATE_H
#define CUENV_ACTIVATE_H

#include "plat/envmap.h"
#include "select/select.h"
#include "store/store.h"

struct activation {
	struct selection sel;
	struct store_version_list cudas;
	struct store_version_list cudnns;
	struct store_version_list cuptis;
	struct active act;	/* valid when ok */
	int ok;			/* a selection is resolved and applied */
	struct envmap base;	/* start, with cuenv's earlier work undone */
	struct envmap after;	/* base plus the selection (base when none) */
	struct strv warnings;	/* shadowing dirs, skipped receipts */
	struct strv notes;	/* what activation did that the user should
				 know: a venv's wheels kept first */
	struct strv venv_first; /* act.first_libs points here */
	const char *program;	/* set by the caller before computing: the
				   program it will run (cuenv exec), whose
				   venv, when it is a venv's python by path,
				   is the one kept first; or NULL */
	int insecure_roots;	/* skip the trust checks (core/store/trust.h) */
	int untrusted;		/* failed them: a chmod can fix it */
};

void activation_init(struct activation *a);
void activation_release(struct activation *a);

/*
 * Compute the activation for cwd under root, starting from the
 * environment start (whose CUENV_VERSION and friends take part in the
 * selection, whose CUENV_SYSTEM_ROOTS adds read-only roots: see
 * activation_list, and whose CUENV_INSECURE_ROOTS=1 sets
 * a->insecure_roots). isolate forces --isolate whatever the selection
 * says.
 *
 * In a Python environment whose NVIDIA wheels ship sonames the
 * selection's library folders also hold (venvlib.h), those wheels'
 * folders go first on LD_LIBRARY_PATH (act.first_libs), so that the
 * environment's frameworks keep their own copies, and a note in
 * a->notes says so; PATH, CUDA_HOME, CPATH and LIBRARY_PATH are the
 * selection's as ever. CUENV_OVER_VENV=1 in start puts the selection
 * first instead, with a warning naming what it shadows. The selected version folders and receipts must pass
 * trust_check_path unless a->insecure_roots. On error (bad .cuenv:
 * CUENV_E_MANIFEST; missing version: CUENV_E_NOT_INSTALLED; unreadable or
 * untrusted store: CUENV_E_STORE; a bad root: CUENV_E_USAGE) a->after is
 * still a->base and a->sel's watch lists are filled, so a hook can
 * deactivate and watch for the fix. Reads the store; writes nothing.
 */
int activation_compute(const char *root, const char *cwd,
		       const struct envmap *start, int isolate,
		       struct activation *a, struct cuenv_err *err);

/*
 * List into a's cudas, cudnns and cuptis what root holds, then what each
 * root of system_roots (a colon list of absolute paths, such as a
 * read-only folder admins install into on a cluster's network file
 * system; NULL or "" for none) holds that root does not: a version in the
 * user's own root hides one of the same name further down the list.
 * Installs come from root only; these are read. Warnings for skipped
 * receipts go to a->warnings. Empty entries of system_roots are ignored;
 * one that is relative or holds a newline fails (CUENV_E_USAGE). Unless
 * a->insecure_roots, each root and its versions/ folders must pass
 * trust_check_path (CUENV_E_STORE): a system root may be owned by root
 * or the user, and is fixed by giving it to root.
 */
int activation_list(const char *root, const char *system_roots,
		    struct activation *a, struct cuenv_err *err);

/*
 * Find the file name (an executable, a library soname, a header) that the
 * activation provides, searching bin, then library, then include
 * directories in activation order. Returns a heap path or NULL.
 */
char *activation_which(const struct activation *a, const char *name);

/*
 * For the commands that need a selection here (which, prefix, check):
 * CUENV_OK when a has one (a->ok), else CUENV_NO, "nothing selected
 * here", with the hint to select one.
 */
int activation_selected(const struct activation *a, struct cuenv_err *err);

/*
 * `cuenv which NAME`: activation_which's path and a newline, appended to
 * out. CUENV_NO when nothing is selected (activation_selected), or when
 * the selection does not provide name ("'NAME' is not provided by cuda
 * 12.4.1 + cudnn 9.1.0", name shown through buf_add_display).
 */
int activation_which_report(const struct activation *a, const char *name,
			    struct buf *out, struct cuenv_err *err);


#include "plat/shell.h"

/*
 * The hook's memory of what it last said: a digest (16 hex digits,
 * FNV-1a 64 over each string and a 0xff after it) of the warnings and
 * the error (message, hint; not a CUENV_E_BUG) that this activation
 * prints, kept in the shell variable __cuenv_said and handed back in
 * CUENV__SAID, so that the hook does not repeat itself. "" when there
 * was nothing to say.
 */
void activation_said(const struct activation *a, int rc,
		     const struct cuenv_err *err, struct buf *out);

/*
 * Append shell code for the hook: the changes from before to a->after,
 * then the hook's watch lists (__cuenv_watch, __cuenv_absent) and stamp
 * (__cuenv_stamp; "" when none could be made, NULL to leave the
 * shell's as it is). root's version folders are watched too, so
 * that registering a version elsewhere is noticed.
 */
void activation_emit(const struct activation *a, const struct envmap *before,
		     enum shell sh, const char *root, const char *stamp,
		     struct buf *out);
#endif
