/*
 * ldsearch.c: the folders the loader searches (see ldsearch.h).
 */
#include <stdlib.h>
#include <string.h>

#include "store/detect.h"
#include "artifact/ldcache.h"
#include "store/ldsearch.h"
#include "plat/plat_fs.h"
#include "base/xalloc.h"

void ldsearch_dirs(const char *conf_path, const char *cache_path,
		   struct strv *out)
{
	struct ldconf conf = { 0 };
	struct ldcache cache = { 0 };
	struct cuenv_err e = CUENV_ERR_INIT;

	detect_loader_defaults(out);
	ldconf_read(conf_path, &conf);
	for (size_t i = 0; i < conf.n; i++) {
		char *r = plat_realpath(conf.v[i].dir);

		if (r && strv_find(out, r) < 0)
			strv_push_take(out, r);
		else
			free(r);
	}
	if (!ldcache_read(cache_path, &cache, &e)) {
		struct strv seen = STRV_INIT;

		for (size_t i = 0; i < cache.n; i++) {
			char *dir = xstrdup(cache.v[i].path);
			char *slash = strrchr(dir, '/'), *r;

			if (slash)
				*slash = '\0';
			if (strv_find(&seen, dir) >= 0) {
				free(dir);
				continue;
			}
			r = plat_realpath(dir);
			if (r && strv_find(out, r) < 0)
				strv_push_take(out, r);
			else
				free(r);
			strv_push_take(&seen, dir);
		}
		strv_release(&seen);
	}
	ldconf_release(&conf);
	ldcache_release(&cache);
	err_release(&e);
}
