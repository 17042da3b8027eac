/*
 * The three kinds' names, below both the catalogue and the store.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/kit.h"

static void test_kit_names_each_kind_and_reads_it_back(void **state)
{
	static const enum kit_kind kinds[] = {KIT_CUDA, KIT_CUDNN, KIT_CUPTI};
	static const char *const names[] = {"cuda", "cudnn", "cupti"};
	enum kit_kind k;

	(void)state;
	for (size_t i = 0; i < KIT_KINDS; i++) {
		assert_string_equal(kit_kind_name(kinds[i]), names[i]);
		k = KIT_CUPTI;
		assert_int_equal(kit_kind_parse(names[i], &k), 0);
		assert_int_equal(k, kinds[i]);
	}
}

static void test_kit_parse_refuses_other_words_and_keeps_kind(void **state)
{
	enum kit_kind k = KIT_CUDNN;

	(void)state;
	assert_int_equal(kit_kind_parse("CUDA", &k), -1);
	assert_int_equal(kit_kind_parse("cud", &k), -1);
	assert_int_equal(kit_kind_parse("", &k), -1);
	assert_int_equal(k, KIT_CUDNN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kit_names_each_kind_and_reads_it_back),
	    cmocka_unit_test(test_kit_parse_refuses_other_words_and_keeps_kind),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
