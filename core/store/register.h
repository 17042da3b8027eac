/*
 * register.h: `cuenv add`'s decisions about a toolkit or cuDNN found on
 * disk (detect.h): whether its folders can go on a PATH-like list,
 * whether the store already has it (the same registration, or a
 * conflicting one), and the line that says it was registered; the
 * whole of `add cuda|cudnn PATH` and `add --discover` on top of them;
 * and `cuenv remove`'s and `cuenv uninstall`'s: each takes out of the
 * store only what it may (remove what add registered, uninstall what
 * cuenv installed).
 */
#ifndef CUENV_REGISTER_H
#define CUENV_REGISTER_H

#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

/*
 * Every folder of in (its prefix, bin, lib, include and CUPTI folders)
 * goes into a PATH-like variable: trust_check_listable's error for the
 * first that cannot (one holding the list separator).
 */
int register_listable(const struct store_version *in, struct cuenv_err *err);

/*
 * Register in in st (store_register), unless the store has its name: the
 * same registration (from the same prefix) is CUENV_NO, nothing to do;
 * another one, or one cuenv installed, is CUENV_E_CONFLICT with a hint.
 * Caller holds the lock.
 */
int register_record(struct store *st, struct store_version *in,
		    struct cuenv_err *err);

/* "cuda 12.4 is already registered from PREFIX\n", for CUENV_NO above. */
void register_already(const struct store_version *in, struct buf *out);

/*
 * "registered cuda 12.4.1 from PREFIX (CUPTI 12.4.127)\n", "registered
 * cudnn 9.1.0 for CUDA 12 from PREFIX\n".
 */
void register_describe(const struct store_version *in, struct buf *out);

/*
 * `cuenv remove`: unregister in (one of st's), leaving its files in
 * place; for a CUDA, also the cuDNNs registered from its prefix (found
 * inside it by add). A line for each goes onto out ("removed cuda 12.4.1
 * (PREFIX, left in place)\n", "removed cudnn V (inside it)\n"), as it
 * goes. CUENV_E_CONFLICT, with the uninstall command as hint, for an
 * install cuenv made; store_list's and store_delete's errors. Caller
 * holds the lock.
 */
int register_remove(struct store *st, const struct store_version *in,
		    struct buf *out, struct cuenv_err *err);

/*
 * `cuenv uninstall`: delete in (one of st's) and its files, with a line
 * onto out ("uninstalled cuda 12.4.1\n"). CUENV_E_CONFLICT, with the
 * remove command as hint, for a registered install (cuenv does not delete
 * files it did not install); store_delete's errors. Caller holds the lock.
 */
int register_uninstall(struct store *st, const struct store_version *in,
		       struct buf *out, struct cuenv_err *err);

/* ---- cuenv add ----------------------------------------------------------- */

/*
 * What `cuenv add` works in, and where it says what it did: said gets
 * text for stdout (register_describe's and register_already's lines),
 * warn a warning's text for stderr, each as it happens.
 */
struct register_add {
	struct store *st;  /* open, its lock held */
	char *const *envp; /* CUENV_LD_SO_CONF and CUENV_LD_SO_CACHE name
			       the loader's files (as for doctor), and
			       CUDA_PATH_V*, CUDA_PATH, CUDA_HOME the folders
			       --discover registers */
	void (*said)(void *ctx, const char *text);
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

/*
 * The KIND word of `cuenv add KIND PATH` into *kind, and --as (as, or
 * NULL) and --cuda (cuda_major, 0: not given) checked against it: a
 * word that is not cuda or cudnn, an as that is not a version, or
 * --cuda with cuda is CUENV_E_USAGE.
 */
int register_add_kind(const char *word, const char *as, unsigned cuda_major,
		      enum kit_kind *kind, struct cuenv_err *err);

/*
 * Detect the toolkit (kind KIT_CUDA) or cuDNN at dir (detect.h; as: the
 * version instead of the detected one; cuda_major, cuDNN only: the CUDA
 * it was built for, 0: detected), decide how activation exposes it from
 * the folders the loader searches (ldsearch.h), check its folders and
 * record it, and a cuDNN found inside a toolkit too. Detection's
 * warnings go to warn, then one line each to said ("registered ...", or
 * that it was already registered, which is no error). Returns CUENV_OK
 * or detection's, register_listable's or register_record's code.
 */
int register_add(const struct register_add *ra, enum kit_kind kind,
		 const char *dir, const char *as, unsigned cuda_major,
		 struct cuenv_err *err);

/*
 * `cuenv add --discover`: register_add each toolkit the environment
 * names (detect_env_candidates). One that is not a toolkit, or cannot
 * be read, is a warning ("CUDA_PATH=DIR: why"); any other failure stops
 * there with its code. CUENV_NO, with a hint, when none could be
 * registered (already registered counts as registered).
 */
int register_discover(const struct register_add *ra, struct cuenv_err *err);

#endif
