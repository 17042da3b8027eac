#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/catalog.h"
#include "select/select.h"

/* select_find from root/<cwd> with the store at root/store. */
struct finding {
	struct select_in in;
	struct selection sel;
	struct cuenv_err err;
	char *cwd;
	char *root;
};

static void finding_init(struct finding *f, const struct fixture *fx,
			 const char *cwd)
{
	memset(f, 0, sizeof(*f));
	f->cwd = fx_path(fx, cwd);
	f->root = fx_path(fx, "store");
	f->in.cwd = f->cwd;
	f->in.root = f->root;
	err_init(&f->err);
	fx_mkdir(fx, cwd);
	fx_mkdir(fx, "store");
}

static int find(struct finding *f)
{
	return select_find(&f->in, &f->sel, &f->err);
}

static void finding_release(struct finding *f)
{
	selection_release(&f->sel);
	err_release(&f->err);
	free(f->cwd);
	free(f->root);
}

static long index_of(const struct fixture *fx, const struct strv *sv,
		     const char *rel)
{
	char *p = fx_path(fx, rel);
	long i = strv_find(sv, p);

	free(p);
	return i;
}

/* ---- finding ------------------------------------------------------------- */

static void test_select_finds_nearest_cuenv_walking_up(void **state)
{
	struct fixture *fx = *state;
	char *want = fx_path(fx, "proj/.cuenv");
	struct finding f;

	finding_init(&f, fx, "proj/a/b");
	fx_write(fx, ".cuenv", "cuda = 11.8\n");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_FILE);
	assert_string_equal(f.sel.origin_path, want);
	assert_string_equal(f.sel.cuda, "12.4");
	assert_string_equal(f.sel.cudnn, "9.1");
	assert_null(f.sel.cupti);
	assert_int_equal(f.sel.isolate, 0);
	assert_true(selection_active(&f.sel));
	finding_release(&f);
	free(want);
}

static void test_select_finds_cuenv_in_cwd_itself(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "proj/.cuenv", "12.2\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_string_equal(f.sel.cuda, "12.2");
	assert_int_equal(f.sel.absent.n, 0);
	assert_int_equal(f.sel.watch.n, 1);
	finding_release(&f);
}

static void test_select_records_absent_ancestors_and_watched_file(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj/a/b");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	assert_int_equal(find(&f), CUENV_OK);
	/* nearest first: the files that would win if they appeared */
	assert_int_equal(f.sel.absent.n, 2);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/a/b/.cuenv"), 0);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/a/.cuenv"), 1);
	assert_int_equal(f.sel.watch.n, 1);
	assert_int_equal(index_of(fx, &f.sel.watch, "proj/.cuenv"), 0);
	finding_release(&f);
}

static void test_select_records_every_candidate_when_nothing_found(void **state)
{
	struct fixture *fx = *state;
	struct buf p = BUF_INIT;
	struct finding f;

	finding_init(&f, fx, "proj/a");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_NONE);
	assert_false(selection_active(&f.sel));
	assert_null(f.sel.cuda);
	assert_int_equal(f.sel.watch.n, 0);
	/* every folder from cwd up to / , then the global file */
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/a/.cuenv"), 0);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/.cuenv"), 1);
	assert_int_equal(index_of(fx, &f.sel.absent, ".cuenv"), 2);
	assert_true(strv_find(&f.sel.absent, "/.cuenv") >= 0);
	assert_int_equal(strv_find(&f.sel.absent, "/.cuenv"),
			 (long)f.sel.absent.n - 2);
	assert_int_equal(index_of(fx, &f.sel.absent, "store/version"),
			 (long)f.sel.absent.n - 1);
	/* nothing in between is skipped: "/a/b" has 3 folders, 2 slashes */
	for (const char *s = f.cwd; *s; s++)
		if (*s == '/')
			buf_addc(&p, '/');
	assert_int_equal(f.sel.absent.n, p.len + 1 + 1);
	buf_release(&p);
	finding_release(&f);
}

