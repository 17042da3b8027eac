#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/register.h"

static void test_register_listable_every_folder(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct install *in = fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/cu");

	(void)state;
	assert_int_equal(register_listable(in, &err), CUENV_OK);
	strv_push(&in->lib, "/opt/cu/a:b");
	assert_int_equal(register_listable(in, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "/opt/cu/a:b"));
	install_free(in);
	in = fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/c:u");
	assert_int_equal(register_listable(in, &err), CUENV_E_USAGE);
	install_free(in);
	err_release(&err);
}

static void test_register_record_once_then_same_or_conflict(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	char *root = fx_path(fx, "store");
	char *a = fx_path(fx, "a"), *b = fx_path(fx, "b");
	struct install *one = fx_install_new(KIT_CUDA, "12.4.1", 12, a),
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
	install_free(one);
	install_free(again);
	install_free(other);
	buf_release(&said);
	buf_release(&want);
	err_release(&err);
	free(root);
	free(a);
	free(b);
}

static void test_register_describe_each_kind(void **state)
{
	struct install *cu = fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/cu");
	struct install *dn = fx_install_new(KIT_CUDNN, "9.1.0", 12, "/opt/dn");
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
	install_free(cu);
	install_free(dn);
	buf_release(&out);
}

/* ---- remove and uninstall ------------------------------------------------- */

/* st's only install of kind named name. */
static struct install *listed(struct store *st, enum kit_kind kind,
			      const char *name, struct install_list *l)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	install_list_release(l);
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
	struct install *v[] = {
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
		install_free(v[i]);
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
	struct install_list l = {0};
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
	install_list_release(&l);
	store_release(&st);
	buf_release(&out);
	buf_release(&want);
	free(cu);
}

static void test_register_uninstall_only_what_cuenv_installed(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct install_list l = {0};
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
	install_list_release(&l);
	store_release(&st);
	buf_release(&out);
	buf_release(&want);
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
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
