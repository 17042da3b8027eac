#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/compat.h"
#include "fakes/fixture.h"

#define REAL CUENV_SRCDIR "/manifests/compat"

static void test_compat_driver_for_an_exact_release(void **state)
{
	struct driver_req r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_driver(REAL, "12.4.1", &r, &err), CUENV_OK);
	assert_string_equal(r.release, "550.54.15");
	assert_string_equal(r.row, "12.4.1");
	assert_string_equal(r.compat, "525");
	driver_req_release(&r);
}

static void test_compat_driver_for_a_minor_takes_its_newest(void **state)
{
	struct driver_req r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_driver(REAL, "11.2", &r, &err), CUENV_OK);
	assert_string_equal(r.row, "11.2.2");
	assert_string_equal(r.release, "460.32.03");
	assert_string_equal(r.compat, "450");
	driver_req_release(&r);
}

static void test_compat_driver_unknown_release_has_only_compat(void **state)
{
	struct driver_req r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_driver(REAL, "13.9", &r, &err), CUENV_OK);
	assert_null(r.release);
	assert_string_equal(r.compat, "580");
	driver_req_release(&r);
}

static void test_compat_driver_cmp(void **state)
{
	(void)state;
	assert_true(compat_driver_cmp("550.54.15", "560.28.03") < 0);
	assert_true(compat_driver_cmp("560.28.03", "525") > 0);
	assert_int_equal(compat_driver_cmp("550.54.15", "550.54.15"), 0);
	assert_int_equal(compat_driver_cmp("x", "1"), -2);
}

static void test_compat_driver_names_a_bad_table(void **state)
{
	struct fixture *fx = *state;
	struct driver_req r;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "c");

	fx_write(fx, "c/cuda-driver.tsv", "h\n12.4.1\n");
	assert_int_equal(compat_driver(dir, "12.4", &r, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "cuda-driver.tsv"));
	driver_req_release(&r);
	err_release(&err);
	free(dir);
}

static void test_compat_frameworks_tensorflow(void **state)
{
	struct framework_builds b = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_frameworks(REAL, "tensorflow", "2.6", &b, &err),
			 CUENV_OK);
	assert_true(b.n >= 1);
	assert_string_equal(b.v[0].version, "2.6.0");
	assert_string_equal(b.v[0].cuda, "11.2");
	assert_string_equal(b.v[0].cudnn, "8.1");
	framework_builds_release(&b);
}

static void test_compat_frameworks_torch_alias(void **state)
{
	struct framework_builds b = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_frameworks(REAL, "torch", "2.1", &b, &err),
			 CUENV_OK);
	assert_true(b.n >= 2);
	assert_string_equal(b.v[0].framework, "pytorch");
	assert_string_equal(b.v[0].cuda, "11.8");
	framework_builds_release(&b);
	assert_int_equal(compat_frameworks(REAL, "torch", "0.0", &b, &err),
			 CUENV_OK);
	assert_int_equal(b.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compat_driver_for_an_exact_release),
		cmocka_unit_test(test_compat_driver_for_a_minor_takes_its_newest),
		cmocka_unit_test(test_compat_driver_unknown_release_has_only_compat),
		cmocka_unit_test(test_compat_driver_cmp),
		cmocka_unit_test_setup_teardown(test_compat_driver_names_a_bad_table,
						fx_setup, fx_teardown),
		cmocka_unit_test(test_compat_frameworks_tensorflow),
		cmocka_unit_test(test_compat_frameworks_torch_alias),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
