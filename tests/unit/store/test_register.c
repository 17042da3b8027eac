#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "store/register.h"

static void test_register_listable_every_folder(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *in =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/cu");

	(void)state;
	assert_int_equal(register_listable(in, &err), CUENV_OK);
	strv_push(&in->lib, "/opt/cu/a:b");
	assert_int_equal(register_listable(in, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "/opt/cu/a:b"));
	store_version_free(in);
	in = fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/c:u");
	assert_int_equal(register_listable(in, &err), CUENV_E_USAGE);
	store_version_free(in);
	err_release(&err);
}

static void test_register_record_once_then_same_or_conflict(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	char *root = fx_path(fx, "store");
	char *a = fx_path(fx, "a"), *b = fx_path(fx, "b");
	struct store_version *one = fx_install_new(KIT_CUDA, "12.4.1", 12, a),
			     *again = fx_install_new(KIT_CUDA, "12.4.1", 12, a),
			     *other = fx_install_new(KIT_CUDA, "12.4.1", 12, b);
	struct buf said = BUF_INIT, want = BUF_INIT;

	assert_int_equal(store_open(&st, root, true, &err), CUENV_OK);
	assert_int_equal(register_record(&st, one, &err), CUENV_OK);
	assert_non_null(one->dir);
	assert_int_equal(register_record(&st, again, &err), CUENV_NO);
	assert_null(again->dir);
	register_already(again, &said);
	buf_printf(&want, "cuda 12.4.1 is already registered from %s\n", a);
	assert_string_equal(said.data, want.data);
	assert_int_equal(register_record(&st, other, &err), CUENV_E_CONFLICT);
	buf_reset(&want);
	buf_printf(&want, "cuda 12.4.1 is already in the store (%s)", a);
	assert_string_equal(err.msg.data, want.data);
	assert_non_null(strstr(err.hint.data, "cuenv remove cuda 12.4.1"));
	store_release(&st);
	store_version_free(one);
	store_version_free(again);
	store_version_free(other);
	buf_release(&said);
	buf_release(&want);
	err_release(&err);
	free(root);
	free(a);
	free(b);
}

static void test_register_describe_each_kind(void **state)
{
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/cu");
	struct store_version *dn =
	    fx_install_new(KIT_CUDNN, "9.1.0", 12, "/opt/dn");
	struct buf out = BUF_INIT;

	(void)state;
	register_describe(cu, &out);
	assert_string_equal(
	    out.data, "registered cuda 12.4.1 from /opt/cu (CUPTI found)\n");
	buf_reset(&out);
	cu->cupti_version = strdup("12.4.127");
	register_describe(cu, &out);
	assert_string_equal(
	    out.data, "registered cuda 12.4.1 from /opt/cu (CUPTI 12.4.127)\n");
	buf_reset(&out);
	strv_release(&cu->cupti);
	register_describe(cu, &out);
	assert_string_equal(out.data,
			    "registered cuda 12.4.1 from /opt/cu (no CUPTI)\n");
	buf_reset(&out);
	register_describe(dn, &out);
	assert_string_equal(
	    out.data, "registered cudnn 9.1.0 for CUDA 12 from /opt/dn\n");
	store_version_free(cu);
	store_version_free(dn);
	buf_release(&out);
}

/* ---- remove and uninstall ------------------------------------------------- */

/* st's only install of kind named name. */
static struct store_version *listed(struct store *st, enum kit_kind kind,
				    const char *name,
				    struct store_version_list *l)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	store_version_list_release(l);
	memset(l, 0, sizeof(*l));
	if (store_list(st, kind, l, &err))
		fail_msg("store_list: %s", err.msg.data);
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i]->name, name))
			return l->v[i];
	fail_msg("%s is not listed", name);
	return NULL;
}

/*
 * The store at root/store: CUDA 12.4.1 registered from root/cu with a
 * cuDNN registered from the same prefix, a cuDNN registered from
 * root/dn, and CUDA 12.2.0 that cuenv installed.
 */
