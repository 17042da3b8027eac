/*
 * trust.h: which folders activation may take directories from.
 *
 * Activation puts directories named by receipts into PATH,
 * LD_LIBRARY_PATH, LIBRARY_PATH and CPATH, so two things must hold before
 * it does:
 *
 *   - Every such directory is an absolute path without ':', ';' or a
 *     newline. "/opt/tool:kit/lib64" would split into "/opt/tool" and the
 *     relative "kit/lib64", which the loader searches from wherever a
 *     program runs and which undoing the activation can never find again;
 *     glibc's loader splits LD_LIBRARY_PATH at ';' too; and a newline
 *     breaks the line-based files `cuenv env` writes (GITHUB_ENV).
 *
 *   - What decides those directories (a root, its versions/ folders, a
 *     version folder and its receipt) can be changed by no one but the
 *     user and root, as ssh's StrictModes and sudo ask of their files:
 *     owned by the user or root, writable by neither group nor others.
 *     Otherwise another user could rewrite a receipt and have the next
 *     activation export their library folder. A caller may skip this
 *     check on the user's explicit word (CUENV_INSECURE_ROOTS=1).
 *
 * The checks cost a few stat() calls per activation.
 */
#ifndef CUENV_TRUST_H
#define CUENV_TRUST_H

#include <stdbool.h>
#include <sys/types.h>

#include "err.h"
#include "plat_owner.h"
#include "plat_path.h"

/*
 * Is path absolute and free of what would split a PATH-style list or a
 * line: ':', ';' and newlines on POSIX; ';' and newlines on Windows,
 * whose lists split at ';' and whose absolute paths hold a drive's ':'.
 * trust_path_listable takes the running system's rules.
 */
bool trust_path_listable(const char *path);
bool trust_path_listable_in(const struct plat_path_rules *r, const char *path);

/*
 * Fail with CUENV_E_USAGE unless trust_path_listable(path): the message
 * names what the path is (what: "CUENV_ROOT", "the toolkit", ...) and the
 * path, and says why it cannot be used.
 */
int trust_check_listable(const char *path, const char *what,
			 struct cuenv_err *err);

/*
 * Fail with CUENV_E_STORE when path (followed through links) is owned by
 * someone other than uid or root, or is writable by its group or others;
 * a path that does not exist passes (there is nothing in it to take). The
 * message names the path and what is wrong; the hint is the command that
 * fixes it, runnable as printed (chown to owner, the uid that should own
 * it, and/or chmod go-w).
 */
int trust_check_path(const char *path, plat_uid uid, plat_uid owner,
		     struct cuenv_err *err);

#endif
