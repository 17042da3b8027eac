/* cuenv env's Dockerfile, $GITHUB_ENV and JSON writers. */
#include "fakes/fixture.h"

#include <string.h>

#include "select/envfmt.h"

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

static void test_envfmt_parse_names_each_format(void **state)
{
	struct envfmt f;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("fish", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_SHELL);
	assert_int_equal(f.sh, SHELL_FISH);
	assert_int_equal(envfmt_parse("zsh", &f, &err), CUENV_OK);
	assert_int_equal(f.sh, SHELL_ZSH);
	assert_int_equal(envfmt_parse("powershell", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_POWERSHELL);
	assert_int_equal(envfmt_parse("cmd", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_CMD);
	assert_int_equal(envfmt_parse("github", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_GITHUB);
	assert_string_equal(f.name, "github");
	assert_int_equal(envfmt_parse("dockerfile", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_DOCKERFILE);
	assert_int_equal(envfmt_parse("json", &f, &err), CUENV_OK);
	assert_int_equal(f.kind, ENVFMT_JSON);
	err_release(&err);
}

/* pwsh is the hook's name for PowerShell; env says powershell. */
static void test_envfmt_parse_refuses_pwsh_and_unknown(void **state)
{
	struct envfmt f;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("pwsh", &f, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "env: unknown format 'pwsh'");
	assert_string_equal(err.hint.data,
			    "formats: sh, bash, zsh, fish, json, dockerfile, "
			    "github, cmd, powershell");
	err_release(&err);
	assert_int_equal(envfmt_parse("yaml", &f, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "env: unknown format 'yaml'");
	err_release(&err);
}

static struct env_change some[] = {
    {.name = "CUDA_HOME", .value = "/c/12.4"},
    {.name = "CPATH", .value = NULL},
    {.name = "__CUENV_STATE", .value = "s"},
};

static void test_envfmt_write_github_warns_of_unset(void **state)
{
	struct env_changes ch = {.v = some, .n = 3};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("github", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_string_equal(out.data, "CUDA_HOME=/c/12.4\n");
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0], "CPATH is unset by the selection; github "
				    "cannot unset it");
	strv_release(&w);
	buf_release(&out);
	err_release(&err);
}

static void test_envfmt_write_dockerfile_stops_at_newline(void **state)
{
	struct env_change v[] = {
	    {.name = "A", .value = "1"},
	    {.name = "B", .value = NULL},
	    {.name = "C", .value = "x\ny"},
	    {.name = "D", .value = "2"},
	};
	struct env_changes ch = {.v = v, .n = 4};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("dockerfile", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "env: C holds a newline, which a "
					  "Dockerfile ENV line cannot carry");
	assert_string_equal(out.data, "ENV A=\"1\"\n");
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0], "B is unset by the selection; dockerfile "
				    "cannot unset it");
	strv_release(&w);
	buf_release(&out);
	err_release(&err);
}

static void test_envfmt_write_cmd_refuses_bang_and_line_break(void **state)
{
	struct env_change v[] = {{.name = "X", .value = "a!b"}};
	struct env_changes ch = {.v = v, .n = 1};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("cmd", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "env: X holds '!' (delayed expansion would expand "
			    "it), which cmd's set cannot carry");
	err_release(&err);
	v[0].value = "a\rb";
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "env: X holds a line break, which "
					  "cmd's set cannot carry");
	err_release(&err);
	strv_release(&w);
	buf_release(&out);
}

/* PowerShell: ASCII whatever the value; one that is not UTF-8 refused. */
static void test_envfmt_write_powershell_ascii_or_refused(void **state)
{
	struct env_change v[] = {{.name = "X", .value = "C:\\\xd1\x92"}};
	struct env_changes ch = {.v = v, .n = 1};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("powershell", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_string_equal(out.data, "$env:X = \"C:\\$([char]0x0452)\"\n");
	v[0].value = "C:\\\xd1";
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "env: X holds bytes that are not "
					  "UTF-8, which PowerShell cannot "
					  "carry");
	err_release(&err);
	strv_release(&w);
	buf_release(&out);
}

/* No Windows hook reads __CUENV_STATE: cmd and PowerShell leave it out. */
static void test_envfmt_write_windows_without_state(void **state)
{
	struct env_changes ch = {.v = some, .n = 3};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("cmd", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_string_equal(out.data, "\"CUDA_HOME=/c/12.4\"\n\"CPATH=\"\n");
	buf_reset(&out);
	assert_int_equal(envfmt_parse("powershell", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_non_null(strstr(out.data, "$env:CUDA_HOME = "));
	assert_null(strstr(out.data, "__CUENV_STATE"));
	assert_int_equal(w.n, 0);
	strv_release(&w);
	buf_release(&out);
	err_release(&err);
}

static void test_envfmt_write_shell_and_json(void **state)
{
	struct env_changes ch = {.v = some, .n = 3};
	struct envfmt f;
	struct buf out = BUF_INIT;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(envfmt_parse("sh", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_non_null(strstr(out.data, "export CUDA_HOME="));
	assert_non_null(strstr(out.data, "unset CPATH;\n"));
	assert_non_null(strstr(out.data, "__CUENV_STATE"));
	buf_reset(&out);
	assert_int_equal(envfmt_parse("fish", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_non_null(strstr(out.data, "set -e CPATH;\n"));
	buf_reset(&out);
	assert_int_equal(envfmt_parse("json", &f, &err), CUENV_OK);
	assert_int_equal(envfmt_write(&f, &ch, &out, &w, &err), CUENV_OK);
	assert_string_equal(out.data, "{\n"
				      "  \"CPATH\": null,\n"
				      "  \"CUDA_HOME\": \"/c/12.4\"\n"
				      "}\n");
	assert_int_equal(w.n, 0);
	strv_release(&w);
	buf_release(&out);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
		test_envfmt_dockerfile_escapes_and_refuses_newlines),
	    cmocka_unit_test(test_envfmt_github_delimiter_not_in_the_value),
	    cmocka_unit_test(test_envfmt_json_sorted_null_for_unset),
	    cmocka_unit_test(test_envfmt_parse_names_each_format),
	    cmocka_unit_test(test_envfmt_parse_refuses_pwsh_and_unknown),
	    cmocka_unit_test(test_envfmt_write_github_warns_of_unset),
	    cmocka_unit_test(test_envfmt_write_dockerfile_stops_at_newline),
	    cmocka_unit_test(test_envfmt_write_cmd_refuses_bang_and_line_break),
	    cmocka_unit_test(test_envfmt_write_powershell_ascii_or_refused),
	    cmocka_unit_test(test_envfmt_write_windows_without_state),
	    cmocka_unit_test(test_envfmt_write_shell_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
