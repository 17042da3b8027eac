/*
 * manifests.c: where cuenv reads its catalogue and compatibility tables
 * (see the header).
 */
#include "nvidia/manifests.h"

#include <stdlib.h>

#include "plat/envmap.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "base/xalloc.h"

/* A folder (through links), as store_is_dir says, without the store. */
static int is_dir(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type == PLAT_F_DIR;
}

int manifests_data_dir(const char *exe, struct buf *out)
{
	static const char *const rel[] = {
		"../share/cuenv/manifests",    /* PREFIX/bin/cuenv */
		"../../share/cuenv/manifests", /* PREFIX/libexec/cuenv/... */
		"manifests", /* ./cuenv in the source tree; the build folders
				hold a link to it */
	};
	char *here = exe ? plat_path_parent(plat_path_native(), exe) : NULL;
	int found = 0;

	buf_reset(out);
	for (size_t i = 0; here && !found && i < sizeof(rel) / sizeof(*rel);
	     i++) {
		buf_reset(out);
		buf_path(out, here, rel[i]);
		found = is_dir(out->data);
	}
	if (!found)
		buf_reset(out);
	free(here);
	return found ? 0 : -1;
}

int manifests_platform(const char *p, const char **platform,
		       struct cuenv_err *err)
{
	if (!p || !*p) {
		*platform = catalog_platform();
		return CUENV_OK;
	}
	if (catalog_platform_known(p)) {
		*platform = p;
		return CUENV_OK;
	}
	cuenv_fail_shown(err, CUENV_E_USAGE, p, 64,
			 "CUENV_PLATFORM: unknown platform '%s'");
	return cuenv_hint(err, "platforms: linux-x86_64, linux-sbsa, "
			       "linux-aarch64, linux-ppc64le, windows-x86_64");
}

int manifests_catalog(struct catalog *cat, const char *only,
		      const char *data_dir, const char *root,
		      const char *platform, const char *exe,
		      struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	int rc = CUENV_OK, found = 0;

	if (only && *only) {
		/* Instead of the shipped one; what update fetched still counts */
		if (!is_dir(only))
			return cuenv_fail(err, CUENV_E_MANIFEST,
					  "CUENV_MANIFESTS: '%s' is not a "
					  "folder",
					  only);
		found = 1;
		rc = catalog_load(cat, only, platform, err);
	} else if (data_dir) {
		found = 1;
		rc = catalog_load(cat, data_dir, platform, err);
	}
	/* What `cuenv update` fetched since. */
	buf_path(&dir, root, "manifests");
	if (!rc && is_dir(dir.data)) {
		found = 1;
		rc = catalog_load(cat, dir.data, platform, err);
	}
	if (!rc && !found) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"no catalogue found next to '%s'", exe);
		cuenv_hint(err, "install cuenv with make install, or set "
				"CUENV_MANIFESTS");
	}
	buf_release(&dir);
	return rc;
}

int manifests_compat_dir(const char *only, const char *data_dir,
			 const char *exe, struct buf *out,
			 struct cuenv_err *err)
{
	buf_reset(out);
	if (only && *only) {
		buf_adds(out, only);
	} else if (data_dir) {
		buf_adds(out, data_dir);
	} else {
		cuenv_fail(err, CUENV_E_MANIFEST,
			   "no compatibility tables found next to '%s'", exe);
		return cuenv_hint(err, "install cuenv with make install, or "
				       "set CUENV_MANIFESTS");
	}
	buf_adds(out, "/compat");
	if (!is_dir(out->data))
		return cuenv_fail(err, CUENV_E_MANIFEST, "no folder '%s'",
				  out->data);
	return CUENV_OK;
}

/* ---- as cuenv's environment says ---------------------------------------- */

int manifests_catalog_env(char *const *envp, const char *root, const char *exe,
			  const char *platform, struct catalog *cat,
			  struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	int rc = CUENV_OK;

	if (!platform)
		rc = manifests_platform(env_get(envp, "CUENV_PLATFORM"),
					&platform, err);
	if (!rc)
		rc = manifests_catalog(cat, env_get(envp, "CUENV_MANIFESTS"),
				       manifests_data_dir(exe, &dir) ? NULL
								     : dir.data,
				       root, platform, exe, err);
	buf_release(&dir);
	return rc;
}

int manifests_compat_env(char *const *envp, const char *exe, struct buf *out,
			 struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	int rc = manifests_compat_dir(env_get(envp, "CUENV_MANIFESTS"),
				      manifests_data_dir(exe, &dir) ? NULL
								    : dir.data,
				      exe, out, err);

	buf_release(&dir);
	return rc;
}

char *manifests_helper(char *const *envp, const char *exe, const char *name,
		       struct buf *tried)
{
	const struct plat_path_rules *rules = plat_path_native();
	char *here = exe ? plat_path_parent(rules, exe) : NULL;
	const char *where[3] = { env_get(envp, "CUENV_LIBEXEC"), here, NULL };
	struct buf libexec = BUF_INIT, p = BUF_INIT;
	char *found = NULL;

	if (here) {
		buf_path(&libexec, here, "../libexec/cuenv");
		where[2] = libexec.data;
	}
	for (int i = 0; i < 3 && !found; i++) {
		if (!where[i] || !*where[i])
			continue;
		buf_reset(&p);
		buf_path(&p, where[i], name);
		/* Windows' programs are NAME.exe. */
		if (rules->style == PLAT_PATH_WINDOWS)
			buf_adds(&p, ".exe");
		if (plat_can_exec(p.data))
			found = xstrdup(p.data);
		buf_adds(tried, tried->len ? ", " : "");
		buf_adds(tried, p.data);
	}
	free(here);
	buf_release(&libexec);
	buf_release(&p);
	return found;
}
