/*
 * lock.h: the `.cuenv.lock` file beside a `.cuenv`.
 *
 * It pins what `cuenv install` (with no SPEC) would install for the
 * `.cuenv`'s selection: every archive of every release, with NVIDIA's url
 * (never a mirror's), its sha256 and size, or, for a release installed
 * from the package index, each wheel as installed (source "pypi", the
 * index's url and sha256, from the receipt), so that `cuenv install --locked`
 * installs exactly that and `cuenv lock --check` can tell when the `.cuenv`
 * or the catalogue has moved on. It is JSON:
 *
 *	{ "schema": 1,
 *	  "selection": { "cuda": "12.4", "cudnn": "9.1", "cupti": null },
 *	  "options": { "runtime_only": false, "components": null },
 *	  "platform": "linux-x86_64",
 *	  "components": [ { "kind": "cuda", "source": "redist",
 *	      "release": "12.4.1", "cuda_major": 12, "name": "cuda_cudart",
 *	      "version": "12.4.127", "platform": "linux-x86_64",
 *	      "url": "https://developer.download.nvidia.com/...",
 *	      "sha256": "...", "size": 1234 }, ... ] }
 *
 * The file is data: every url must be on NVIDIA's host with no '..'
 * segment (a pypi part's: an http(s) url of a .whl), every sha256 64 lowercase hex digits; errors name the file.
 */
#ifndef CUENV_LOCK_H
#define CUENV_LOCK_H

#include <stdint.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"
#include "install/plan.h"
#include "select/select.h"
#include "store/store.h"

#define LOCK_NAME ".cuenv.lock"
#define LOCK_SCHEMA 1
/* Largest lock file read, and most components it may pin (a release
 * has about 40; three kinds). */
#define LOCK_MAX_BYTES (4u << 20)
#define LOCK_MAX_PARTS 512u

struct lock_part {
	enum kit_kind kind;
	enum source_kind source;
	char *release;	     /* the release's version ("12.4.1") */
	unsigned cuda_major; /* as struct release */
	char *name;	     /* component */
	char *version;	     /* the component's version */
	char *platform;
	char *url; /* on NVIDIA's host */
	char *sha256;
	uint64_t size;
};

struct lockfile {
	char *cuda, *cudnn, *cupti; /* the .cuenv's specs (cuda required) */
	int runtime_only;
	struct strv components; /* --components, or empty */
	char *platform;
	struct lock_part *parts;
	size_t nparts;
};

void lock_init(struct lockfile *lk);
void lock_release(struct lockfile *lk);

/*
 * Resolve the specs against cat as `cuenv install` does, from source
 * (< 0: any, as install with none chosen), plan each release's archives
 * from opts as install does (plan_opts_for) and fill lk. Returns CUENV_OK,
 * CUENV_E_NOT_INSTALLED (nothing in the catalogue) or CUENV_E_USAGE.
 */
int lock_build(struct lockfile *lk, const struct catalog *cat, const char *cuda,
	       const char *cudnn, const char *cupti, int source,
	       const struct plan_opts *opts, const char *platform,
	       struct cuenv_err *err);

/* The JSON text of lk (ends with a newline). */
void lock_format(const struct lockfile *lk, struct buf *out);

/* Parse a lock (name for messages); CUENV_OK or CUENV_E_MANIFEST. */
int lock_parse(const char *name, const char *text, size_t len,
	       struct lockfile *lk, struct cuenv_err *err);

/* Read the lock at path: CUENV_NO when absent, else as lock_parse. */
int lock_read(const char *path, struct lockfile *lk, struct cuenv_err *err);

/* The nearest LOCK_NAME walking up from cwd into out; CUENV_NO if none. */
int lock_find(const char *cwd, struct buf *out);

/* ---- cuenv lock ---------------------------------------------------------- */

/*
 * The lock file of sel, which must come from a .cuenv (a shell's `cuenv
 * use` is not the project's) and select a CUDA: "<the .cuenv>.lock" into
 * path. Else CUENV_NO with check (`lock --check`: a negative answer),
 * CUENV_E_USAGE without, saying so with a hint.
 */
