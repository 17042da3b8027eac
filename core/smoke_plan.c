#include "smoke_plan.h"

#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "smoke.h"
#include "xalloc.h"

void smoke_plan_release(struct smoke_plan *pl)
{
	strv_release(&pl->argv);
	free(pl->runtime);
	free(pl->cudnn);
	free(pl->cupti);
	strv_release(&pl->own);
}

static void add_dirs(struct strv *to, const struct strv *from)
{
	for (size_t i = 0; i < from->n; i++)
		if (strv_find(to, from->v[i]) < 0)
			strv_push(to, from->v[i]);
}

/* The soname of stem in dirs, or the one version's release gives it. */
static char *soname_of(const struct strv *dirs, const char *stem,
		       const char *version)
{
	char *s = smoke_find_soname(dirs, stem), *lib;

	if (s)
		return s;
	/* "libcudart.so" -> "cudart" */
	lib = xstrndup(stem + 3, strlen(stem) - 6);
	s = detect_soname(lib, version);
	free(lib);
	return s;
}

static void arg2(struct strv *argv, const char *opt, const char *value)
{
	if (!value)
		return;
	strv_push(argv, opt);
	strv_push(argv, value);
}

void smoke_plan_make(const struct active *act, const char *probe,
		     int device, const struct driver_req *req,
		     struct smoke_plan *pl)
{
	const struct install *cu = act->cuda;
	struct strv dirs = STRV_INIT;
	struct buf dev = BUF_INIT;

	strv_push(&pl->argv, probe);
	arg2(&pl->argv, "--cuda", cu->version);
	if (act->cudnn)
		arg2(&pl->argv, "--cudnn", act->cudnn->version);
	if (act->cupti)
		arg2(&pl->argv, "--cupti", act->cupti->version);
	buf_printf(&dev, "%d", device);
	arg2(&pl->argv, "--device", dev.data);
	if (req) {
		arg2(&pl->argv, "--driver-need", req->release);
		arg2(&pl->argv, "--driver-compat", req->compat);
	}

	pl->runtime = soname_of(&cu->lib, "libcudart.so", cu->version);
	if (act->cupti) {
		add_dirs(&dirs, &act->cupti->cupti);
		add_dirs(&dirs, &act->cupti->lib);
		pl->cupti = soname_of(&dirs, "libcupti.so",
				      act->cupti->cupti_version
					  ? act->cupti->cupti_version
					  : act->cupti->version);
	} else {
		add_dirs(&dirs, &cu->cupti);
		add_dirs(&dirs, &cu->lib);
		pl->cupti = soname_of(&dirs, "libcupti.so",
				      cu->cupti_version ? cu->cupti_version
							: cu->version);
	}
	/* cuDNN when selected, or when the toolkit carries one (wheels) */
	if (act->cudnn)
		pl->cudnn = soname_of(&act->cudnn->lib, "libcudnn.so",
				      act->cudnn->version);
	else
		pl->cudnn = smoke_find_soname(&cu->lib, "libcudnn.so");
	arg2(&pl->argv, "--runtime", pl->runtime);
	arg2(&pl->argv, "--cupti-lib", pl->cupti);
	arg2(&pl->argv, "--cudnn-lib", pl->cudnn);

	if (act->cudnn)
		add_dirs(&pl->own, &act->cudnn->lib);
	add_dirs(&pl->own, &cu->lib);
	add_dirs(&pl->own, &cu->cupti);
	if (act->cupti) {
		add_dirs(&pl->own, &act->cupti->cupti);
		add_dirs(&pl->own, &act->cupti->lib);
	}
	for (size_t i = 0; i < pl->own.n; i++)
		arg2(&pl->argv, "--own", pl->own.v[i]);

	strv_release(&dirs);
	buf_release(&dev);
}
