/*
 * `cuenv needs --python`: the interpreter is a shell script here that
 * answers on descriptor 3 as needs_python_script does, or fails, hangs,
 * says too much or nonsense.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "needs/needs_ask.h"

/* root/bin/py: an executable shell script with body. */
static char *python(const struct fixture *fx, const char *body)
{
	return fx_script(fx, "bin/py", body);
}

/* Ask exe with PATH=root/bin:/usr/bin:/bin; its warnings into w. */
static int ask(const struct fixture *fx, struct needs_python *py,
	       const char *exe, unsigned timeout, struct strv *w,
	       struct cuenv_err *err)
{
	char *bin = fx_path(fx, "bin");
	struct buf path = BUF_INIT;
	char *envp[2];
	int rc;

	buf_printf(&path, "PATH=%s:/usr/bin:/bin", bin);
	envp[0] = path.data;
	envp[1] = NULL;
	needs_python_init(py, exe);
	rc = needs_ask_python(py, envp, timeout, w, err);
	buf_release(&path);
	free(bin);
	return rc;
}

static void test_needs_ask_reads_the_answer_on_fd_3(void **state)
{
	struct fixture *fx = *state;
	struct needs_python py;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *exe = python(fx, "echo 'import noise'\n"
			       "echo '{\"python\": \"3.11.2\", \"frameworks\": "
			       "{\"torch\": {\"version\": \"2.1.2\", "
			       "\"cuda\": \"12.1\"}}}' >&3\n");

	assert_int_equal(ask(fx, &py, exe, 10, &w, &err), CUENV_OK);
	assert_int_equal(w.n, 0);
	assert_string_equal(py.version, "3.11.2");
	assert_string_equal(py.fw[1].version, "2.1.2");
	assert_string_equal(py.fw[1].cuda, "12.1");
	/* jax did not answer: absent, as the report says */
	assert_non_null(py.fw[2].absent);
	assert_true(!strncmp(py.fw[2].absent, "no answer from ", 15));
	needs_python_release(&py);
	strv_release(&w);
	err_release(&err);
	free(exe);
}

static void test_needs_ask_finds_a_name_on_path(void **state)
{
	struct fixture *fx = *state;
	struct needs_python py;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *exe = python(fx, "echo '{\"python\": \"3.12.0\"}' >&3\n");

	assert_int_equal(ask(fx, &py, "py", 10, &w, &err), CUENV_OK);
	assert_string_equal(py.version, "3.12.0");
	assert_string_equal(py.fw[0].absent, "no answer from py");
	needs_python_release(&py);
	strv_release(&w);
	err_release(&err);
	free(exe);
}

static void test_needs_ask_failures_are_warnings(void **state)
{
	static const struct {
		const char *body;
		unsigned timeout;
		const char *warning; /* after "EXE " */
	} cases[] = {
	    {"exit 3\n", 10, "failed while importing the frameworks (exit 3)"},
	    {"kill -KILL $$\n", 10,
	     "failed while importing the frameworks (signal 9)"},
	    {"echo nope >&3\n", 10,
	     "said nothing readable about its frameworks"},
	    {"exec sleep 30\n", 1,
	     "took too long to import the frameworks; stopped it"},
	    {"exec head -c 2000000 /dev/zero >&3\n", 10,
	     "took too long to import the frameworks; stopped it"},
	};
	struct fixture *fx = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct needs_python py;
		struct strv w = STRV_INIT;
		struct cuenv_err err = CUENV_ERR_INIT;
		char *exe = python(fx, cases[i].body);
		struct buf want = BUF_INIT;

		buf_printf(&want, "%s %s", exe, cases[i].warning);
		assert_int_equal(ask(fx, &py, exe, cases[i].timeout, &w, &err),
				 CUENV_OK);
		assert_int_equal(w.n, 1);
		assert_string_equal(w.v[0], want.data);
		assert_non_null(py.fw[0].absent);
		needs_python_release(&py);
		strv_release(&w);
		buf_release(&want);
		err_release(&err);
		free(exe);
	}
}

static void test_needs_ask_unstartable_is_a_usage_error(void **state)
{
	struct fixture *fx = *state;
	struct needs_python py;
	struct strv w = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(ask(fx, &py, "/nonexistent/python3", 10, &w, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "cannot run '/nonexistent/python3': "
					  "No such file or directory");
	assert_string_equal(err.hint.data,
			    "name the interpreter: --python=/path/to/python3");
	assert_int_equal(w.n, 0);
	needs_python_release(&py);
	strv_release(&w);
	err_release(&err);
}

/* --python-version as pip takes it: 3.11 and 311 are cp311; else a
 * usage error naming the value. */
static void test_needs_python_version_tag(void **state)
{
	static const char *const bad[] = {"3.x", "2.7",	   "3.",
					  "",	 "3.1234", "python3"};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf b = BUF_INIT;

	(void)state;
	assert_int_equal(needs_python_version_tag("3.11", &b, &err), CUENV_OK);
	assert_string_equal(b.data, "cp311");
	assert_int_equal(needs_python_version_tag("39", &b, &err), CUENV_OK);
	assert_string_equal(b.data, "cp39");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(needs_python_version_tag(bad[i], &b, &err),
				 CUENV_E_USAGE);
		assert_non_null(strstr(err.msg.data, bad[i]));
		err_release(&err);
		err_init(&err);
	}
	buf_release(&b);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_needs_ask_reads_the_answer_on_fd_3),
	    T(test_needs_ask_finds_a_name_on_path),
	    T(test_needs_ask_failures_are_warnings),
	    T(test_needs_ask_unstartable_is_a_usage_error),
	    cmocka_unit_test(test_needs_python_version_tag),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
