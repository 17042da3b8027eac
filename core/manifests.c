/*
 * manifests.c: where cuenv reads its catalogue and compatibility tables
 * (see the header).
 */
#include "manifests.h"

#include <stdlib.h>

#include "plat_path.h"
#include "store.h"

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
		found = store_is_dir(out->data);
	}
	if (!found)
		buf_reset(out);
	free(here);
	return found ? 0 : -1;
}

int manifests_platform(const char *p, const char **platform,
		       struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	if (!p || !*p) {
		*platform = catalog_platform();
		return CUENV_OK;
	}
	if (catalog_platform_known(p)) {
		*platform = p;
		return CUENV_OK;
	}
	buf_add_display(&shown, p, 64);
	cuenv_fail(err, CUENV_E_USAGE, "CUENV_PLATFORM: unknown platform '%s'",
		   shown.data);
	buf_release(&shown);
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
		if (!store_is_dir(only))
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
	if (!rc && store_is_dir(dir.data)) {
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
	if (!store_is_dir(out->data))
		return cuenv_fail(err, CUENV_E_MANIFEST, "no folder '%s'",
				  out->data);
	return CUENV_OK;
}