int lock_path_for(const struct selection *sel, int check, struct buf *path,
		  struct cuenv_err *err);

/*
 * `lock --check`: the lock at path into have, and the options it was
 * made with into o (its components point into have). CUENV_NO, with a
 * hint, when there is none; lock_read's error for a bad one.
 */
int lock_read_for_check(const char *path, struct lockfile *have,
			struct plan_opts *o, struct cuenv_err *err);

/*
 * `lock --check`: CUENV_OK when have (read from path) matches want,
 * else CUENV_NO saying why, with a hint.
 */
int lock_check(const struct lockfile *have, const struct lockfile *want,
	       const char *path, struct cuenv_err *err);

/*
 * Compare a lock (have) with a fresh resolution (want). Returns 0 when
 * they match, else 1 with a one-line reason in why.
 */
int lock_compare(const struct lockfile *have, const struct lockfile *want,
		 struct buf *why);

/*
 * The trust rule for a lock, which comes with a clone and is outside
 * data: every part of lk checked against cat. The release and component
 * must be there; an archive of NVIDIA's must have the catalogue's url,
 * sha256 and version; a wheel must be the index's project for that
 * component and the catalogue's CUDA major, at the catalogue's version
 * (or a post-release), for the lock's platform, on index, the index in
 * force (NULL: a mirror's copy, whose url install makes itself):
 * pypi_pin_check. CUENV_E_UNKNOWN or CUENV_E_INTEGRITY naming the
 * component otherwise.
 */
int lock_verify(const struct lockfile *lk, const struct catalog *cat,
		const char *index, struct cuenv_err *err);

/*
 * The release of kind that lk pins, in rel (its strings and parts are
 * borrowed from lk except rel->parts, which the caller frees). CUENV_NO
 * when lk pins nothing of kind.
 */
int lock_to_release(const struct lockfile *lk, enum kit_kind kind,
		    struct release *rel);

/*
 * `install --locked`'s installs: for CUDA, cuDNN and CUPTI in turn, each
 * that lk pins (lock_to_release), its release with exactly the locked
 * components, unless asked narrows them (plan_locked_opts), into steps;
 * steps[i].opts points into names[i]. Returns how many; free them with
 * lock_steps_release (the releases' parts are the steps').
 */
size_t lock_steps(const struct lockfile *lk, const struct plan_opts *asked,
		  struct plan_step steps[KIT_KINDS],
		  struct strv names[KIT_KINDS]);
void lock_steps_release(struct plan_step *steps, struct strv *names, size_t n);

/* ---- `cuenv lock` ------------------------------------------------------ */

/*
 * `cuenv lock` (check 0) or `cuenv lock --check` (1), before the
 * catalogue is read: the selection of the nearest .cuenv under cwd
 * (root's; the environment's `cuenv use` is not the project's) into sel,
 * the lock's path beside it into path (lock_path_for), and with check
 * the lock there into have and the options it was made with into o
 * (lock_read_for_check). Returns the first failure of those.
 */
int lock_prepare(const char *cwd, const char *root, int check,
		 struct selection *sel, struct buf *path, struct lockfile *have,
		 struct plan_opts *o, struct cuenv_err *err);

/* Where `cuenv lock` looks besides the catalogue. */
struct lock_from {
	const char *root;  /* the store whose receipts count, or NULL */
	int source;	   /* --source (or CUENV_SOURCE, source =); < 0: any */
	const char *index; /* the index in force, for lock_verify */
};

/*
 * Then: the lock cat gives for sel and o on platform (lock_build from
 * from->source, then lock_take_installed from from->root). With
 * check, compared with have (lock_check): "PATH matches ORIGIN\n" onto
 * said when it does, CUENV_NO when it does not or when cat cannot give
 * one (err says why). Else written to path, replacing it atomically:
 * "wrote PATH (N components)\n" onto said; CUENV_E_STORE when it cannot
 * be written.
 */
int lock_settle(const struct selection *sel, const struct catalog *cat,
		const struct plan_opts *o, const char *platform,
		const struct lock_from *from, int check, const char *path,
		const struct lockfile *have, struct buf *said,
		struct cuenv_err *err);

#endif
