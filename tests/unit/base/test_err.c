#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static void test_err_init_is_ok_and_empty(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct cuenv_err err2;

	(void)state;
	err_init(&err2);
	assert_int_equal(err.rc, CUENV_OK);
	assert_string_equal(err.msg.data, "");
	assert_string_equal(err.hint.data, "");
	assert_int_equal(err2.rc, CUENV_OK);
	assert_string_equal(err2.msg.data, "");
	assert_string_equal(err2.hint.data, "");
}

static void test_cuenv_fail_returns_rc_and_records_message(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(cuenv_fail(&err, CUENV_E_STORE, "cannot open '%s': %s",
				    "/x/y", "No such file or directory"),
			 CUENV_E_STORE);
	assert_int_equal(err.rc, CUENV_E_STORE);
	assert_string_equal(err.msg.data,
			    "cannot open '/x/y': No such file or directory");
	assert_string_equal(err.hint.data, "");
	err_release(&err);
}

static void test_cuenv_fail_replaces_earlier_failure_and_hint(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	cuenv_fail(&err, CUENV_E_MANIFEST,
		   "first failure, long enough to "
		   "make the buffer grow past 64 bytes");
	cuenv_hint(&err, "first hint");
	cuenv_fail(&err, CUENV_E_USAGE, "second %d", 2);
	assert_int_equal(err.rc, CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "second 2");
	assert_string_equal(err.hint.data, "");
	err_release(&err);
}

static void test_cuenv_hint_sets_hint_and_returns_recorded_rc(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	cuenv_fail(&err, CUENV_E_NOT_INSTALLED, "cuda %s is not installed",
		   "12.4");
	assert_int_equal(
	    cuenv_hint(&err, "install it: cuenv install %s", "12.4"),
	    CUENV_E_NOT_INSTALLED);
	assert_string_equal(err.hint.data, "install it: cuenv install 12.4");
	assert_string_equal(err.msg.data, "cuda 12.4 is not installed");
	err_release(&err);
}

static void test_cuenv_hint_replaces_earlier_hint(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	cuenv_fail(&err, CUENV_E_STORE, "x");
	cuenv_hint(&err, "one");
	cuenv_hint(&err, "two");
	assert_string_equal(err.hint.data, "two");
	err_release(&err);
}

static void test_err_release_resets_to_ok(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	cuenv_fail(&err, CUENV_E_BUG, "broken");
	cuenv_hint(&err, "report it");
	err_release(&err);
	assert_int_equal(err.rc, CUENV_OK);
	assert_string_equal(err.msg.data, "");
	assert_string_equal(err.hint.data, "");
	/* usable again after release */
	cuenv_fail(&err, CUENV_NO, "again");
	assert_string_equal(err.msg.data, "again");
	err_release(&err);
}

static void test_rc_values_are_fixed(void **state)
{
	(void)state;
	/* Exit statuses are an interface: never renumbered. */
	assert_int_equal(CUENV_OK, 0);
	assert_int_equal(CUENV_NO, 1);
	assert_int_equal(CUENV_E_USAGE, 2);
	assert_int_equal(CUENV_E_MANIFEST, 3);
	assert_int_equal(CUENV_E_FETCH, 4);
	assert_int_equal(CUENV_E_INTEGRITY, 5);
	assert_int_equal(CUENV_E_UNPACK, 6);
	assert_int_equal(CUENV_E_STORE, 7);
	assert_int_equal(CUENV_E_GPU, 8);
	assert_int_equal(CUENV_E_NOT_INSTALLED, 9);
	assert_int_equal(CUENV_E_DOCTOR, 15);
	assert_int_equal(CUENV_E_CONFLICT, 16);
	assert_int_equal(CUENV_E_UNKNOWN, 17);
	assert_int_equal(CUENV_E_BUG, 70);
}

static void test_err_render_message_then_hint(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;

	(void)state;
	cuenv_fail(&err, CUENV_E_USAGE, "'x' is not a %s command", "cuenv");
	err_render(&err, &out);
	assert_string_equal(out.data,
			    "cuenv: error: 'x' is not a cuenv command\n");
	cuenv_hint(&err, "see: cuenv help");
	/* appended to what out holds */
	err_render(&err, &out);
	assert_string_equal(out.data,
			    "cuenv: error: 'x' is not a cuenv command\n"
			    "cuenv: error: 'x' is not a cuenv command\n"
			    "hint: see: cuenv help\n");
	buf_release(&out);
	err_release(&err);
}

/* A value from outside, shown escaped and cut, in the one %s. */
static void test_fail_shown_escapes_and_bounds_the_value(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(cuenv_fail_shown(&err, CUENV_E_USAGE, "a\nb", 64,
					  "bad '%s' (100%%)"),
			 CUENV_E_USAGE);
	assert_int_equal(err.rc, CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "bad 'a\\x0ab' (100%)");
	assert_int_equal(
	    cuenv_fail_shown(&err, CUENV_NO, "0123456789abcdef", 8, "[%s]"),
	    CUENV_NO);
	assert_true(strlen(err.msg.data) < strlen("[0123456789abcdef]"));
	assert_true(!strncmp(err.msg.data, "[01234", 6));
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fail_shown_escapes_and_bounds_the_value),
	    cmocka_unit_test(test_err_init_is_ok_and_empty),
	    cmocka_unit_test(test_cuenv_fail_returns_rc_and_records_message),
	    cmocka_unit_test(test_cuenv_fail_replaces_earlier_failure_and_hint),
	    cmocka_unit_test(test_cuenv_hint_sets_hint_and_returns_recorded_rc),
	    cmocka_unit_test(test_cuenv_hint_replaces_earlier_hint),
	    cmocka_unit_test(test_err_release_resets_to_ok),
	    cmocka_unit_test(test_rc_values_are_fixed),
	    cmocka_unit_test(test_err_render_message_then_hint),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