static void test_select_uses_global_default_without_cuenv(void **state)
{
	struct fixture *fx = *state;
	char *global = fx_path(fx, "store/version");
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "store/version", "cuda = 12.2\nisolate = true\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_GLOBAL);
	assert_string_equal(f.sel.origin_path, global);
	assert_string_equal(f.sel.cuda, "12.2");
	assert_int_equal(f.sel.isolate, 1);
	assert_int_equal(index_of(fx, &f.sel.watch, "store/version"), 0);
	assert_int_equal(index_of(fx, &f.sel.absent, "store/version"), -1);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/.cuenv"), 0);
	finding_release(&f);
	free(global);
}

static void test_select_cuenv_wins_over_global_default(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "store/version", "cuda = 12.2\ncudnn = 9.1\n");
	fx_write(fx, "proj/.cuenv", "cuda = 11.8\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_FILE);
	assert_string_equal(f.sel.cuda, "11.8");
	/* one source gives the whole selection: no cudnn from global */
	assert_null(f.sel.cudnn);
	finding_release(&f);
}

static void test_select_skips_cuenv_with_only_comments(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj/a");
	fx_write(fx, "proj/a/.cuenv", "# nothing chosen here yet\n\n");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_FILE);
	assert_string_equal(f.sel.cuda, "12.4");
	/* the empty file still matters if it changes */
	assert_int_equal(index_of(fx, &f.sel.watch, "proj/a/.cuenv"), 0);
	assert_int_equal(index_of(fx, &f.sel.watch, "proj/.cuenv"), 1);
	finding_release(&f);
}

static void test_select_skips_cuenv_folder_such_as_default_root(void **state)
{
	struct fixture *fx = *state;
	enum sel_origin origin;
	struct finding f;
	bool right;
	int rc;

	/* CUENV_ROOT defaults to ~/.cuenv: a folder on every walk from ~ */
	finding_init(&f, fx, "home/proj");
	free(f.root);
	f.root = fx_path(fx, "home/.cuenv");
	f.in.root = f.root;
	fx_mkdir(fx, "home/.cuenv/versions/cuda");
	fx_write(fx, "home/.cuenv/version", "cuda = 12.2\n");
	rc = find(&f);
	if (rc)
		print_message("%s\n", f.err.msg.data);
	origin = f.sel.origin;
	right = f.sel.cuda && !strcmp(f.sel.cuda, "12.2");
	finding_release(&f); /* first, so that a failure leaks nothing */
	assert_int_equal(rc, CUENV_OK);
	assert_int_equal(origin, SEL_GLOBAL);
	assert_true(right);
}

static void test_select_system_in_cuenv_selects_nothing_active(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "store/version", "cuda = 12.2\n");
	fx_write(fx, "proj/.cuenv", "cuda = system\n");
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_FILE);
	assert_string_equal(f.sel.cuda, "system");
	assert_false(selection_active(&f.sel));
	finding_release(&f);
}

static void test_select_bad_cuenv_fails_but_fills_watch_lists(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj/a");
	fx_write(fx, "proj/.cuenv", "cuda = ../../../bin\n");
	assert_int_equal(find(&f), CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "invalid version"));
	assert_int_equal(index_of(fx, &f.sel.watch, "proj/.cuenv"), 0);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/a/.cuenv"), 0);
	assert_false(selection_active(&f.sel));
	finding_release(&f);
}

static void test_select_bad_global_default_fails_but_is_watched(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "store/version", "cuda = 12.2\ncuda = 12.4\n");
	assert_int_equal(find(&f), CUENV_E_MANIFEST);
	assert_int_equal(index_of(fx, &f.sel.watch, "store/version"), 0);
	assert_int_equal(index_of(fx, &f.sel.absent, "proj/.cuenv"), 0);
	finding_release(&f);
}

/* ---- the shell's choice -------------------------------------------------- */

static void test_select_env_var_wins_over_cuenv(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	f.in.env_cuda = "11.8";
	f.in.env_cudnn = "8.9";
	f.in.env_cupti = "12.1";
	f.in.env_isolate = "1";
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_SHELL);
	assert_string_equal(f.sel.origin_path, "CUENV_VERSION");
	assert_string_equal(f.sel.cuda, "11.8");
	assert_string_equal(f.sel.cudnn, "8.9");
	assert_string_equal(f.sel.cupti, "12.1");
	assert_int_equal(f.sel.isolate, 1);
	finding_release(&f);
}

static void test_select_empty_env_var_is_ignored(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	f.in.env_cuda = "";
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_FILE);
	finding_release(&f);
}

