/* Which catalogue releases list-remote shows, and in which order. */
#include "fakes/fixture.h"

#include <stdlib.h>

#include "../../core/listing.h"

static struct release r[] = {
    {.kind = KIT_CUDA,
     .version = "12.4.1",
     .cuda_major = 12,
     .source = SRC_REDIST},
    {.kind = KIT_CUDNN,
     .version = "9.1.0.70",
     .cuda_major = 12,
     .source = SRC_REDIST},
    {.kind = KIT_CUDA,
     .version = "12.4.0",
     .cuda_major = 12,
     .source = SRC_REDIST},
    {.kind = KIT_CUDA,
     .version = "11.8.0",
     .cuda_major = 11,
     .source = SRC_REDIST},
    {.kind = KIT_CUDA,
     .version = "11.8.0",
     .cuda_major = 11,
     .source = SRC_RUNFILE},
    {.kind = KIT_CUDNN,
     .version = "9.1.0.70",
     .cuda_major = 11,
     .source = SRC_REDIST},
    {.kind = KIT_CUDNN,
     .version = "8.9.7.29",
     .cuda_major = 12,
     .source = SRC_REDIST},
};
static struct release *v[] = {&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6]};
static const struct catalog cat = {.v = v, .n = 7};

static void test_listing_newest_of_each_minor_cuda_first(void **state)
{
	const struct release **out;
	size_t n;

	(void)state;
	listing_select(&cat, -1, NULL, 0, &out, &n);
	/* 12.4.0 gives way to 12.4.1; 11.8.0's redist copy is the shown one */
	assert_int_equal(n, 5);
	assert_ptr_equal(out[0], &r[3]);
	assert_ptr_equal(out[1], &r[0]);
	assert_ptr_equal(out[2], &r[6]);
	assert_ptr_equal(out[3], &r[5]); /* 9.1 for CUDA 11 before 12 */
	assert_ptr_equal(out[4], &r[1]);
	free(out);
}

static void test_listing_all_kind_and_prefix(void **state)
{
	const struct release **out;
	size_t n;

	(void)state;
	listing_select(&cat, KIT_CUDA, NULL, 1, &out, &n);
	assert_int_equal(n, 4);
	assert_ptr_equal(out[0], &r[4]); /* runfile before redist */
	assert_ptr_equal(out[1], &r[3]);
	assert_ptr_equal(out[2], &r[2]);
	assert_ptr_equal(out[3], &r[0]);
	free(out);
	listing_select(&cat, KIT_CUDNN, "9", 0, &out, &n);
	assert_int_equal(n, 2);
	assert_ptr_equal(out[0], &r[5]);
	assert_ptr_equal(out[1], &r[1]);
	free(out);
	listing_select(&cat, -1, "13", 1, &out, &n);
	assert_int_equal(n, 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_listing_newest_of_each_minor_cuda_first),
	    cmocka_unit_test(test_listing_all_kind_and_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
