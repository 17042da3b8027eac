/*
 * plat_dl_posix.c: plat_dl.h on Linux (dlfcn, dlinfo for the file).
 */
#include "plat/plat_dl.h"

#include <dlfcn.h>
#include <link.h>

void *plat_dl_open(const char *name, struct buf *why)
{
	void *h;
	const char *e;

	dlerror();
	h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		buf_adds(why, e ? e : "unknown error");
	}
	return h;
}

void *plat_dl_sym(void *h, const char *name)
{
	return dlsym(h, name);
}

int plat_dl_path(void *h, struct buf *file)
{
	struct link_map *lm = NULL;

	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm || !lm->l_name ||
	    !*lm->l_name)
		return -1;
	buf_adds(file, lm->l_name);
	return 0;
}

void plat_dl_close(void *h)
{
	dlclose(h);
}