static void test_select_env_isolate_other_than_1_is_off(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	f.in.env_cuda = "12.4";
	f.in.env_isolate = "0";
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.isolate, 0);
	finding_release(&f);
}

static void test_select_rejects_invalid_cuenv_version_var(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	f.in.env_cuda = "../../bin";
	assert_int_equal(find(&f), CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "CUENV_VERSION"));
	assert_non_null(strstr(f.err.msg.data, "'../../bin'"));
	assert_false(selection_active(&f.sel));
	finding_release(&f);
}

static void test_select_rejects_invalid_cudnn_var(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	f.in.env_cuda = "12.4";
	f.in.env_cudnn = "system";
	assert_int_equal(find(&f), CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "CUENV_CUDNN_VERSION"));
	finding_release(&f);
	finding_init(&f, fx, "proj");
	f.in.env_cuda = "12.4";
	f.in.env_cupti = "$(id)";
	assert_int_equal(find(&f), CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "CUENV_CUPTI_VERSION"));
	finding_release(&f);
}

static void test_select_accepts_system_in_cuenv_version_var(void **state)
{
	struct fixture *fx = *state;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	f.in.env_cuda = "system";
	assert_int_equal(find(&f), CUENV_OK);
	assert_int_equal(f.sel.origin, SEL_SHELL);
	assert_false(selection_active(&f.sel));
	finding_release(&f);
}

static void test_select_describes_origin(void **state)
{
	struct fixture *fx = *state;
	struct buf d = BUF_INIT, want = BUF_INIT;
	struct finding f;

	finding_init(&f, fx, "proj");
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
	assert_int_equal(find(&f), CUENV_OK);
	selection_describe_origin(&f.sel, &d);
	buf_printf(&want, "set by %s/proj/.cuenv", fx->root);
	assert_string_equal(d.data, want.data);
	finding_release(&f);

	buf_reset(&d);
	finding_init(&f, fx, "proj");
	f.in.env_cuda = "12.4";
	assert_int_equal(find(&f), CUENV_OK);
	selection_describe_origin(&f.sel, &d);
	assert_string_equal(d.data,
			    "set by CUENV_VERSION, which cuenv use sets");
	finding_release(&f);

	buf_reset(&d);
	selection_init(&f.sel);
	selection_describe_origin(&f.sel, &d);
	assert_string_equal(d.data, "nothing selected");
	buf_release(&d);
	buf_release(&want);
}

/* ---- picking ------------------------------------------------------------- */

static void cudas(struct store_version_list *l)
{
	static const char *const v[] = {"11.8.0", "12.2.0", "12.4.0", "12.4.1"};

	for (size_t i = 0; i < 4; i++) {
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "/opt/cuda-%s", v[i]);
		fx_list_push(l, fx_install_new(KIT_CUDA, v[i],
					       (unsigned)atoi(v[i]), prefix));
	}
}

static void cudnns(struct store_version_list *l)
{
	fx_list_push(l, fx_install_new(KIT_CUDNN, "8.9.7", 12, "/opt/cudnn-a"));
	fx_list_push(l,
		     fx_install_new(KIT_CUDNN, "9.1.0.70", 11, "/opt/cudnn-b"));
	fx_list_push(l,
		     fx_install_new(KIT_CUDNN, "9.1.0.70", 12, "/opt/cudnn-c"));
	fx_list_push(l, fx_install_new(KIT_CUDNN, "9.2.0", 11, "/opt/cudnn-d"));
}

static const char *pick(const struct store_version_list *l, const char *spec,
			unsigned major)
{
	const struct store_version *in = select_pick(l, spec, major);

	return in ? in->prefix : NULL;
}

