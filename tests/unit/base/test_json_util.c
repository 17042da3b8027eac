#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_util.h"

static void test_json_str_or_null(void **state)
{
	json_t *j = json_str_or_null("12.4");

	(void)state;
	assert_true(json_is_string(j));
	assert_string_equal(json_string_value(j), "12.4");
	json_decref(j);
	j = json_str_or_null(NULL);
	assert_true(json_is_null(j));
	json_decref(j);
}

static void test_json_strv_keeps_order(void **state)
{
	struct strv v = STRV_INIT;
	json_t *j;

	(void)state;
	j = json_strv(&v);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 0);
	json_decref(j);
	strv_push(&v, "lib64");
	strv_push(&v, "extras/CUPTI/lib64");
	j = json_strv(&v);
	assert_int_equal(json_array_size(j), 2);
	assert_string_equal(json_string_value(json_array_get(j, 0)), "lib64");
	assert_string_equal(json_string_value(json_array_get(j, 1)),
			    "extras/CUPTI/lib64");
	json_decref(j);
	strv_release(&v);
}

static void test_json_add_report_take_indents_and_ends_the_line(void **state)
{
	struct buf out = BUF_INIT;
	json_t *j = json_pack("{s:s, s:[i]}", "a", "x", "b", 1);
	size_t len;

	(void)state;
	buf_adds(&out, "before\n");
	json_add_report_take(&out, j);
	assert_string_equal(out.data, "before\n"
				      "{\n"
				      "  \"a\": \"x\",\n"
				      "  \"b\": [\n"
				      "    1\n"
				      "  ]\n"
				      "}\n");
	len = out.len;
	json_add_report_take(&out, NULL);
	assert_int_equal(out.len, len);
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_str_or_null),
	    cmocka_unit_test(test_json_strv_keeps_order),
	    cmocka_unit_test(
		test_json_add_report_take_indents_and_ends_the_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
