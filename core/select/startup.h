/*
 * startup.h: what main decides before a command runs: cuenv's root and
 * the working directory the command sees.
 *
 * The environment comes in as main captured it (envp): core reads no
 * getenv().
 */
#ifndef CUENV_STARTUP_H
#define CUENV_STARTUP_H

#include "base/buf.h"
#include "base/err.h"

/*
 * cuenv's root into root (appended to; empty on entry): CUENV_ROOT when
 * set and not empty, else ~/.cuenv ($HOME), or on Windows
 * %LOCALAPPDATA%\cuenv, where programs keep a user's data. Trailing
 * separators are dropped (not the root's own: "/" stays "/"). Fails with
 * CUENV_E_USAGE when neither variable is set, when the root is not
 * absolute, when it holds what would split a PATH entry
 * (trust_check_listable: its folders go into PATH), or when it is a
 * folder the system shares, as written or as it resolves (links
 * followed, ".." taken off): a file system's root, a folder directly
 * beneath one (/usr, /home, /opt, /tmp, C:\Windows), or on POSIX one
 * directly beneath /usr or /var (/usr/local, /var/lib). cuenv makes its
 * folders in its root and gc removes what it made there, so the root
 * must be a folder of its own. Reads the file system (realpath), writes
 * nothing.
 */
int startup_root(char *const *envp, struct buf *root, struct cuenv_err *err);

/*
 * The logical working directory, as a heap string: pwd ($PWD) when it
 * names the working directory (so symlinked paths are kept), is
 * absolute and has no "/./" or "/../"; else getcwd's. When the working
 * directory was deleted (getcwd: ENOENT), a clean pwd as the shell last
 * knew it, and *gone is set: the .cuenv files still on that path decide,
 * so that a prompt in a deleted folder is not an error. NULL (errno set)
 * when there is none.
 */
char *startup_cwd(const char *pwd, int *gone);

#endif