/* remove and uninstall: a folder name, then a version, then a prefix. */
static void test_select_named_name_then_version_then_prefix(void **state)
{
	struct store_version_list l = {0};
	const struct store_version *hit;
	struct buf names = BUF_INIT;

	(void)state;
	cudas(&l);
	cudnns(&l);
	/* the folder name of one of the two 9.1.0.70 builds */
	assert_int_equal(select_named(&l, "9.1.0.70-cuda11", &hit, &names), 1);
	assert_string_equal(hit->prefix, "/opt/cudnn-b");
	assert_string_equal(names.data, "9.1.0.70-cuda11");
	/* the version: both builds, so ambiguous */
	buf_reset(&names);
	assert_int_equal(select_named(&l, "9.1.0.70", &hit, &names), 2);
	assert_string_equal(names.data, "9.1.0.70-cuda11, 9.1.0.70-cuda12");
	/* an exact version wins over the versions it is a prefix of */
	buf_reset(&names);
	assert_int_equal(select_named(&l, "12.4.0", &hit, &names), 1);
	assert_string_equal(hit->prefix, "/opt/cuda-12.4.0");
	/* a prefix: every version it begins */
	buf_reset(&names);
	assert_int_equal(select_named(&l, "12.4", &hit, &names), 2);
	assert_string_equal(names.data, "12.4.0, 12.4.1");
	buf_reset(&names);
	assert_int_equal(select_named(&l, "11", &hit, &names), 1);
	assert_string_equal(hit->prefix, "/opt/cuda-11.8.0");
	/* not a prefix by characters: 12.4 is no match for 12.40 */
	buf_reset(&names);
	assert_int_equal(select_named(&l, "12.40", &hit, &names), 0);
	assert_null(hit);
	assert_string_equal(names.data, "");
	buf_release(&names);
	store_version_list_release(&l);
}

static void test_select_pick_takes_newest_match(void **state)
{
	struct store_version_list l = {0};

	(void)state;
	cudas(&l);
	assert_string_equal(pick(&l, "12.4", 0), "/opt/cuda-12.4.1");
	assert_string_equal(pick(&l, "12", 0), "/opt/cuda-12.4.1");
	assert_string_equal(pick(&l, "12.2", 0), "/opt/cuda-12.2.0");
	assert_string_equal(pick(&l, "12.4.0", 0), "/opt/cuda-12.4.0");
	assert_string_equal(pick(&l, "11", 0), "/opt/cuda-11.8.0");
	store_version_list_release(&l);
}

static void test_select_pick_prefers_the_version_itself(void **state)
{
	struct store_version_list l = {0};

	(void)state;
	cudas(&l);
	/* registered from wheels, which name the release 12.4 */
	fx_list_push(&l, fx_install_new(KIT_CUDA, "12.4", 12, "/venv/nvidia"));
	store_version_list_sort(&l);
	assert_string_equal(pick(&l, "12.4", 0), "/venv/nvidia");
	assert_string_equal(pick(&l, "12.4.1", 0), "/opt/cuda-12.4.1");
	assert_string_equal(pick(&l, "12", 0), "/opt/cuda-12.4.1");
	store_version_list_release(&l);
}

static void test_select_pick_without_match_is_null(void **state)
{
	struct store_version_list l = {0};

	(void)state;
	cudas(&l);
	assert_null(pick(&l, "12.3", 0));
	assert_null(pick(&l, "12.40", 0));
	assert_null(pick(&l, "1", 0));
	assert_null(pick(&l, "12.4.1.1", 0));
	assert_null(pick(&l, "../12", 0));
	store_version_list_release(&l);
	assert_null(pick(&l, "12", 0)); /* empty list */
}

static void test_select_pick_respects_cudnn_cuda_major(void **state)
{
	struct store_version_list l = {0};

	(void)state;
	cudnns(&l);
	assert_string_equal(pick(&l, "9", 12), "/opt/cudnn-c");
	assert_string_equal(pick(&l, "9", 11), "/opt/cudnn-d");
	assert_string_equal(pick(&l, "9.1", 11), "/opt/cudnn-b");
	assert_string_equal(pick(&l, "9", 0), "/opt/cudnn-d");
	assert_string_equal(pick(&l, "8", 12), "/opt/cudnn-a");
	assert_null(pick(&l, "8", 11));
	assert_null(pick(&l, "9", 13));
	store_version_list_release(&l);
}

/* ---- resolving ----------------------------------------------------------- */

static void sel_set(struct selection *sel, const char *cuda, const char *cudnn,
		    const char *cupti)
{
	selection_init(sel);
	sel->cuda = cuda ? strdup(cuda) : NULL;
	sel->cudnn = cudnn ? strdup(cudnn) : NULL;
	sel->cupti = cupti ? strdup(cupti) : NULL;
	sel->origin = SEL_FILE;
	sel->origin_path = strdup("/p/.cuenv");
}

