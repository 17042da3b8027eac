/* Which catalogue releases list-remote shows, and in which order. */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/listing.h"

static struct release r[] = {
    {.kind = KIT_CUDA,
     .version = "12.4.1",
     .cuda_major = 12,
     .source = SRC_REDIST,
     .on_index = true},
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

static void test_listing_words_kind_then_prefix(void **state)
{
	char *w1[] = {"cudnn", "9"}, *w2[] = {"12.4"}, *w3[] = {"cupti"};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *prefix;
	int only;

	(void)state;
	assert_int_equal(listing_words(2, w1, &only, &prefix, &err), CUENV_OK);
	assert_int_equal(only, KIT_CUDNN);
	assert_string_equal(prefix, "9");
	assert_int_equal(listing_words(1, w2, &only, &prefix, &err), CUENV_OK);
	assert_int_equal(only, -1);
	assert_string_equal(prefix, "12.4");
	/* cupti: listed as the CUDA it comes with, so every kind */
	assert_int_equal(listing_words(1, w3, &only, &prefix, &err), CUENV_OK);
	assert_int_equal(only, -1);
	assert_null(prefix);
	assert_int_equal(listing_words(0, w3, &only, &prefix, &err), CUENV_OK);
	assert_int_equal(only, -1);
}

static void test_listing_words_refuses_order_and_strangers(void **state)
{
	char *late[] = {"12", "cuda"}, *twice[] = {"cuda", "cudnn"},
	     *odd[] = {"cuda", "x\ty"};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *prefix;
	int only;

	(void)state;
	assert_int_equal(listing_words(2, late, &only, &prefix, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "list-remote: too many arguments");
	assert_string_equal(err.hint.data, "see: cuenv list-remote --help");
	err_release(&err);
	assert_int_equal(listing_words(2, twice, &only, &prefix, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "list-remote: 'cudnn' is neither cuda, cudnn nor "
			    "a version prefix");
	assert_string_equal(err.hint.data,
			    "for example: cuenv list-remote cudnn 9; see: "
			    "cuenv list-remote --help");
	err_release(&err);
	assert_int_equal(listing_words(2, odd, &only, &prefix, &err),
			 CUENV_E_USAGE);
	assert_null(strchr(err.msg.data, '\t'));
	err_release(&err);
}

static void test_listing_render_text_and_json(void **state)
{
	const struct release *some[] = {&r[4], &r[0], &r[1]};
	struct buf out = BUF_INIT;

	(void)state;
	listing_render(some, 3, 0, &out);
	/* the index's CUDA releases say so (issue 23); cuDNN's are not
	 * tabled */
	assert_string_equal(out.data,
			    "cuda   11.8.0       runfile\n"
			    "cuda   12.4.1       redist, pypi\n"
			    "cudnn  9.1.0.70     for CUDA 12 (redist)\n");
	buf_reset(&out);
	listing_render(some + 2, 1, 1, &out);
	assert_string_equal(out.data, "[\n"
				      "  {\n"
				      "    \"kind\": \"cudnn\",\n"
				      "    \"version\": \"9.1.0.70\",\n"
				      "    \"cuda_major\": 12,\n"
				      "    \"source\": \"redist\",\n"
				      "    \"sources\": [\n"
				      "      \"redist\"\n"
				      "    ]\n"
				      "  }\n"
				      "]\n");
	buf_reset(&out);
	listing_render(some + 1, 1, 1, &out);
	assert_non_null(strstr(out.data, "    \"sources\": [\n"
					 "      \"redist\",\n"
					 "      \"pypi\"\n"
					 "    ]\n"));
	buf_reset(&out);
	listing_render(some, 0, 1, &out);
	assert_string_equal(out.data, "[]\n");
	buf_reset(&out);
	listing_render(some, 0, 0, &out);
	assert_string_equal(out.data, "");
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_listing_newest_of_each_minor_cuda_first),
	    cmocka_unit_test(test_listing_all_kind_and_prefix),
	    cmocka_unit_test(test_listing_words_kind_then_prefix),
	    cmocka_unit_test(test_listing_words_refuses_order_and_strangers),
	    cmocka_unit_test(test_listing_render_text_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
