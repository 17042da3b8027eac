#include "fakes/fixture.h"

#include <stdlib.h>

#include "base/pep440.h"

/* The versions of real wheels on the index, and PEP 440's own examples. */
static void test_pep440_reads_real_versions(void **state)
{
	static const char *const ok[] = {
	    "2.16.1",
	    "0.0.28.post3",
	    "2.15.0.post1",
	    "2.1.2+cu121",
	    "1!2.0",
	    "1.0rc1",
	    "1.0.dev456",
	    "1.0a12.dev456",
	    "1.0b2.post345.dev456",
	    "v1.0",
	    "2026.10.19.post1",
	    "1.0-1",
	    "1.0.RC-1",
	    "1.0_alpha.2",
	    "1.0+ubuntu-1",
	    "0.4.25+cuda11.cudnn86",
	};
	static const char *const bad[] = {
	    "",	    "1.",  "1..0",   ".1", "1.0+",    "1.0+a..b",     "1.0 ",
	    "1.0-", "abc", "1.0foo", "1!", "1.0+a/b", "1234567890.0",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		if (!pep440_valid(ok[i]))
			fail_msg("'%s' should be a version", ok[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (pep440_valid(bad[i]))
			fail_msg("'%s' should not be a version", bad[i]);
}

/* PEP 440's order, each one before the next. */
static void test_pep440_orders_as_pep_440(void **state)
{
	static const char *const order[] = {
	    "1.0.dev456",    "1.0a1",
	    "1.0a2.dev456",  "1.0a12.dev456",
	    "1.0a12",	     "1.0b1.dev456",
	    "1.0b2",	     "1.0b2.post345.dev456",
	    "1.0b2.post345", "1.0rc1.dev456",
	    "1.0rc1",	     "1.0",
	    "1.0+abc.5",     "1.0+abc.7",
	    "1.0+5",	     "1.0.post456.dev34",
	    "1.0.post456",   "1.1.dev1",
	    "1!0.1",
	};

	(void)state;
	for (size_t i = 0; i + 1 < sizeof(order) / sizeof(*order); i++)
		if (pep440_cmp_str(order[i], order[i + 1]) >= 0 ||
		    pep440_cmp_str(order[i + 1], order[i]) <= 0)
			fail_msg("'%s' should sort before '%s'", order[i],
				 order[i + 1]);
	assert_int_equal(pep440_cmp_str("1.0", "1.0.0"), 0);
	assert_int_equal(pep440_cmp_str("1.0.RC-1", "1.0rc1"), 0);
	assert_int_equal(pep440_cmp_str("1.0-1", "1.0.post1"), 0);
	assert_true(pep440_cmp_str("0.0.28.post3", "0.0.28") > 0);
	assert_true(pep440_cmp_str("0.0.28.post3", "0.0.29") < 0);
	/* numbers by value, not by text */
	assert_true(pep440_cmp_str("1.10", "1.9") > 0);
}

static void test_pep440_equal_spec_ignores_a_local_it_lacks(void **state)
{
	(void)state;
	assert_true(pep440_equal_spec("2.1.2+cu121", "2.1.2"));
	assert_true(pep440_equal_spec("2.1.2+cu121", "2.1.2+cu121"));
	assert_false(pep440_equal_spec("2.1.2+cu118", "2.1.2+cu121"));
	assert_false(pep440_equal_spec("2.1.2", "2.1.2+cu121"));
	assert_true(pep440_equal_spec("0.0.28.post3", "0.0.28.post3"));
	assert_false(pep440_equal_spec("0.0.28.post3", "0.0.28"));
	assert_true(pep440_equal_spec("2.0", "2.0.0"));
	assert_false(pep440_equal_spec("2.0", "not a version"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pep440_reads_real_versions),
	    cmocka_unit_test(test_pep440_orders_as_pep_440),
	    cmocka_unit_test(test_pep440_equal_spec_ignores_a_local_it_lacks),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
