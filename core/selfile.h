/*
 * selfile.h: the selection files that `cuenv local` (./.cuenv) and
 * `cuenv global` ($CUENV_ROOT/version) rewrite, in the .cuenv format
 * (dotfile.h), keeping the file's comments and other lines.
 */
#ifndef CUENV_SELFILE_H
#define CUENV_SELFILE_H

#include "buf.h"
#include "dotfile.h"
#include "err.h"

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
 * always has. insecure_roots skips the trust checks (core/trust.h).
 * Returns CUENV_OK, or select_resolve's error (CUENV_E_NOT_INSTALLED).
 */
int selfile_check_installed(const struct dotfile *want, const char *root,
			    const char *system_roots, int insecure_roots,
			    struct cuenv_err *err);

/*
 * The file's new text into out: text with set written, or with unset,
 * cuenv's keys taken out. Selecting `system` also drops the cudnn and
 * cupti the file had, since cuenv adds nothing then.
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

#endif
