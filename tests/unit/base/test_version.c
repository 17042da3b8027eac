#include "fakes/fixture.h"

#include <stdlib.h>

#include "base/buf.h"
#include "base/version.h"

static void assert_parses(const char *s, unsigned n, unsigned long p0,
			  unsigned long p1, unsigned long p2, unsigned long p3)
{
	struct version v;

	if (version_parse(s, &v))
		fail_msg("'%s' should be a version", s);
	assert_int_equal(v.n, n);
	unsigned long want[4] = {p0, p1, p2, p3};
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(v.part[i], want[i]);
	assert_true(version_is_valid(s));
}

static void assert_rejects(const char *s)
{
	struct version v;

	if (!version_parse(s, &v))
		fail_msg("'%s' should not be a version", s);
	assert_false(version_is_valid(s));
}

/* ---- parsing ------------------------------------------------------------- */

static void test_version_parses_one_to_four_parts(void **state)
{
	(void)state;
	assert_parses("12", 1, 12, 0, 0, 0);
	assert_parses("12.4", 2, 12, 4, 0, 0);
	assert_parses("12.4.1", 3, 12, 4, 1, 0);
	assert_parses("9.1.0.70", 4, 9, 1, 0, 70);
}

static void test_version_major(void **state)
{
	(void)state;
	assert_int_equal(version_major("12.4.1"), 12);
	assert_int_equal(version_major("9"), 9);
	assert_int_equal(version_major("999999999.1"), 999999999UL);
	assert_int_equal(version_major("0.9"), 0);
	assert_int_equal(version_major("12.x"), 0);
	assert_int_equal(version_major(""), 0);
}

static void test_version_accepts_zero_parts(void **state)
{
	(void)state;
	assert_parses("0", 1, 0, 0, 0, 0);
	assert_parses("12.0", 2, 12, 0, 0, 0);
	assert_parses("10.0.0.0", 4, 10, 0, 0, 0);
}

static void test_version_accepts_nine_digit_parts(void **state)
{
	(void)state;
	assert_parses("999999999", 1, 999999999, 0, 0, 0);
	assert_parses("1.123456789", 2, 1, 123456789, 0, 0);
}

static void test_version_rejects_leading_zeros(void **state)
{
	(void)state;
	assert_rejects("01");
	assert_rejects("12.04");
	assert_rejects("12.4.00");
	assert_rejects("00");
}

static void test_version_rejects_more_than_four_parts(void **state)
{
	(void)state;
	assert_rejects("1.2.3.4.5");
	assert_rejects("9.1.0.70.1");
}

static void test_version_rejects_more_than_nine_digits(void **state)
{
	(void)state;
	assert_rejects("1234567890");
	assert_rejects("12.4.1234567890");
	assert_rejects("99999999999999999999999"); /* would overflow */
}

static void test_version_rejects_empty_parts(void **state)
{
	(void)state;
	assert_rejects("");
	assert_rejects(".");
	assert_rejects("12.");
	assert_rejects(".12");
	assert_rejects("12..4");
}

static void test_version_rejects_path_characters(void **state)
{
	(void)state;
	assert_rejects("/");
	assert_rejects("..");
	assert_rejects("../../bin");
	assert_rejects("12/4");
	assert_rejects("/etc");
	assert_rejects("12.4/..");
	assert_rejects("12.4.1/../../x");
}

static void test_version_rejects_signs(void **state)
{
	(void)state;
	assert_rejects("+12");
	assert_rejects("-12");
	assert_rejects("12.-4");
	assert_rejects("12.+4");
}

static void test_version_rejects_spaces(void **state)
{
	(void)state;
	assert_rejects(" 12");
	assert_rejects("12 ");
	assert_rejects("12 .4");
	assert_rejects("12. 4");
	assert_rejects("12\t");
	assert_rejects("12\n");
}

static void test_version_rejects_other_characters(void **state)
{
	(void)state;
	assert_rejects("system");
	assert_rejects("12a");
	assert_rejects("v12.4");
	assert_rejects("12.4-rc1");
	assert_rejects("12,4");
	assert_rejects("$(rm -rf ~)");
	assert_rejects("`id`");
}

/* ---- ordering ------------------------------------------------------------ */

static int cmp(const char *a, const char *b)
{
	int c = version_cmp_str(a, b);

	return (c > 0) - (c < 0);
}

static void test_version_orders_numerically(void **state)
{
	(void)state;
	assert_int_equal(cmp("9", "10"), -1);
	assert_int_equal(cmp("12.4", "12.10"), -1);
	assert_int_equal(cmp("12.10", "12.4"), 1);
	assert_int_equal(cmp("11.8.89", "12.0.0"), -1);
	assert_int_equal(cmp("9.1.0.70", "9.1.0.8"), 1);
}

