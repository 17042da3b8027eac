/*
 * manifests.h: where cuenv reads its catalogue and compatibility tables.
 *
 * The shipped tables sit relative to the binary itself (so that an
 * installed tree can be moved and never reads another copy's), or in
 * the folder CUENV_MANIFESTS names instead; what `cuenv update` fetched
 * since is read from $CUENV_ROOT/manifests over either.
 */
#ifndef CUENV_MANIFESTS_H
#define CUENV_MANIFESTS_H

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"

/*
 * The shipped manifests folder for the binary exe: the first folder of
 * ../share/cuenv/manifests, ../../share/cuenv/manifests and manifests
 * beside it that exists, into out. Returns 0, or -1 (out empty) when
 * none does.
 */
int manifests_data_dir(const char *exe, struct buf *out);

/*
 * The platform the catalogue is read for: p (CUENV_PLATFORM) when set
 * and not empty, else this machine's. CUENV_E_USAGE for a platform
 * cuenv does not know, with a hint listing them.
 */
int manifests_platform(const char *p, const char **platform,
		       struct cuenv_err *err);

/*
 * Load into cat the catalogue for platform: from only (CUENV_MANIFESTS)
 * when set and not empty (CUENV_E_MANIFEST when it is not a folder),
 * else from data_dir (NULL: none found); then from root/manifests when
 * it exists. CUENV_E_MANIFEST naming exe when none of them was there.
 */
int manifests_catalog(struct catalog *cat, const char *only,
		      const char *data_dir, const char *root,
		      const char *platform, const char *exe,
		      struct cuenv_err *err);

/*
 * The compatibility tables' folder into out: only/compat (CUENV_MANIFESTS
 * set and not empty) or data_dir/compat. CUENV_E_MANIFEST naming exe
 * when there is neither, or naming the folder when it does not exist.
 */
int manifests_compat_dir(const char *only, const char *data_dir,
			 const char *exe, struct buf *out,
			 struct cuenv_err *err);

/* ---- as cuenv's environment says ---------------------------------------- */

/*
 * The catalogue for platform ("linux-sbsa", ...; NULL: CUENV_PLATFORM's,
 * by manifests_platform) into cat, as envp says: manifests_catalog from
 * CUENV_MANIFESTS, else the shipped folder of exe (manifests_data_dir),
 * then root's.
 */
int manifests_catalog_env(char *const *envp, const char *root, const char *exe,
			  const char *platform, struct catalog *cat,
			  struct cuenv_err *err);

/*
 * The compatibility tables' folder (core/nvidia/compat.h) into out, as envp
 * says: manifests_compat_dir from CUENV_MANIFESTS, else the shipped
 * folder of exe.
 */
int manifests_compat_env(char *const *envp, const char *exe, struct buf *out,
			 struct cuenv_err *err);

/*
 * One of cuenv's own helper programs (cuenv-net, cuenv-probe; on
 * Windows NAME.exe): name in CUENV_LIBEXEC (from envp), beside exe (the
 * build tree), or in its ../libexec/cuenv (installed); the first
 * executable one as a heap path, or NULL. Each path looked at is added
 * to tried, ", "-separated, for the message that says it is missing.
 */
char *manifests_helper(char *const *envp, const char *exe, const char *name,
		       struct buf *tried);

#endif
