/*
 * selhint.c: better hints for a selection whose CUDA is not installed
 * (see the header).
 */
#include "select/selhint.h"

#include <string.h>

#include "plat/plat_path.h"
#include "nvidia/manifests.h"
#include "plat/plat_fs.h"
#include "select/select.h"

int selhint_spec(const struct cuenv_err *err, struct buf *spec)
{
	const size_t n = strlen(SELECT_HINT_INSTALL);
	const char *v;

	if (!err->hint.data || strncmp(err->hint.data, SELECT_HINT_INSTALL, n))
		return 0;
	v = err->hint.data + n;
	if (spec) {
		buf_reset(spec);
		buf_add(spec, v, strcspn(v, ", "));
	}
	return 1;
}

int selhint_skipped(const char *root, struct cuenv_err *err)
{
	struct buf spec = BUF_INIT, dir = BUF_INIT;
	struct plat_dir *d = NULL;
	const char *w;
	int changed = 0;

	if (root && selhint_spec(err, &spec)) {
		buf_path(&dir, root, "versions/cuda");
		d = plat_opendir(dir.data);
	}
	while (d && !changed && (w = plat_readdir(d))) {
		/* 12.4 names 12.4.1; 12.4 does not name 12.40 */
		if (strncmp(w, spec.data, spec.len) ||
		    (w[spec.len] && w[spec.len] != '.'))
			continue;
		buf_reset(&err->hint);
		buf_printf(&err->hint,
			   "cuda %s is in the store (%s/%s), but cannot be "
			   "used; see: cuenv versions",
			   w, dir.data, w);
		changed = 1;
	}
	if (d)
		plat_closedir(d);
	buf_release(&dir);
	buf_release(&spec);
	return changed;
}

int selhint_installable(const struct catalog *cat, struct cuenv_err *err)
{
	struct buf v = BUF_INIT;
	int changed = 0;

	if (selhint_spec(err, &v) &&
	    !catalog_find(cat, KIT_CUDA, v.data, 0, -1)) {
		buf_reset(&err->hint);
		buf_printf(&err->hint,
			   "cuda %s is not in cuenv's catalogue (cuenv "
			   "list-remote cuda lists what it can install): "
			   "register a toolkit you have (cuenv add cuda PATH), "
			   "or choose one of those installed",
			   v.data);
		changed = 1;
	}
	buf_release(&v);
	return changed;
}

void selhint_not_installed(char *const *envp, const char *root, const char *exe,
			   int quick, struct cuenv_err *err)
{
	struct catalog cat = { 0 };
	struct cuenv_err e = CUENV_ERR_INIT;

	selhint_skipped(root, err);
	if (!quick && root && selhint_spec(err, NULL) &&
	    !manifests_catalog_env(envp, root, exe, NULL, &cat, &e))
		selhint_installable(&cat, err);
	catalog_release(&cat);
	err_release(&e);
}
