/* cuenv env's Dockerfile, $GITHUB_ENV and JSON writers. */
#include "fakes/fixture.h"

#include <string.h>

#include "../../core/envfmt.h"

static void test_envfmt_dockerfile_escapes_and_refuses_newlines(void **state)
{
	struct buf out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    envfmt_dockerfile_line("CPATH", "/a \"b\"\\$HOME", &out, &err),
	    CUENV_OK);
	assert_string_equal(out.data,
			    "ENV CPATH=\"/a \\\"b\\\"\\\\\\$HOME\"\n");
	assert_int_equal(envfmt_dockerfile_line("X", "a\nb", &out, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "env: X holds a newline, which a Dockerfile ENV "
			    "line cannot carry");
	err_release(&err);
	buf_release(&out);
}

static void test_envfmt_github_delimiter_not_in_the_value(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	envfmt_github_line("PATH", "/usr/bin", &out);
	assert_string_equal(out.data, "PATH=/usr/bin\n");
	buf_reset(&out);
	envfmt_github_line("X", "a\nCUENV_EOF\nCUENV_EOF_0\r", &out);
	assert_string_equal(out.data, "X<<CUENV_EOF_1\n"
				      "a\nCUENV_EOF\nCUENV_EOF_0\r\n"
				      "CUENV_EOF_1\n");
	buf_release(&out);
}

static void test_envfmt_json_sorted_null_for_unset(void **state)
{
	struct env_change v[] = {
	    {.name = "PATH", .value = "/x/bin:/usr/bin"},
	    {.name = "CUDA_HOME", .value = NULL},
	    {.name = "__CUENV_STATE", .value = "s"},
	};
	struct env_changes ch = {.v = v, .n = 3};
	struct buf out = BUF_INIT;

	(void)state;
	envfmt_json(&ch, &out);
	assert_string_equal(out.data, "{\n"
				      "  \"CUDA_HOME\": null,\n"
				      "  \"PATH\": \"/x/bin:/usr/bin\"\n"
				      "}\n");
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
		test_envfmt_dockerfile_escapes_and_refuses_newlines),
	    cmocka_unit_test(test_envfmt_github_delimiter_not_in_the_value),
	    cmocka_unit_test(test_envfmt_json_sorted_null_for_unset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
