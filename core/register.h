/*
 * register.h: `cuenv add`'s decisions about a toolkit or cuDNN found on
 * disk (detect.h): whether its folders can go on a PATH-like list,
 * whether the store already has it (the same registration, or a
 * conflicting one), and the line that says it was registered; and
 * `cuenv remove`'s and `cuenv uninstall`'s: each takes out of the store
 * only what it may (remove what add registered, uninstall what cuenv
 * installed).
 */
#ifndef CUENV_REGISTER_H
#define CUENV_REGISTER_H

#include "buf.h"
#include "err.h"
#include "store.h"

/*
 * Every folder of in (its prefix, bin, lib, include and CUPTI folders)
 * goes into a PATH-like variable: trust_check_listable's error for the
 * first that cannot (one holding the list separator).
 */
int register_listable(const struct install *in, struct cuenv_err *err);

/*
 * Register in in st (store_register), unless the store has its name: the
 * same registration (from the same prefix) is CUENV_NO, nothing to do;
 * another one, or one cuenv installed, is CUENV_E_CONFLICT with a hint.
 * Caller holds the lock.
 */
int register_record(struct store *st, struct install *in,
		    struct cuenv_err *err);

/* "cuda 12.4 is already registered from PREFIX\n", for CUENV_NO above. */
void register_already(const struct install *in, struct buf *out);

/*
 * "registered cuda 12.4.1 from PREFIX (CUPTI 12.4.127)\n", "registered
 * cudnn 9.1.0 for CUDA 12 from PREFIX\n".
 */
void register_describe(const struct install *in, struct buf *out);

/*
 * `cuenv remove`: unregister in (one of st's), leaving its files in
 * place; for a CUDA, also the cuDNNs registered from its prefix (found
 * inside it by add). A line for each goes onto out ("removed cuda 12.4.1
 * (PREFIX, left in place)\n", "removed cudnn V (inside it)\n"), as it
 * goes. CUENV_E_CONFLICT, with the uninstall command as hint, for an
 * install cuenv made; store_list's and store_delete's errors. Caller
 * holds the lock.
 */
int register_remove(struct store *st, const struct install *in, struct buf *out,
		    struct cuenv_err *err);

/*
 * `cuenv uninstall`: delete in (one of st's) and its files, with a line
 * onto out ("uninstalled cuda 12.4.1\n"). CUENV_E_CONFLICT, with the
 * remove command as hint, for a registered install (cuenv does not delete
 * files it did not install); store_delete's errors. Caller holds the lock.
 */
int register_uninstall(struct store *st, const struct install *in,
		       struct buf *out, struct cuenv_err *err);

#endif
