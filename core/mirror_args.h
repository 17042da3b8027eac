/*
 * mirror_args.h: what `cuenv mirror` is asked, checked before anything
 * is read or fetched: the folder to write, the --source word and the
 * --platform list. Each failure is CUENV_E_USAGE or CUENV_E_STORE with
 * the message and hint the command prints.
 */
#ifndef CUENV_MIRROR_ARGS_H
#define CUENV_MIRROR_ARGS_H

#include "buf.h"
#include "err.h"

/*
 * dir can be the mirror: missing (it is created), or a folder this user
 * can write. Returns CUENV_OK; CUENV_E_USAGE for ""; CUENV_E_STORE for
 * something else there or a folder that cannot be written. Reads dir's
 * status only.
 */
int mirror_check_dir(const char *dir, struct cuenv_err *err);

/* --source word: redist or runfile (enum source_kind) into *source; pypi
 * has mirrors of its own. Returns CUENV_OK or CUENV_E_USAGE. */
int mirror_source_parse(const char *word, int *source, struct cuenv_err *err);

/* Each of plats a platform NVIDIA names; none given: this machine's is
 * pushed. Returns CUENV_OK or CUENV_E_USAGE naming the first unknown. */
int mirror_platforms_check(struct strv *plats, struct cuenv_err *err);

#endif
