/*
 * plan.h: what `cuenv install` fetches for a request, decided without
 * fetching anything.
 *
 * The archives of each release (the default component set, the runtime
 * libraries, or an explicit list), the options each kind of release
 * takes from those the toolkit was asked with, and the order of the
 * installs of one request. `cuenv lock` and `cuenv mirror` plan the same
 * way, so this module is light (no libcurl, OpenSSL or libarchive): the
 * prompt hook's binary links it.
 */
#ifndef CUENV_PLAN_H
#define CUENV_PLAN_H

#include <stddef.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "nvidia/compat.h"
#include "base/err.h"
#include "base/kit.h"
#include "needs/needs.h"

/* Which archives of a release: both zero means the default set. */
struct plan_opts {
	int runtime_only;	       /* only the shared libraries */
	const struct strv *components; /* explicit list, or NULL */
};

/*
 * --components LIST (NULL: not given) split at commas into comps, which
 * o->components then points at, and --runtime-only into o; command
 * (install, lock, mirror) names a bad component name (not lowercase
 * letters, digits and _) in the CUENV_E_USAGE.
 */
int plan_opts_parse(const char *command, const char *list, int runtime_only,
		    struct strv *comps, struct plan_opts *o,
		    struct cuenv_err *err);

/* CUENV_E_USAGE naming command when o has both options. */
int plan_opts_check(const char *command, const struct plan_opts *o,
		    struct cuenv_err *err);

/*
 * The archives of rel that o selects, pushed onto names (not twice): for
 * CUDA the default component set (runtime, CUPTI, nvcc, NVRTC, headers,
 * math libraries), the runtime libraries with runtime_only, or
 * o->components; for CUPTI its cuda_cupti; for cuDNN its one archive.
 * Defaults a redist release lacks are skipped. Returns CUENV_OK, or
 * CUENV_E_USAGE naming a component a redist release lacks (the hint
 * lists the ones it has).
 */
int plan_archives(const struct release *rel, const struct plan_opts *o,
		  struct strv *names, struct cuenv_err *err);

/*
 * The options a release of kind takes when the toolkit was asked with
 * asked: CUDA takes them as they are; cuDNN no component list (it keeps
 * runtime_only, which narrows what is extracted); CUPTI neither.
 */
struct plan_opts plan_opts_for(enum kit_kind kind,
			       const struct plan_opts *asked);

/* One install of a request: rel is a copy, with the kind and source it
 * is installed as (its parts stay borrowed). */
struct plan_step {
	struct release rel;
	struct plan_opts opts;
	int keep_partial; /* as install_opts.keep_partial */
};

/*
 * The installs of one request, in order (CUDA, then cuDNN, then CUPTI as
 * its own kind), into steps; returns how many (1 to KIT_KINDS). source
 * SRC_PYPI applies to every release of the request; another source was
 * already applied by catalog_resolve. A toolkit installed beside a cuDNN
 * or CUPTI with no explicit component list keeps what it has
 * (keep_partial): `install 12.4 --cudnn 9` beside a --runtime-only
 * toolkit adds the cuDNN rather than asking to replace the toolkit.
 */
size_t plan_steps(const struct catalog_choice *ch, int source,
		  const struct plan_opts *asked,
		  struct plan_step steps[KIT_KINDS]);

/*
 * The options for rel, read back from a lock as kind (lock_to_release),
 * when installing with `install --locked` and asked: a redist toolkit
 * (or the index's wheels of one) gets exactly the locked components (pushed onto names, which the
 * result then points at) unless asked narrows them, another toolkit
 * asked as it is; cuDNN and CUPTI neither a component list nor
 * runtime_only.
 */
struct plan_opts plan_locked_opts(const struct release *rel, enum kit_kind kind,
				  const struct plan_opts *asked,
				  struct strv *names);

/*
 * The cuDNN version of cat for CUDA major cuda_major that a minimum min
 * asks for (same major as min, at least min): the newest release of
 * exactly that version when the catalogue has it, else the newest later
 * one; NULL when none. Borrowed from cat.
 */
const char *plan_cudnn_at_least(const struct catalog *cat, unsigned cuda_major,
				const char *min);

/* ---- install --for ------------------------------------------------------- */

/*
 * Split arg, FRAMEWORK[==VERSION], into name (the framework as written:
 * tensorflow, torch, pytorch or jax) and *spec (its version, borrowed
 * from arg; NULL when none). Returns CUENV_OK, or CUENV_E_USAGE naming
 * arg (shortened to 64 characters) with a hint listing the frameworks.
 */
int plan_framework_arg(const char *arg, struct buf *name, const char **spec,
		       struct cuenv_err *err);

