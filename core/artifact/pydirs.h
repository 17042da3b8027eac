/*
 * pydirs.h: the folders a Python searches for packages, for `cuenv
 * doctor`'s pip and conda checks (which CUDA wheels it would import).
 *
 * The interpreter itself is asked first (sys.path, with the user's
 * environment, so that a virtualenv, PYTHONPATH or the user's site count
 * as they do for the user's programs); a virtualenv's site-packages are
 * added in case its python did not answer. Best effort throughout: what
 * cannot be found adds nothing.
 */
#ifndef CUENV_PYDIRS_H
#define CUENV_PYDIRS_H

#include "base/buf.h"

/* How long python may take, and how much it may say. */
#define PYDIRS_TIMEOUT_MS 10000
#define PYDIRS_OUT_MAX (1u << 20)

/*
 * Run python (a path) with envp and push each absolute folder of its
 * sys.path onto dirs, once. Nothing on any failure (not started,
 * non-zero exit, killed after PYDIRS_TIMEOUT_MS or for saying more than
 * PYDIRS_OUT_MAX).
 */
void pydirs_ask(const char *python, char *const *envp, struct strv *dirs);

/*
 * pydirs_ask(python), then pydirs_venv of the virtualenv python is in
 * (pydirs_venv_of): the folders whose packages python imports, with its
 * venv's even when python does not answer.
 */
void pydirs_sites(const char *python, char *const *envp, struct strv *dirs);

/*
 * PREFIX (malloc'd) when python is PREFIX/bin/NAME or
 * PREFIX\Scripts\NAME and PREFIX holds pyvenv.cfg: the virtualenv it
 * runs in. NULL otherwise.
 */
char *pydirs_venv_of(const char *python);

/*
 * Push onto out each NAME.dist-info/METADATA of site whose distribution
 * installed one of the folders site/TOP for TOP in tops: its
 * top_level.txt names TOP, or (wheels without one) its RECORD lists a
 * file under TOP/. In name order, each once; each dist-info is read
 * once whatever the number of tops. A top_level.txt or RECORD over
 * PYDIRS_RECORD_MAX bytes is not read.
 */
#define PYDIRS_RECORD_MAX (16u << 20)
void pydirs_dists_of(const char *site, const struct strv *tops,
		     struct strv *out);

/* python's "3.10" (malloc'd), or NULL when it does not answer so. */
char *pydirs_version(const char *python, char *const *envp);

/* Push each folder VENV/lib/pythonX.Y/site-packages (POSIX) and
 * VENV/Lib/site-packages (Windows) there is onto dirs, once, in name
 * order, each followed by the folders its .pth files name
 * (pydirs_pth); venv NULL or not absolute: nothing. */
void pydirs_venv(const char *venv, struct strv *dirs);

/*
 * Push the folders site's .pth files name onto dirs, once each, as
 * site.py adds them to sys.path: the files in name order, a line a
 * folder (relative ones to site), blank lines, '#' comments and
 * "import" lines (code site.py runs: what it adds cannot be known
 * without running it) skipped, folders that do not exist left out. A
 * .pth file over PYDIRS_PTH_MAX bytes is not read.
 */
#define PYDIRS_PTH_MAX (1u << 20)
void pydirs_pth(const char *site, struct strv *dirs);

#endif
