/*
 * mirror_args.h: what `cuenv mirror` is asked, checked before anything
 * is read or fetched: the folder to write, the --source word, the
 * --platform list, the upstream and the versions; and the run's cache
 * and command line. Each failure is CUENV_E_USAGE or CUENV_E_STORE with
 * the message and hint the command prints.
 */
#ifndef CUENV_MIRROR_ARGS_H
#define CUENV_MIRROR_ARGS_H

#include "base/buf.h"
#include "base/err.h"
#include "net/fetch.h"
#include "install/plan.h"

/* What the words and options of `cuenv mirror DIR [SPEC...]` ask for. */
struct mirror_asked {
	char *const *specs; /* the SPECs, borrowed */
	int nspecs;
	struct strv fors; /* --for, each */
	const char *cudnn, *cupti;
	int source; /* enum source_kind, or -1 */
	int quiet;
	struct strv plats;	    /* --platform's, split at commas */
	const struct plan_opts *io; /* --components, --runtime-only */
};

/*
 * dir can be the mirror: missing (it is created), or a folder this user
 * can write. Returns CUENV_OK; CUENV_E_USAGE for ""; CUENV_E_STORE for
 * something else there or a folder that cannot be written. Reads dir's
 * status only.
 */
int mirror_check_dir(const char *dir, struct cuenv_err *err);

/* --source word: redist, runfile or pypi (enum source_kind) into
 * *source. Returns CUENV_OK or CUENV_E_USAGE. */
int mirror_source_parse(const char *word, int *source, struct cuenv_err *err);

/* Each of plats a platform NVIDIA names; none given: this machine's is
 * pushed. Returns CUENV_OK or CUENV_E_USAGE naming the first unknown. */
int mirror_platforms_check(struct strv *plats, struct cuenv_err *err);

/*
 * q, and the upstream to fetch from (*upstream: --mirror or CUENV_MIRROR;
 * an empty one becomes NULL, an http:// or file:// one is allowed in
 * fo), checked in this order before anything is read or fetched: a SPEC
 * or --for given (else a hint naming dir), the components
 * (plan_opts_check), the platforms (mirror_platforms_check: none given
 * is this machine's), the upstream, each SPEC, --cudnn and --cupti a
 * version, and dir (mirror_check_dir).
 */
int mirror_args_check(struct mirror_asked *q, const char **upstream,
		      struct fetch_opts *fo, const char *dir,
		      struct cuenv_err *err);

/* How the run was asked for, for README.txt: "cuenv" and argv's words,
 * each after a space, onto out. */
void mirror_args_command(int argc, char *const *argv, struct buf *out);

/*
 * The download cache a run copies archives from: root's cache folder
 * into path, returned, when it is a folder and no_cache is 0; else NULL.
 */
const char *mirror_args_cache(const char *root, int no_cache, struct buf *path);

#endif