/*
 * The builds of framework name matching spec (NULL: any) that `install
 * --for` tries, in the order it tries them (compat_frameworks_order):
 * the rows of updated/frameworks.tsv, what `cuenv update --frameworks`
 * read from the package index, before those of shipped/frameworks.tsv.
 * updated may be NULL; a missing or unreadable table there is passed
 * over. Reads both files. Returns CUENV_OK (out may be empty) or
 * CUENV_E_MANIFEST for the shipped table.
 */
int plan_framework_rows(const char *shipped, const char *updated,
			const char *name, const char *spec,
			struct framework_builds *out, struct cuenv_err *err);

/*
 * The first of rows that cat can install, each resolved exactly as
 * install then resolves it (cudnn, when not NULL, instead of the row's;
 * source as catalog_resolve's). NULL when none can be: first then holds
 * why the first row cannot.
 */
const struct framework_build *
	plan_framework_pick(const struct framework_builds *rows,
			    const struct catalog *cat, const char *cudnn,
			    int source, struct cuenv_err *first);

/* What `install --for` and `mirror --for` take for FRAMEWORK[==VERSION]. */
struct framework_choice {
	struct framework_builds rows;	    /* the candidates, in order */
	const struct framework_build *best; /* among rows; NULL: none */
	struct cuenv_err first; /* why rows.v[0] cannot be, unless best */
};
#define FRAMEWORK_CHOICE_INIT                                                  \
	{                                                                      \
		{ NULL, 0 }, NULL, CUENV_ERR_INIT                              \
	}
void framework_choice_release(struct framework_choice *c);

/*
 * The build of framework name (plan_framework_arg's, and its spec or
 * NULL) that cat can install: the rows of plan_framework_rows(shipped,
 * updated, ...) tried by plan_framework_pick. Returns CUENV_OK with
 * c->best, or an error: the tables', CUENV_E_UNKNOWN for a release the
 * tables lack (hinting at shipped/frameworks.tsv), or why the first row
 * cannot be installed (c->rows kept, to tell which).
 */
int plan_framework_choose(const char *shipped, const char *updated,
			  const char *name, const char *spec,
			  const struct catalog *cat, const char *cudnn,
			  int source, struct framework_choice *c,
			  struct cuenv_err *err);

/*
 * What `install --for` and `mirror --for` say of c, which
 * plan_framework_choose returned rc for, one line each onto notes: the
 * build of the preferred row when none could be chosen; "skipped F V
 * with CUDA C[ and N more builds]: why" when the one chosen is not the
 * first; "F V was built and tested with CUDA C[ and cuDNN D]" for it.
 */
void plan_framework_notes(const struct framework_choice *c, int rc,
			  struct strv *notes);

/* c's chosen build, copied as out's one row; out untouched when none. */
void plan_framework_best(const struct framework_choice *c,
			 struct framework_builds *out);

/*
 * For `install --for` and `mirror --for`: the one row of frameworks.tsv
 * that arg ("tensorflow==2.6", "torch==2.1", "jax==0.4.20", or a bare
 * name for any release) picks: the first, in compat_frameworks_order's
 * order (newest release, its preferred row, newest CUDA), whose CUDA and
 * cuDNN (cudnn, when not NULL, in place of the row's) cat can install
 * from source (< 0: any), as catalog_resolve finds them
 * (plan_framework_choose). The shipped tables are found as envp says
 * (manifests_compat_env, for exe), the updated ones in
 * root/manifests/compat. out gets exactly that row (release it with
 * framework_builds_release); notes gets plan_framework_notes' lines:
 * which build was picked and why the preferred one was skipped. Returns
 * CUENV_OK, CUENV_E_USAGE for a bad arg, CUENV_E_MANIFEST when there are
 * no tables, or plan_framework_choose's error (a release the tables
 * lack; why the preferred build cannot be installed).
 */
int plan_framework_for(char *const *envp, const char *exe, const char *root,
		       const char *arg, const struct catalog *cat,
		       const char *cudnn, int source, struct strv *notes,
		       struct framework_builds *out, struct cuenv_err *err);

/*
 * --for's row from the framework's own wheel, whose metadata s holds
 * (wheel_requirement_scan read project's release version, file wheel):
 * the newest CUDA its metadata reports and, when it reports a cuDNN
 * minimum, the catalogue's cuDNN for that CUDA major that meets it (the
 * minimum itself when none does), noted "from the package index". Into
 * out (one row). CUENV_NO, with why, when the metadata says nothing of
 * CUDA.
 */
int plan_framework_from_wheel(const struct needs_scan *s, const char *project,
			      const char *version, const char *wheel,
			      const struct catalog *cat,
			      struct framework_builds *out, struct buf *why);

#endif