static void test_select_resolve_finds_every_part(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	cudas(&lc);
	cudnns(&ld);
	sel_set(&sel, "12.4", "9", "11.8");
	sel.isolate = 1;
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_OK);
	assert_ptr_equal(act.cuda, lc.v[3]);
	assert_ptr_equal(act.cudnn, ld.v[2]); /* 9.1.0.70 for CUDA 12 */
	assert_ptr_equal(act.cupti, lc.v[0]);
	assert_int_equal(act.isolate, 1);
	selection_release(&sel);
	store_version_list_release(&lc);
	store_version_list_release(&ld);
}

static void
test_select_resolve_names_installed_versions_and_install(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	cudas(&lc);
	sel_set(&sel, "12.6", NULL, NULL);
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "cuda 12.6 is not installed"));
	assert_non_null(strstr(err.msg.data, "/p/.cuenv"));
	assert_non_null(strstr(err.msg.data,
			       "installed: 11.8.0, 12.2.0, 12.4.0, "
			       "12.4.1"));
	assert_non_null(strstr(err.hint.data, "cuenv install 12.6"));
	assert_null(act.cuda);
	err_release(&err);
	selection_release(&sel);
	store_version_list_release(&lc);
}

static void test_select_resolve_with_nothing_installed_says_none(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	sel_set(&sel, "12.4", NULL, NULL);
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "installed: none"));
	err_release(&err);
	selection_release(&sel);
}

static void test_select_resolve_missing_cudnn_names_cuda_major(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	cudas(&lc);
	cudnns(&ld);
	sel_set(&sel, "11", "9.1.0.70", NULL);
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_OK);
	assert_ptr_equal(act.cudnn, ld.v[1]);
	selection_release(&sel);

	sel_set(&sel, "12.4", "9.2", NULL);
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "cudnn 9.2 for CUDA 12 is not "
					     "installed"));
	/* only what fits this CUDA major is offered */
	assert_non_null(strstr(err.msg.data, "installed for CUDA 12: 8.9.7, "
					     "9.1.0.70"));
	assert_null(strstr(err.msg.data, "9.2.0"));
	assert_non_null(strstr(err.hint.data, "cuenv install 12.4.1 --cudnn "
					      "9.2"));
	err_release(&err);
	selection_release(&sel);
	store_version_list_release(&lc);
	store_version_list_release(&ld);
}

static void test_select_resolve_missing_cupti_says_install(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	cudas(&lc);
	sel_set(&sel, "12.4", NULL, "11.2");
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "no installed CUDA 11.2 provides "
					     "CUPTI"));
	assert_non_null(strstr(err.hint.data, "--cupti 11.2"));
	assert_null(act.cupti);
	err_release(&err);
	selection_release(&sel);
	store_version_list_release(&lc);
}

