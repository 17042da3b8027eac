#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvidia/compat.h"
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

static void test_compat_driver_windows_column(void **state)
{
	struct driver_req r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_driver_os(REAL, "11.2", 1, &r, &err), CUENV_OK);
	assert_string_equal(r.row, "11.2.2");
	assert_string_equal(r.release, "461.33");
	assert_string_equal(r.compat, "450");
	driver_req_release(&r);
	assert_int_equal(compat_driver_os(REAL, "11.2.0", 1, &r, &err),
			 CUENV_OK);
	assert_string_equal(r.release, "460.82");
	driver_req_release(&r);
	/* no Windows driver is listed for CUDA 13 releases ("N/A") */
	assert_int_equal(compat_driver_os(REAL, "13.0.0", 1, &r, &err),
			 CUENV_OK);
	assert_null(r.release);
	assert_string_equal(r.compat, "580");
	driver_req_release(&r);
	/* and the Linux column is compat_driver's */
	assert_int_equal(compat_driver_os(REAL, "11.2.0", 0, &r, &err),
			 CUENV_OK);
	assert_string_equal(r.release, "460.27.03");
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

static void test_compat_driver_cmp_counts_missing_parts_as_zero(void **state)
{
	(void)state;
	assert_true(compat_driver_cmp("550.54", "550.54.15") < 0);
	assert_true(compat_driver_cmp("550.54.15", "550.54") > 0);
	assert_true(compat_driver_cmp("550", "550.54.15") < 0);
	assert_true(compat_driver_cmp("550.54.15", "550") > 0);
	assert_int_equal(compat_driver_cmp("525", "525.0.0"), 0);
	assert_int_equal(compat_driver_cmp("525.00.00", "525"), 0);
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

/* The real table: torch 2.1's wheel on PyPI is cu121 with cuDNN 8.9.2.26
 * (its METADATA's pin), not RELEASE.md's "stable" 11.8. */
static void test_compat_frameworks_torch_21_is_the_pypi_wheel(void **state)
{
	struct framework_builds b = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_frameworks(REAL, "torch", "2.1", &b, &err),
			 CUENV_OK);
	compat_frameworks_order(&b);
	assert_true(b.n >= 1);
	assert_string_equal(b.v[0].cuda, "12.1");
	assert_string_equal(b.v[0].cudnn, "8.9.2.26");
	assert_non_null(strstr(b.v[0].notes, "PyPI default wheel"));
	framework_builds_release(&b);
	assert_int_equal(compat_frameworks(REAL, "torch", "2.15", &b, &err),
			 CUENV_OK);
	compat_frameworks_order(&b);
	assert_true(b.n >= 1);
	assert_string_equal(b.v[0].cuda, "13.2");
	assert_string_equal(b.v[0].cudnn, "9.26.0.51");
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
	assert_string_equal(b.v[0].cuda, "12.1");
	framework_builds_release(&b);
	assert_int_equal(compat_frameworks(REAL, "torch", "0.0", &b, &err),
			 CUENV_OK);
	assert_int_equal(b.n, 0);
}

/* Rows as frameworks.tsv has them: framework, version, cuda, cudnn,
 * source, notes. */
static const char table[] =
    "framework\tversion\tcuda\tcudnn\tsource\tnotes\n"
    "pytorch\t2.14\t12.6\t9.10.2.21\ts\tstable CUDA variant\n"
    "pytorch\t2.14\t13.2\t9.24.0.43\ts\tstable CUDA variant\n"
    "pytorch\t2.14\t13.0\t9.24.0.43\ts\tstable CUDA variant\n"
    "pytorch\t2.9\t13.0\t9.13.0.50\ts\texperimental CUDA variant\n"
    "pytorch\t2.9\t12.6\t-\ts\tstable CUDA variant\n"
    "pytorch\t2.9\t12.8\t9.10.2.21\ts\tstable CUDA variant\n"
    "tensorflow\ttensorflow_gpu-2.10.0\t11.2\t8.1\ts\tos windows\n"
    "tensorflow\ttensorflow-2.10.0\t11.2\t8.1\ts\tos linux\n"
    "tensorflow\ttensorflow-2.9.0\t11.2\t8.1\ts\tos linux\n";

static void load_table(struct fixture *fx, const char *framework,
		       struct framework_builds *b)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "c");

	fx_write(fx, "c/frameworks.tsv", table);
	assert_int_equal(compat_frameworks(dir, framework, NULL, b, &err),
			 CUENV_OK);
	free(dir);
}

