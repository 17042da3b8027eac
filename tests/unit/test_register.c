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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_register_listable_every_folder),
	    cmocka_unit_test_setup_teardown(
		test_register_record_once_then_same_or_conflict, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_register_describe_each_kind),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