static void test_select_resolve_cupti_needs_a_cupti_dir(void **state)
{
	struct store_version_list lc = {0}, ld = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct active act;

	(void)state;
	cudas(&lc);
	strv_release(&lc.v[0]->cupti); /* 11.8.0 without CUPTI */
	sel_set(&sel, "12.4", NULL, "11.8");
	assert_int_equal(select_resolve(&sel, &lc, &ld, NULL, &act, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_null(act.cupti);
	err_release(&err);
	selection_release(&sel);
	store_version_list_release(&lc);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* ---- select_install: remove's and uninstall's SPEC ----------------------- */

static void register_at(const struct fixture *fx, struct store *st,
			enum kit_kind kind, const char *version, unsigned major,
			const char *rel)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *prefix = fx_path(fx, rel);
	struct store_version *in;

	if (kind == KIT_CUDA)
		fake_cuda_classic(fx, rel, major);
	else
		fake_cudnn_tarball(fx, rel, "9.1.0");
	in = fx_install_new(kind, version, major, prefix);
	if (store_register(st, in, &err))
		fail_msg("store_register: %s", err.msg.data);
	store_version_free(in);
	free(prefix);
}

static void test_select_install_finds_one_by_kind_and_spec(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list list = {0};
	const struct store_version *found;
	struct store st;
	char *root = fx_path(fx, "store");
	char *one[] = {"11"}, *both[] = {"cudnn", "9.1"},
	     *ambiguous[] = {"12.4"}, *missing[] = {"cuda", "10.2"},
	     *kind[] = {"tensorrt", "12.4"};

	assert_int_equal(store_open(&st, root, true, &err), CUENV_OK);
	register_at(fx, &st, KIT_CUDA, "12.4.0", 12, "cuda-12.4.0");
	register_at(fx, &st, KIT_CUDA, "12.4.1", 12, "cuda-12.4.1");
	register_at(fx, &st, KIT_CUDA, "11.8.0", 11, "cuda-11.8.0");
	register_at(fx, &st, KIT_CUDNN, "9.1.0.70", 12, "cudnn-9.1");
	/* cuda is the kind when none is named */
	assert_int_equal(
	    select_install(&st, "remove", 1, one, &list, &found, &err),
	    CUENV_OK);
	assert_int_equal(found->kind, KIT_CUDA);
	assert_string_equal(found->version, "11.8.0");
	store_version_list_release(&list);
	assert_int_equal(
	    select_install(&st, "remove", 2, both, &list, &found, &err),
	    CUENV_OK);
	assert_int_equal(found->kind, KIT_CUDNN);
	assert_string_equal(found->version, "9.1.0.70");
	store_version_list_release(&list);
	/* a prefix of two: name one exactly */
	assert_int_equal(
	    select_install(&st, "remove", 1, ambiguous, &list, &found, &err),
	    CUENV_E_USAGE);
	assert_null(found);
	assert_string_equal(err.msg.data,
			    "cuda 12.4 is ambiguous: 12.4.0, 12.4.1");
	assert_string_equal(err.hint.data, "name one exactly");
	err_release(&err);
	store_version_list_release(&list);
	assert_int_equal(
	    select_install(&st, "uninstall", 2, missing, &list, &found, &err),
	    CUENV_E_NOT_INSTALLED);
	assert_string_equal(err.msg.data, "cuda 10.2 is not in the store");
	assert_string_equal(err.hint.data, "see: cuenv versions");
	err_release(&err);
	store_version_list_release(&list);
	assert_int_equal(
	    select_install(&st, "uninstall", 2, kind, &list, &found, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "uninstall: 'tensorrt' is not cuda or cudnn");
	assert_string_equal(err.hint.data, "see: cuenv uninstall --help");
	err_release(&err);
	store_version_list_release(&list);
	store_release(&st);
	free(root);
}

/* ---- cuenv latest -------------------------------------------------------- */

static void test_select_latest_installed_or_known(void **state)
{
	struct store_version_list l = {0};
	struct release r[3] = {
	    {.kind = KIT_CUDA, .version = "12.8.0"},
	    {.kind = KIT_CUDNN, .version = "12.9.9"},
	    {.kind = KIT_CUDA, .version = "12.4.1"},
	};
	struct release *rv[3] = {&r[0], &r[1], &r[2]};
	struct catalog cat = {.v = rv, .n = 3};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *best = "x";

	(void)state;
	fx_list_push(&l, fx_install_new(KIT_CUDA, "11.8.0", 11, "/a"));
	fx_list_push(&l, fx_install_new(KIT_CUDA, "12.4.1", 12, "/b"));
	fx_list_push(&l, fx_install_new(KIT_CUDA, "12.10.0", 12, "/c"));
	assert_int_equal(select_latest(KIT_CUDA, "12", &l, NULL, &best, &err),
			 CUENV_OK);
	assert_string_equal(best, "12.10.0"); /* by version, not by name */
	assert_int_equal(select_latest(KIT_CUDA, "12.4", &l, NULL, &best, &err),
			 CUENV_OK);
	assert_string_equal(best, "12.4.1");
	assert_int_equal(select_latest(KIT_CUDA, "13", &l, NULL, &best, &err),
			 CUENV_NO);
	assert_null(best);
	assert_string_equal(err.msg.data, "no cuda 13 installed");
	assert_string_equal(
	    err.hint.data, "see: cuenv versions, or cuenv latest --known SPEC");
	/* --known: the catalogue's, of that kind only */
	assert_int_equal(select_latest(KIT_CUDA, "12", &l, &cat, &best, &err),
			 CUENV_OK);
	assert_string_equal(best, "12.8.0");
	assert_int_equal(select_latest(KIT_CUDNN, "12", &l, &cat, &best, &err),
			 CUENV_OK);
	assert_string_equal(best, "12.9.9");
	assert_int_equal(select_latest(KIT_CUDNN, "9", &l, &cat, &best, &err),
			 CUENV_NO);
	assert_string_equal(err.msg.data, "no cudnn 9 in the catalogue");
	assert_string_equal(err.hint.data, "see: cuenv list-remote");
	store_version_list_release(&l);
	err_release(&err);
}

/* ---- cuenv prefix -------------------------------------------------------- */

static void test_select_prefix_of_a_spec(void **state)
{
	struct store_version_list cudas = {0}, none = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *prefix = "x";

	(void)state;
	assert_int_equal(select_prefix_spec("12.4", &err), CUENV_OK);
	assert_int_equal(select_prefix_spec("system", &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "prefix: system is the machine's "
					  "own CUDA, not cuenv's");
	assert_string_equal(err.hint.data, "see: cuenv versions");
	assert_int_equal(select_prefix_spec("../12", &err), CUENV_E_USAGE);
	fx_list_push(&cudas, fx_install_new(KIT_CUDA, "12.4.0", 12, "/a"));
	fx_list_push(&cudas, fx_install_new(KIT_CUDA, "12.4.1", 12, "/b"));
	fx_list_push(&cudas, fx_install_new(KIT_CUDA, "12.6.2", 12, "/c"));
	assert_int_equal(
	    select_prefix("12.4", &cudas, &none, &none, &prefix, &err),
	    CUENV_OK);
	assert_string_equal(prefix, "/b");
	assert_int_equal(
	    select_prefix("12.6.2", &cudas, &none, &none, &prefix, &err),
	    CUENV_OK);
	assert_string_equal(prefix, "/c");
	assert_int_equal(
	    select_prefix("11", &cudas, &none, &none, &prefix, &err),
	    CUENV_E_NOT_INSTALLED);
	assert_null(prefix);
	store_version_list_release(&cudas);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    FS_TEST(test_select_finds_nearest_cuenv_walking_up),
	    FS_TEST(test_select_finds_cuenv_in_cwd_itself),
	    FS_TEST(test_select_records_absent_ancestors_and_watched_file),
	    FS_TEST(test_select_records_every_candidate_when_nothing_found),
	    FS_TEST(test_select_uses_global_default_without_cuenv),
	    FS_TEST(test_select_cuenv_wins_over_global_default),
	    FS_TEST(test_select_skips_cuenv_with_only_comments),
	    FS_TEST(test_select_skips_cuenv_folder_such_as_default_root),
	    FS_TEST(test_select_system_in_cuenv_selects_nothing_active),
	    FS_TEST(test_select_bad_cuenv_fails_but_fills_watch_lists),
	    FS_TEST(test_select_bad_global_default_fails_but_is_watched),
	    FS_TEST(test_select_env_var_wins_over_cuenv),
	    FS_TEST(test_select_empty_env_var_is_ignored),
	    FS_TEST(test_select_env_isolate_other_than_1_is_off),
	    FS_TEST(test_select_rejects_invalid_cuenv_version_var),
	    FS_TEST(test_select_rejects_invalid_cudnn_var),
	    FS_TEST(test_select_accepts_system_in_cuenv_version_var),
	    FS_TEST(test_select_describes_origin),
	    cmocka_unit_test(test_select_named_name_then_version_then_prefix),
	    cmocka_unit_test(test_select_pick_takes_newest_match),
	    cmocka_unit_test(test_select_pick_prefers_the_version_itself),
	    cmocka_unit_test(test_select_pick_without_match_is_null),
	    cmocka_unit_test(test_select_pick_respects_cudnn_cuda_major),
	    cmocka_unit_test(test_select_resolve_finds_every_part),
	    cmocka_unit_test(
		test_select_resolve_names_installed_versions_and_install),
	    cmocka_unit_test(
		test_select_resolve_with_nothing_installed_says_none),
	    cmocka_unit_test(
		test_select_resolve_missing_cudnn_names_cuda_major),
	    cmocka_unit_test(test_select_resolve_missing_cupti_says_install),
	    cmocka_unit_test(test_select_resolve_cupti_needs_a_cupti_dir),
	    FS_TEST(test_select_install_finds_one_by_kind_and_spec),
	    cmocka_unit_test(test_select_latest_installed_or_known),
	    cmocka_unit_test(test_select_prefix_of_a_spec),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
