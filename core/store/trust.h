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
 *     activation export their library folder. The same holds for every
 *     folder on the way from / (StrictModes again): whoever may write a
 *     folder above a root may rename the root away and put a tree with
 *     their own nvcc in its place. Links on the way are followed as the
 *     system follows them, so both the folders that hold a link and
 *     those of its target are checked. A folder others may write passes
 *     only when it is sticky, as /tmp is, and the entry below it is the
 *     user's or root's: then no one else can rename that entry. A caller
 *     may skip this check on the user's explicit word
 *     (CUENV_INSECURE_ROOTS=1).
 *
 * The checks cost a few lstat() calls per folder per activation.
 */
#ifndef CUENV_TRUST_H
#define CUENV_TRUST_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/err.h"
#include "plat/plat_owner.h"
#include "plat/plat_path.h"

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
 * Fail with CUENV_E_STORE when path (followed through links), or any
 * folder on the way to it from /, is owned by someone other than uid or
 * root, or is writable by its group or others (a folder on the way may
 * be, when it is sticky and the entry below it is uid's or root's: a
 * link there owned by another user fails instead). A path that does not
 * exist passes (there is nothing in it to take). The message names the
 * folder or file at fault and what is wrong (and, for a folder on the
 * way, path); the hint is the command that fixes it, runnable as printed
 * (chown, -h for a link, to owner, the uid that should own it, and/or
 * chmod go-w). On Windows only path itself is checked: a drive's root
 * lets every user create folders in it.
 */
int trust_check_path(const char *path, plat_uid uid, plat_uid owner,
		     struct cuenv_err *err);

#endif