static void test_version_prefix_sorts_before_its_extensions(void **state)
{
	(void)state;
	assert_int_equal(cmp("12.4", "12.4.0"), -1);
	assert_int_equal(cmp("12.4.0", "12.4"), 1);
	assert_int_equal(cmp("12.4.0", "12.4.1"), -1);
	assert_int_equal(cmp("12", "12.0"), -1);
}

static void test_version_builds_order_by_version_then_cuda_major(void **state)
{
	(void)state;
	assert_true(version_cmp_build("9.1.0.70", 12, "9.10.0.1", 11) < 0);
	assert_true(version_cmp_build("9.1.0.70", 11, "9.1.0.70", 12) < 0);
	assert_true(version_cmp_build("9.1.0.70", 12, "9.1.0.70", 11) > 0);
	assert_int_equal(version_cmp_build("12.4", 12, "12.4", 12), 0);
}

static void test_version_equal_versions_compare_equal(void **state)
{
	struct version a, b;

	(void)state;
	assert_int_equal(cmp("12.4.1", "12.4.1"), 0);
	assert_int_equal(version_parse("9.1.0.70", &a), 0);
	assert_int_equal(version_parse("9.1.0.70", &b), 0);
	assert_int_equal(version_cmp(&a, &b), 0);
}

/* ---- matching ------------------------------------------------------------ */

static void test_version_spec_matches_its_extensions(void **state)
{
	(void)state;
	assert_true(version_matches_str("12.4.1", "12.4"));
	assert_true(version_matches_str("12.4.0", "12.4"));
	assert_true(version_matches_str("12.4", "12.4"));
	assert_true(version_matches_str("12.4.1", "12"));
	assert_true(version_matches_str("9.1.0.70", "9.1.0.70"));
}

static void test_version_spec_does_not_match_longer_numbers(void **state)
{
	(void)state;
	assert_false(version_matches_str("12.40", "12.4"));
	assert_false(version_matches_str("12.40.1", "12.4"));
	assert_false(version_matches_str("120.4", "12"));
	assert_false(version_matches_str("1.12", "12"));
}

static void
test_version_longer_spec_does_not_match_shorter_version(void **state)
{
	(void)state;
	assert_false(version_matches_str("12.4", "12.4.1"));
	assert_false(version_matches_str("12", "12.0"));
}

static void test_version_matches_str_rejects_invalid_input(void **state)
{
	(void)state;
	assert_false(version_matches_str("12.4.1", "12.4."));
	assert_false(version_matches_str("12.4.1", ""));
	assert_false(version_matches_str("../12.4", "12"));
	assert_false(version_matches_str("12.4.1", "12.*"));
}

static void test_version_major_minor(void **state)
{
	static const char *const cases[][2] = {
	    {"12.4.1", "12.4"},	  {"9.1.0.70", "9.1"},
	    {"11.8", "11.8"},	  {"12", "12"},
	    {"12.0.0", "12.0"},	  {"12.x", "12.x"},
	    {"../etc", "../etc"}, {"", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct buf b = BUF_INIT;

		buf_adds(&b, "cuda-");
		version_major_minor(cases[i][0], &b);
		assert_memory_equal(b.data, "cuda-", 5);
		assert_string_equal(b.data + 5, cases[i][1]);
		buf_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_parses_one_to_four_parts),
	    cmocka_unit_test(test_version_accepts_zero_parts),
	    cmocka_unit_test(test_version_major),
	    cmocka_unit_test(test_version_accepts_nine_digit_parts),
	    cmocka_unit_test(test_version_rejects_leading_zeros),
	    cmocka_unit_test(test_version_rejects_more_than_four_parts),
	    cmocka_unit_test(test_version_rejects_more_than_nine_digits),
	    cmocka_unit_test(test_version_rejects_empty_parts),
	    cmocka_unit_test(test_version_rejects_path_characters),
	    cmocka_unit_test(test_version_rejects_signs),
	    cmocka_unit_test(test_version_rejects_spaces),
	    cmocka_unit_test(test_version_rejects_other_characters),
	    cmocka_unit_test(test_version_orders_numerically),
	    cmocka_unit_test(test_version_prefix_sorts_before_its_extensions),
	    cmocka_unit_test(
		test_version_builds_order_by_version_then_cuda_major),
	    cmocka_unit_test(test_version_equal_versions_compare_equal),
	    cmocka_unit_test(test_version_spec_matches_its_extensions),
	    cmocka_unit_test(test_version_spec_does_not_match_longer_numbers),
	    cmocka_unit_test(
		test_version_longer_spec_does_not_match_shorter_version),
	    cmocka_unit_test(test_version_matches_str_rejects_invalid_input),
	    cmocka_unit_test(test_version_major_minor),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
