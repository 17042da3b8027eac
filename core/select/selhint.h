/*
 * selhint.h: better hints for a selection whose CUDA is not installed.
 *
 * select_resolve() hints "install it: cuenv install SPEC" (its
 * SELECT_HINT_INSTALL) for a CUDA the store lacks. Two things can make
 * that advice wrong, and each replaces the hint: the store has the
 * version but activation skipped it (an incomplete or refused install),
 * or the catalogue cannot install it.
 */
#ifndef CUENV_SELHINT_H
#define CUENV_SELHINT_H

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"

/*
 * Whether err's hint is select_resolve's "install it" one; then the SPEC
 * it names (up to a comma or a blank) into spec when spec is not NULL.
 */
int selhint_spec(const struct cuenv_err *err, struct buf *spec);

/*
 * When the hint is that one and root/versions/cuda holds a folder the
 * SPEC names (12.4 names 12.4.1, not 12.40), the hint says that one is
 * in the store but cannot be used. Returns whether the hint changed.
 */
int selhint_skipped(const char *root, struct cuenv_err *err);

/*
 * When the hint is that one and cat has no CUDA release the SPEC
 * names, the hint says the catalogue cannot install it. Returns whether
 * the hint changed.
 */
int selhint_installable(const struct catalog *cat, struct cuenv_err *err);

/*
 * For a CUENV_E_NOT_INSTALLED that ends a command: selhint_skipped, then
 * unless quick (the prompt hook: reading the catalogue takes its time)
 * selhint_installable, the catalogue read as envp says
 * (manifests_catalog_env for root and exe; no change when it cannot be
 * read). Nothing when root is NULL (no store was set up).
 */
void selhint_not_installed(char *const *envp, const char *root, const char *exe,
			   int quick, struct cuenv_err *err);

#endif
