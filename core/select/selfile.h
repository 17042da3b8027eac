/*
 * selfile.h: the selection files that `cuenv local` (./.cuenv) and
 * `cuenv global` ($CUENV_ROOT/version) rewrite, in the .cuenv format
 * (dotfile.h), keeping the file's comments and other lines.
 */
#ifndef CUENV_SELFILE_H
#define CUENV_SELFILE_H

#include "base/buf.h"
#include "select/dotfile.h"
#include "base/err.h"

/*
 * path's text into text (empty when there is no such file) and what it
 * selects into old. Never rewrite a file that cannot be read: a folder
 * is CUENV_E_STORE, an unreadable or bad file its error, each with a
 * hint.
 */
int selfile_read(const char *path, struct buf *text, struct dotfile *old,
		 struct cuenv_err *err);

/*
 * Whether the store at root (and system_roots, a ':'-separated list or
 * NULL) has what want selects, as activation would resolve it; `system`
 * always has, and so has a want that names no CUDA. insecure_roots skips
 * the trust checks (core/store/trust.h). Returns CUENV_OK, or select_resolve's
 * error (CUENV_E_NOT_INSTALLED).
 */
int selfile_check_installed(const struct dotfile *want, const char *root,
			    const char *system_roots, int insecure_roots,
			    struct cuenv_err *err);

/*
 * The file's new text into out: text with set written, or with unset,
 * cuenv's keys taken out. Selecting `system` changes the cuda line alone:
 * the file's other lines stay (unused while cuda is the system's).
 */
void selfile_rewrite(const struct buf *text, const struct dotfile *set,
		     int unset, struct buf *out);

/*
 * What `cuenv local` and `cuenv global` with no SPEC print of path, into
 * out: "CUDA[ + cudnn V][ + cupti from V][, isolated] (PATH)\n", or
 * "none (no PATH)\n" and CUENV_NO when there is no such file or it
 * selects nothing; a file that cannot be read is its error.
 */
int selfile_show(const char *path, struct buf *out, struct cuenv_err *err);

/*
 * What the file will select once set is written over old: set, with
 * the cudnn and cupti old had where set gives none (borrowed from both).
 */
struct dotfile selfile_want(const struct dotfile *set,
			    const struct dotfile *old);

/* Write text to path, or remove path when text is empty. */
int selfile_write(const char *path, const struct buf *text,
		  struct cuenv_err *err);

/* What one `cuenv local` or `cuenv global` asks of its file. */
struct selfile_request {
	const char *command; /* "local", "global": named in usage errors */
	const char *path;    /* ./.cuenv, or the store's default */
	/* --cudnn, --cupti, --isolate/--no-isolate (borrowed; no cuda) */
	const struct dotfile *set;
	int any;	  /* any of the selection options was given */
	int unset, force; /* --unset, --force */
	int nargs;	  /* how many SPECs (main allows 0 or 1) */
	const char *spec; /* the SPEC when nargs is 1 */
	const char *root; /* the store whose installs are checked */
	/* the environment: CUENV_SYSTEM_ROOTS, CUENV_INSECURE_ROOTS=1 */
	char *const *envp;
};

/*
 * Do what r asks, as `cuenv local` and `cuenv global` do. With no option
 * and no SPEC, show the file into out (selfile_show: CUENV_NO when it
 * selects nothing). Else write SPEC and the options over the file, or
 * with --unset take cuenv's keys out of it (removing a file left with
 * nothing), keeping its other lines; unless --unset or --force, what the
 * file will select must be installed (selfile_check_installed, whose
 * hint then offers --force). note gets what to tell the user ("wrote
 * PATH", "removed cuenv's keys from PATH", "removed PATH"). Usage errors
 * (CUENV_E_USAGE naming r->command): a SPEC or --cudnn/--cupti with
 * --unset, options without a SPEC, a bad SPEC (version_check). Else
 * selfile_read's, the check's and selfile_write's errors.
 */
int selfile_update(const struct selfile_request *r, struct buf *out,
		   struct buf *note, struct cuenv_err *err);

#endif