static void test_compat_frameworks_order_newest_release_first(void **state)
{
	struct framework_builds b = {0};

	load_table(*state, "torch", &b);
	compat_frameworks_order(&b);
	assert_int_equal(b.n, 6);
	/* 2.14 (all stable, with a cuDNN): the newest CUDA first */
	assert_string_equal(b.v[0].version, "2.14");
	assert_string_equal(b.v[0].cuda, "13.2");
	assert_string_equal(b.v[1].cuda, "13.0");
	assert_string_equal(b.v[2].cuda, "12.6");
	/* 2.9 after 2.14: versions compare as numbers, not text */
	assert_string_equal(b.v[3].version, "2.9");
	framework_builds_release(&b);
}

static void test_compat_frameworks_order_stable_then_cudnn(void **state)
{
	struct framework_builds b = {0};

	load_table(*state, "pytorch", &b);
	compat_frameworks_order(&b);
	assert_int_equal(b.n, 6);
	assert_string_equal(b.v[3].cuda, "12.8"); /* stable, with a cuDNN */
	assert_string_equal(b.v[4].cuda, "12.6"); /* stable, none given */
	assert_null(b.v[4].cudnn);
	assert_string_equal(b.v[5].cuda, "13.0"); /* experimental */
	framework_builds_release(&b);
}

static void test_compat_frameworks_order_drops_other_os(void **state)
{
	struct framework_builds b = {0};

	load_table(*state, "tensorflow", &b);
	assert_int_equal(b.n, 3);
	compat_frameworks_order(&b);
	assert_int_equal(b.n, 2);
	assert_string_equal(b.v[0].version, "2.10.0");
	assert_string_equal(b.v[0].notes, "os linux");
	assert_string_equal(b.v[1].version, "2.9.0");
	framework_builds_release(&b);
}

/* ---- writing rows ----------------------------------------------------- */

static void test_compat_row_add_reads_back_as_written(void **state)
{
	const char *const row[] = {
	    "pytorch", "2.1", "11.8", "-", "PyPI torch-2.1.2 \xc3\xa9", ""};
	struct buf t = BUF_INIT, f = BUF_INIT;
	struct strv lines = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(compat_row_add(&t, row, 6, "x.tsv", &err), CUENV_OK);
	assert_string_equal(t.data, "pytorch\t2.1\t11.8\t-\tPyPI torch-2.1.2 "
				    "\xc3\xa9\t\n");
	/* read as the tables are: lines, then fields */
	strv_split(&lines, t.data, '\n');
	assert_int_equal(lines.n, 2);
	assert_string_equal(lines.v[1], "");
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(compat_row_field(lines.v[0], i, &f), 1);
		assert_string_equal(f.data, row[i]);
	}
	assert_int_equal(compat_row_field(lines.v[0], 6, &f), 0);
	strv_release(&lines);
	buf_release(&t);
	buf_release(&f);
}

static void test_compat_row_add_refuses_tabs_newlines_controls(void **state)
{
	static const char *const bad[] = {"a\tb", "a\nb",    "a\rb",
					  "\x01", "end\x7f", "\x1b[31m"};
	struct buf t = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	buf_adds(&t, "head\n");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		const char *row[] = {"pytorch", "2.1", bad[i]};

		assert_int_equal(
		    compat_row_add(&t, row, 3, "frameworks.tsv", &err),
		    CUENV_E_MANIFEST);
		/* nothing written; one line, the field shown escaped */
		assert_string_equal(t.data, "head\n");
		assert_null(strchr(err.msg.data, '\n'));
		assert_null(strchr(err.msg.data, '\t'));
		assert_non_null(strstr(err.msg.data, "into frameworks.tsv"));
		err_release(&err);
	}
	buf_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_compat_driver_for_an_exact_release),
	    cmocka_unit_test(test_compat_row_add_reads_back_as_written),
	    cmocka_unit_test(
		test_compat_row_add_refuses_tabs_newlines_controls),
	    cmocka_unit_test(test_compat_driver_for_a_minor_takes_its_newest),
	    cmocka_unit_test(test_compat_driver_windows_column),
	    cmocka_unit_test(
		test_compat_driver_unknown_release_has_only_compat),
	    cmocka_unit_test(test_compat_driver_cmp),
	    cmocka_unit_test(
		test_compat_driver_cmp_counts_missing_parts_as_zero),
	    cmocka_unit_test_setup_teardown(
		test_compat_driver_names_a_bad_table, fx_setup, fx_teardown),
	    cmocka_unit_test(test_compat_frameworks_tensorflow),
	    cmocka_unit_test(test_compat_frameworks_torch_alias),
	    cmocka_unit_test(test_compat_frameworks_torch_21_is_the_pypi_wheel),
	    cmocka_unit_test_setup_teardown(
		test_compat_frameworks_order_newest_release_first, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_compat_frameworks_order_stable_then_cudnn, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_compat_frameworks_order_drops_other_os, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