static void remove_world(const struct fixture *fx, struct store *st)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "store"), *cu = fx_path(fx, "cu"),
	     *dn = fx_path(fx, "dn");
	struct store_version *v[] = {
	    fx_install_new(KIT_CUDA, "12.4.1", 12, cu),
	    fx_install_new(KIT_CUDNN, "9.1.0.70", 12, cu),
	    fx_install_new(KIT_CUDNN, "8.9.7.29", 12, dn),
	};

	fake_cuda_classic(fx, "cu", 12);
	fake_cudnn_tarball(fx, "cu", "9.1.0");
	fake_cudnn_tarball(fx, "dn", "8.9.7");
	assert_int_equal(store_open(st, root, true, &err), CUENV_OK);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(register_record(st, v[i], &err), CUENV_OK);
		store_version_free(v[i]);
	}
	fx_write(fx, "store/versions/cuda/12.2.0/.cuenv-receipt",
		 "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		 "\"cuda_major\":12,\"registered\":false,\"bin\":[],"
		 "\"lib\":[],\"include\":[],\"cupti\":[]}");
	fake_cuda_classic(fx, "store/versions/cuda/12.2.0", 12);
	free(root);
	free(cu);
	free(dn);
}

static void test_register_remove_takes_the_cudnn_inside_too(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct buf out = BUF_INIT, want = BUF_INIT;
	struct store st;
	char *cu = fx_path(fx, "cu");

	remove_world(fx, &st);
	/* one cuenv installed is not remove's */
	assert_int_equal(register_remove(&st,
					 listed(&st, KIT_CUDA, "12.2.0", &l),
					 &out, &err),
			 CUENV_E_CONFLICT);
	assert_string_equal(
	    err.msg.data, "cuda 12.2.0 was installed by cuenv, not registered");
	assert_string_equal(err.hint.data,
			    "delete it: cuenv uninstall cuda 12.2.0");
	assert_int_equal(out.len, 0);
	err_release(&err);
	assert_int_equal(register_remove(&st,
					 listed(&st, KIT_CUDA, "12.4.1", &l),
					 &out, &err),
			 CUENV_OK);
	buf_printf(&want,
		   "removed cuda 12.4.1 (%s, left in place)\n"
		   "removed cudnn 9.1.0.70-cuda12 (inside it)\n",
		   cu);
	assert_string_equal(out.data, want.data);
	/* the other cuDNN stays, and every file */
	listed(&st, KIT_CUDNN, "8.9.7.29-cuda12", &l);
	assert_int_equal(l.n, 1);
	assert_true(fx_exists(fx, "cu/bin/nvcc"));
	assert_true(fx_exists(fx, "cu/include/cudnn_version.h"));
	/* a cuDNN alone */
	buf_reset(&out);
	buf_reset(&want);
	assert_int_equal(
	    register_remove(&st, listed(&st, KIT_CUDNN, "8.9.7.29-cuda12", &l),
			    &out, &err),
	    CUENV_OK);
	buf_printf(&want,
		   "removed cudnn 8.9.7.29-cuda12 (%s/dn, left in place)\n",
		   fx->root);
	assert_string_equal(out.data, want.data);
	store_version_list_release(&l);
	store_release(&st);
	buf_release(&out);
	buf_release(&want);
	free(cu);
}

static void test_register_uninstall_only_what_cuenv_installed(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct buf out = BUF_INIT, want = BUF_INIT;
	struct store st;

	remove_world(fx, &st);
	assert_int_equal(register_uninstall(&st,
					    listed(&st, KIT_CUDA, "12.4.1", &l),
					    &out, &err),
			 CUENV_E_CONFLICT);
	buf_printf(&want,
		   "cuda 12.4.1 was registered from %s/cu; cuenv does not "
		   "delete files it did not install",
		   fx->root);
	assert_string_equal(err.msg.data, want.data);
	assert_string_equal(err.hint.data,
			    "unregister it: cuenv remove cuda 12.4.1");
	assert_int_equal(out.len, 0);
	err_release(&err);
	assert_int_equal(register_uninstall(&st,
					    listed(&st, KIT_CUDA, "12.2.0", &l),
					    &out, &err),
			 CUENV_OK);
	assert_string_equal(out.data, "uninstalled cuda 12.2.0\n");
	assert_false(fx_exists(fx, "store/versions/cuda/12.2.0"));
	store_version_list_release(&l);
	store_release(&st);
	buf_release(&out);
	buf_release(&want);
}

