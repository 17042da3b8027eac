#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net/digest.h"
#include "fakes/fixture.h"

static void test_digest_empty_input_is_known_value(void **state)
{
	char hex[DIGEST_HEX_LEN + 1];
	struct digest *d = digest_new();

	(void)state;
	digest_final(d, hex);
	digest_free(d);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
}

static void test_digest_chunked_equals_whole(void **state)
{
	char a[DIGEST_HEX_LEN + 1], b[DIGEST_HEX_LEN + 1];
	const char *s = "The quick brown fox jumps over the lazy dog";
	struct digest *d = digest_new();

	(void)state;
	digest_update(d, s, strlen(s));
	digest_final(d, a);
	digest_free(d);
	d = digest_new();
	for (size_t i = 0; s[i]; i++)
		digest_update(d, s + i, 1);
	digest_final(d, b);
	digest_free(d);
	assert_string_equal(a, b);
	assert_string_equal(a, "d7a8fbb307d7809469ca9abcb0082e4f"
			       "8d5651e46d3cdb762d02d0bf37c9e592");
}

static void test_digest_file_matches_stream(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char hex[DIGEST_HEX_LEN + 1];
	char *path;

	fx_write(fx, "f", "The quick brown fox jumps over the lazy dog");
	path = fx_path(fx, "f");
	assert_int_equal(digest_file(path, hex, &err), CUENV_OK);
	free(path);
	assert_string_equal(hex, "d7a8fbb307d7809469ca9abcb0082e4f"
				 "8d5651e46d3cdb762d02d0bf37c9e592");
}

static void test_digest_file_missing_names_it(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char hex[DIGEST_HEX_LEN + 1];
	char *path = fx_path(fx, "nope");

	assert_int_equal(digest_file(path, hex, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, path));
	free(path);
	err_release(&err);
}

static void test_digest_hex_valid(void **state)
{
	(void)state;
	assert_true(digest_hex_valid("e3b0c44298fc1c149afbf4c8996fb924"
				     "27ae41e4649b934ca495991b7852b855"));
	assert_false(digest_hex_valid("E3B0C44298FC1C149AFBF4C8996FB924"
				      "27AE41E4649B934CA495991B7852B855"));
	assert_false(digest_hex_valid("e3b0"));
	assert_false(digest_hex_valid("e3b0c44298fc1c149afbf4c8996fb924"
				      "27ae41e4649b934ca495991b7852b85g"));
	assert_false(digest_hex_valid("e3b0c44298fc1c149afbf4c8996fb924"
				      "27ae41e4649b934ca495991b7852b8550"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_digest_empty_input_is_known_value),
	    cmocka_unit_test(test_digest_chunked_equals_whole),
	    cmocka_unit_test_setup_teardown(test_digest_file_matches_stream,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_digest_file_missing_names_it,
					    fx_setup, fx_teardown),
	    cmocka_unit_test(test_digest_hex_valid),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
