/*
 * mirror_args.c: what `cuenv mirror` is asked, checked (see
 * mirror_args.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvidia/catalog.h"
#include "plat/plat_path.h"
#include "install/install_request.h"
#include "install/mirror_args.h"
#include "store/store.h"
#include "base/version.h"

int mirror_check_dir(const char *dir, struct cuenv_err *err)
{
	struct stat st;

	if (!*dir)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "mirror: DIR must not be empty");
	if (stat(dir, &st)) {
		if (errno == ENOENT)
			return CUENV_OK; /* created */
		return cuenv_fail(err, CUENV_E_STORE, "cannot use '%s': %s",
				  dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is not a folder",
				  dir);
	if (access(dir, W_OK | X_OK))
		return cuenv_fail(err, CUENV_E_STORE,
				  "cannot write to '%s': %s", dir,
				  strerror(errno));
	return CUENV_OK;
}

/* --source: redist or runfile (pypi has its own mirrors). */
int mirror_source_parse(const char *word, int *source, struct cuenv_err *err)
{
	enum source_kind sk;

	if (source_parse(word, &sk) ||
	    (sk != SRC_REDIST && sk != SRC_RUNFILE && sk != SRC_PYPI)) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, word, 64);
		cuenv_fail(err, CUENV_E_USAGE, "mirror: unknown source '%s'",
			   shown.data);
		cuenv_hint(err, "sources: redist, runfile, pypi");
		buf_release(&shown);
		return err->rc;
	}
	*source = (int)sk;
	return CUENV_OK;
}

/* Each of plats one NVIDIA names; none given: this machine's. */
int mirror_platforms_check(struct strv *plats, struct cuenv_err *err)
{
	for (size_t i = 0; i < plats->n; i++) {
		if (!catalog_platform_known(plats->v[i])) {
			struct buf shown = BUF_INIT;

			buf_add_display(&shown, plats->v[i], 64);
			cuenv_fail(err, CUENV_E_USAGE,
				   "mirror: unknown platform '%s'", shown.data);
			cuenv_hint(err, "platforms: linux-x86_64, linux-sbsa, "
					"linux-aarch64, linux-ppc64le, "
					"windows-x86_64");
			buf_release(&shown);
			return err->rc;
		}
	}
	if (!plats->n)
		strv_push(plats, catalog_platform());
	return CUENV_OK;
}

int mirror_args_check(struct mirror_asked *q, const char **upstream,
		      struct fetch_opts *fo, const char *dir,
		      struct cuenv_err *err)
{
	int rc;

	if (!q->nspecs && !q->fors.n) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "mirror: give at least one SPEC or --for");
		return cuenv_hint(err,
				  "for example: cuenv mirror %s 12.4 --cudnn 9",
				  dir);
	}
	rc = plan_opts_check("mirror", q->io, err);
	if (!rc)
		rc = mirror_platforms_check(&q->plats, err);
	if (!rc && *upstream && **upstream)
		rc = install_request_mirror_url("mirror", *upstream, fo, err);
	if (rc)
		return rc;
	if (*upstream && !**upstream)
		*upstream = NULL;
	for (int i = 0; i < q->nspecs && !rc; i++)
		rc = version_check("cuda", q->specs[i], 0, err);
	if (!rc && q->cudnn)
		rc = version_check("cudnn", q->cudnn, 0, err);
	if (!rc && q->cupti)
		rc = version_check("cupti", q->cupti, 0, err);
	return rc ? rc : mirror_check_dir(dir, err);
}

void mirror_args_command(int argc, char *const *argv, struct buf *out)
{
	buf_adds(out, "cuenv");
	for (int i = 0; i < argc; i++)
		buf_printf(out, " %s", argv[i]);
}

const char *mirror_args_cache(const char *root, int no_cache, struct buf *path)
{
	if (no_cache)
		return NULL;
	buf_path(path, root, "cache");
	return store_is_dir(path->data) ? path->data : NULL;
}