/* ---- cuenv add ----------------------------------------------------------- */

static void test_register_add_kind_checks_the_options(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	enum kit_kind kind;

	(void)state;
	assert_int_equal(register_add_kind("cuda", "12.4.1", 0, &kind, &err),
			 CUENV_OK);
	assert_int_equal(kind, KIT_CUDA);
	assert_int_equal(register_add_kind("cudnn", NULL, 12, &kind, &err),
			 CUENV_OK);
	assert_int_equal(kind, KIT_CUDNN);
	assert_int_equal(register_add_kind("tensorflow", NULL, 0, &kind, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "add: 'tensorflow' is not cuda or cudnn");
	assert_non_null(strstr(err.hint.data, "cuenv add cuda /usr/local/"));
	assert_int_equal(register_add_kind("cuda", NULL, 12, &kind, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "add: --cuda is for cudnn only");
	assert_int_equal(register_add_kind("cudnn", "../9", 0, &kind, &err),
			 CUENV_E_USAGE);
	err_release(&err);
}

/* What register_add said, as the command would print it. */
struct heard {
	struct buf out, warn;
};

static void heard_said(void *ctx, const char *text)
{
	buf_adds(&((struct heard *)ctx)->out, text);
}

static void heard_warn(void *ctx, const char *msg)
{
	buf_printf(&((struct heard *)ctx)->warn, "warning: %s\n", msg);
}

/* A store at root/store, and the loader's files at root (absent). */
struct adding {
	struct store st;
	struct strv env;
	struct heard h;
	struct register_add ra;
	struct cuenv_err err;
};

static void adding_open(const struct fixture *fx, struct adding *a)
{
	char *root = fx_path(fx, "store");

	memset(a, 0, sizeof(*a));
	buf_init(&a->h.out);
	buf_init(&a->h.warn);
	err_init(&a->err);
	assert_int_equal(store_open(&a->st, root, true, &a->err), CUENV_OK);
	strv_push_take(&a->env, fx_path(fx, "ld.so.conf"));
	strv_push_take(&a->env, fx_path(fx, "ld.so.cache"));
	buf_reset(&a->h.out);
	a->ra = (struct register_add){
	    .st = &a->st, .said = heard_said, .warn = heard_warn, .ctx = &a->h};
	free(root);
}

/* a->env becomes these NAME=VALUE strings, then the loader's files. */
static void adding_env(struct adding *a, const char *const *vars)
{
	struct strv keep = STRV_INIT;
	struct buf v = BUF_INIT;

	for (size_t i = a->env.n - 2; i < a->env.n; i++)
		strv_push(&keep, a->env.v[i]);
	strv_release(&a->env);
	for (size_t i = 0; vars[i]; i++)
		strv_push(&a->env, vars[i]);
	buf_printf(&v, "CUENV_LD_SO_CONF=%s", keep.v[0]);
	strv_push(&a->env, v.data);
	buf_reset(&v);
	buf_printf(&v, "CUENV_LD_SO_CACHE=%s", keep.v[1]);
	strv_push(&a->env, v.data);
	a->ra.envp = a->env.v;
	strv_release(&keep);
	buf_release(&v);
}

static void adding_close(struct adding *a)
{
	store_release(&a->st);
	strv_release(&a->env);
	buf_release(&a->h.out);
	buf_release(&a->h.warn);
	err_release(&a->err);
}

static void toolkit_124(const struct fixture *fx, const char *rel)
{
	struct buf p = BUF_INIT;

	fake_cuda_classic(fx, rel, 12);
	buf_printf(&p, "%s/version.json", rel);
	fx_write(fx, p.data,
		 "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": "
		 "\"12.4.1\"}}\n");
	buf_release(&p);
}

static void test_register_add_says_registered_then_already(void **state)
{
	struct fixture *fx = *state;
	struct adding a;
	const char *none[] = {NULL};
	char *cu = fx_path(fx, "cuda-12.4"), *dn = fx_path(fx, "cudnn");
	struct buf want = BUF_INIT;

	adding_open(fx, &a);
	adding_env(&a, none);
	toolkit_124(fx, "cuda-12.4");
	fake_cudnn_tarball(fx, "cudnn", "9.1.0");
	assert_int_equal(register_add(&a.ra, KIT_CUDA, cu, NULL, 0, &a.err),
			 CUENV_OK);
	buf_printf(&want, "registered cuda 12.4.1 from %s (CUPTI 12)\n", cu);
	assert_string_equal(a.h.out.data, want.data);
	buf_reset(&a.h.out);
	assert_int_equal(register_add(&a.ra, KIT_CUDA, cu, NULL, 0, &a.err),
			 CUENV_OK);
	buf_reset(&want);
	buf_printf(&want, "cuda 12.4.1 is already registered from %s\n", cu);
	assert_string_equal(a.h.out.data, want.data);
	buf_reset(&a.h.out);
	assert_int_equal(register_add(&a.ra, KIT_CUDNN, dn, NULL, 12, &a.err),
			 CUENV_OK);
	buf_reset(&want);
	buf_printf(&want, "registered cudnn 9.1.0 for CUDA 12 from %s\n", dn);
	assert_string_equal(a.h.out.data, want.data);
	buf_reset(&a.h.out);
	/* another folder under the same version: a conflict, nothing said */
	toolkit_124(fx, "other");
	free(cu);
	cu = fx_path(fx, "other");
	assert_int_equal(register_add(&a.ra, KIT_CUDA, cu, NULL, 0, &a.err),
			 CUENV_E_CONFLICT);
	assert_int_equal(register_add(&a.ra, KIT_CUDA, dn, NULL, 0, &a.err),
			 CUENV_E_MANIFEST);
	assert_int_equal(a.h.out.len, 0);
	assert_int_equal(a.h.warn.len, 0);
	adding_close(&a);
	buf_release(&want);
	free(cu);
	free(dn);
}

/* A venv's site-packages (rel) with the CUDA 12.<minor> runtime's wheel
 * and cuDNN 9.1.0.70's, and nvcc's wheel when nvcc. */
static void wheel_site(const struct fixture *fx, const char *rel, int minor,
		       bool nvcc)
{
	static const char *const files[] = {
	    "nvidia/cuda_runtime/lib/libcudart.so.12",
	    "nvidia/cudnn/lib/libcudnn.so.9",
	    "nvidia/cudnn/include/cudnn_version.h",
	    "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD",
	};
	struct buf p = BUF_INIT, text = BUF_INIT;

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		buf_reset(&p);
		buf_printf(&p, "%s/%s", rel, files[i]);
		fx_touch(fx, p.data);
	}
	buf_reset(&p);
	buf_printf(&p, "%s/nvidia/cuda_runtime/include/cuda_runtime_api.h",
		   rel);
	buf_printf(&text, "#define CUDART_VERSION 120%d0\n", minor);
	fx_write(fx, p.data, text.data);
	buf_reset(&p);
	buf_printf(&p, "%s/nvidia/cuda_nvcc/bin/nvcc", rel);
	if (nvcc)
		fx_touch_exec(fx, p.data);
	buf_release(&p);
	buf_release(&text);
}

static void test_register_add_two_venvs_wheels_side_by_side(void **state)
{
	struct fixture *fx = *state;
	struct adding a;
	struct store_version_list l = {0};
	const char *none[] = {NULL};
	char *one = fx_path(fx, "v1/nvidia"), *two = fx_path(fx, "v2/nvidia");
	struct buf want = BUF_INIT, out = BUF_INIT;

	adding_open(fx, &a);
	adding_env(&a, none);
	wheel_site(fx, "v1", 4, true);
	wheel_site(fx, "v2", 1, false);
	assert_int_equal(register_add(&a.ra, KIT_CUDA, one, NULL, 0, &a.err),
			 CUENV_OK);
	/* CUDNN_PATH: the cuDNN wheel's own folder */
	buf_printf(&want,
		   "registered cuda 12.4 from %s (no CUPTI)\n"
		   "registered cudnn 9.1.0.70 for CUDA 12 from %s/cudnn\n",
		   one, one);
	assert_string_equal(a.h.out.data, want.data);
	assert_int_equal(a.h.warn.len, 0);
	buf_reset(&a.h.out);
	/* the second venv: its CUDA, and the same cuDNN is no conflict */
	assert_int_equal(register_add(&a.ra, KIT_CUDA, two, NULL, 0, &a.err),
			 CUENV_OK);
	buf_reset(&want);
	buf_printf(&want,
		   "registered cuda 12.1 from %s (no CUPTI)\n"
		   "cudnn 9.1.0.70-cuda12 is already in the store (%s/cudnn): "
		   "that copy, the same release, is used\n",
		   two, one);
	assert_string_equal(a.h.out.data, want.data);
	/* the runtime's wheels alone have no compiler: said */
	buf_reset(&want);
	buf_printf(&want, "cuda 12.1 from %s has no bin/nvcc: CUDA_HOME", two);
	assert_non_null(strstr(a.h.warn.data, want.data));
	/* removing the first venv's CUDA takes the cuDNN inside it */
	assert_int_equal(register_remove(&a.st,
					 listed(&a.st, KIT_CUDA, "12.4", &l),
					 &out, &a.err),
			 CUENV_OK);
	buf_reset(&want);
	buf_printf(&want,
		   "removed cuda 12.4 (%s, left in place)\n"
		   "removed cudnn 9.1.0.70-cuda12 (inside it)\n",
		   one);
	assert_string_equal(out.data, want.data);
	store_version_list_release(&l);
	adding_close(&a);
	buf_release(&want);
	buf_release(&out);
	free(one);
	free(two);
}

static void test_register_discover_warns_of_what_is_no_toolkit(void **state)
{
	struct fixture *fx = *state;
	struct adding a;
	char *cu = fx_path(fx, "cuda-12.4"), *no = fx_path(fx, "empty");
	struct buf home = BUF_INIT, path = BUF_INIT, want = BUF_INIT;
	const char *both[] = {NULL, NULL, NULL}, *bad[] = {NULL, NULL},
		   *none[] = {"HOME=/h", NULL};

	adding_open(fx, &a);
	toolkit_124(fx, "cuda-12.4");
	fx_mkdir(fx, "empty");
	buf_printf(&path, "CUDA_PATH=%s", cu);
	buf_printf(&home, "CUDA_HOME=%s", no);
	both[0] = path.data;
	both[1] = home.data;
	adding_env(&a, both);
	assert_int_equal(register_discover(&a.ra, &a.err), CUENV_OK);
	buf_printf(&want, "registered cuda 12.4.1 from %s (CUPTI 12)\n", cu);
	assert_string_equal(a.h.out.data, want.data);
	buf_reset(&want);
	buf_printf(&want, "warning: CUDA_HOME=%s: ", no);
	assert_memory_equal(a.h.warn.data, want.data, want.len);
	/* one warning, one line */
	assert_ptr_equal(strchr(a.h.warn.data, '\n'),
			 a.h.warn.data + a.h.warn.len - 1);
	/* again: already registered still counts */
	buf_reset(&a.h.out);
	assert_int_equal(register_discover(&a.ra, &a.err), CUENV_OK);
	assert_non_null(strstr(a.h.out.data, "is already registered"));
	bad[0] = home.data;
	adding_env(&a, bad);
	assert_int_equal(register_discover(&a.ra, &a.err), CUENV_NO);
	assert_string_equal(a.err.msg.data, "add: no toolkit found in "
					    "CUDA_PATH_V*, CUDA_PATH or "
					    "CUDA_HOME");
	assert_string_equal(a.err.hint.data,
			    "register one by its folder: cuenv add cuda PATH");
	adding_env(&a, none);
	assert_int_equal(register_discover(&a.ra, &a.err), CUENV_NO);
	adding_close(&a);
	buf_release(&home);
	buf_release(&path);
	buf_release(&want);
	free(cu);
	free(no);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_register_listable_every_folder),
	    cmocka_unit_test_setup_teardown(
		test_register_record_once_then_same_or_conflict, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_register_describe_each_kind),
	    cmocka_unit_test_setup_teardown(
		test_register_remove_takes_the_cudnn_inside_too, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_register_uninstall_only_what_cuenv_installed, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_register_add_kind_checks_the_options),
	    cmocka_unit_test_setup_teardown(
		test_register_add_says_registered_then_already, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_register_discover_warns_of_what_is_no_toolkit, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_register_add_two_venvs_wheels_side_by_side, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
