#include "activate.h"

#include <string.h>
#include <sys/stat.h>

#include "xalloc.h"

void activation_init(struct activation *a)
{
	memset(a, 0, sizeof(*a));
	selection_init(&a->sel);
}

void activation_release(struct activation *a)
{
	selection_release(&a->sel);
	install_list_release(&a->cudas);
	install_list_release(&a->cudnns);
	install_list_release(&a->cuptis);
	envmap_release(&a->base);
	envmap_release(&a->after);
	strv_release(&a->warnings);
	activation_init(a);
}

int activation_compute(const char *root, const char *cwd,
		       const struct envmap *start, int isolate,
		       struct activation *a, struct cuenv_err *err)
{
	struct select_in in = {
		.cwd = cwd,
		.root = root,
		.env_cuda = envmap_get(start, "CUENV_VERSION"),
		.env_cudnn = envmap_get(start, "CUENV_CUDNN_VERSION"),
		.env_cupti = envmap_get(start, "CUENV_CUPTI_VERSION"),
		.env_isolate = envmap_get(start, "CUENV_ISOLATE"),
	};
	struct store st;
	int rc;

	envmap_copy(&a->base, start);
	env_undo(&a->base);
	envmap_copy(&a->after, &a->base);

	rc = select_find(&in, &a->sel, err);
	if (rc || !selection_active(&a->sel))
		return rc;

	rc = store_open(&st, root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &a->cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &a->cudnns, err);
	if (!rc)
		rc = store_list(&st, KIT_CUPTI, &a->cuptis, err);
	for (size_t i = 0; i < st.warnings.n; i++) {
		struct buf w = BUF_INIT;

		buf_printf(&w, "skipped an incomplete version: %s",
			   st.warnings.v[i]);
		strv_push_take(&a->warnings, buf_detach(&w));
	}
	store_release(&st);
	if (!rc)
		rc = select_resolve(&a->sel, &a->cudas, &a->cudnns, &a->cuptis,
				    &a->act,
				    err);
	if (rc)
		return rc;
	if (isolate)
		a->act.isolate = 1;

	struct strv shadow = STRV_INIT;
	env_activate(&a->after, &a->act, &shadow);
	for (size_t i = 0; i < shadow.n; i++) {
		struct buf w = BUF_INIT;

		buf_printf(&w,
			   "LD_LIBRARY_PATH entry %s holds CUDA libraries "
			   "that can shadow cuda %s (strip it with "
			   "'isolate = true' in .cuenv or --isolate)",
			   shadow.v[i], a->act.cuda->version);
		strv_push_take(&a->warnings, buf_detach(&w));
	}
	strv_release(&shadow);
	a->ok = 1;
	return CUENV_OK;
}

static char *find_in(const struct strv *dirs, const char *name)
{
	for (size_t i = 0; i < dirs->n; i++) {
		struct buf p = BUF_INIT;
		struct stat st;

		buf_path(&p, dirs->v[i], name);
		if (!stat(p.data, &st) && !S_ISDIR(st.st_mode))
			return buf_detach(&p);
		buf_release(&p);
	}
	return NULL;
}

char *activation_which(const struct activation *a, const char *name)
{
	const struct strv *order[8];
	size_t n = 0;
	char *found = NULL;

	if (!a->ok || !*name || strchr(name, '/'))
		return NULL;
	order[n++] = &a->act.cuda->bin;
	if (a->act.cudnn)
		order[n++] = &a->act.cudnn->lib;
	order[n++] = &a->act.cuda->lib;
	order[n++] = &a->act.cuda->cupti;
	if (a->act.cupti)
		order[n++] = &a->act.cupti->cupti;
	if (a->act.cudnn)
		order[n++] = &a->act.cudnn->include;
	order[n++] = &a->act.cuda->include;
	for (size_t i = 0; i < n && !found; i++)
		found = find_in(order[i], name);
	return found;
}

void activation_emit(const struct activation *a, const struct envmap *before,
		     enum shell sh, const char *root, const char *stamp,
		     struct buf *out)
{
	static const char *const dirs[] = { "versions/cuda", "versions/cudnn" };
	struct env_changes ch = { 0 };
	struct strv watch = STRV_INIT, absent = STRV_INIT;
	struct stat st;

	env_diff(before, &a->after, &ch);
	shell_apply(sh, &ch, out);
	env_changes_release(&ch);

	for (size_t i = 0; i < a->sel.watch.n; i++)
		strv_push(&watch, a->sel.watch.v[i]);
	for (size_t i = 0; i < a->sel.absent.n; i++)
		strv_push(&absent, a->sel.absent.v[i]);
	for (size_t i = 0; i < 2; i++) {
		struct buf p = BUF_INIT;

		buf_path(&p, root, dirs[i]);
		strv_push(stat(p.data, &st) ? &absent : &watch, p.data);
		buf_release(&p);
	}
	shell_array(sh, "__cuenv_watch", &watch, out);
	shell_array(sh, "__cuenv_absent", &absent, out);
	if (stamp)
		shell_local(sh, "__cuenv_stamp", stamp, out);
	strv_release(&watch);
	strv_release(&absent);
}
