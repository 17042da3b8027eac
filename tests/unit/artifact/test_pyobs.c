/*
 * A framework's import observed in a child: the answer read back, and
 * every way a child can fail to give one (a shell script stands for
 * python, writing to descriptor 3 as pyobs.c's script does); then the
 * machine's own python3, when there is one, for real.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "artifact/pyobs.h"

static char *const env[] = {"PATH=/usr/bin:/bin", NULL};

/* root/py: a script that runs body. */
static char *python(const struct fixture *fx, const char *body)
{
	return fx_script(fx, "py", body);
}

static void test_pyobs_answer_is_read_once_each(void **state)
{
	struct pyobs o;
	/* $4 is the module, $5 the calls: they reach the child as given */
	char *py = python(*state,
			  "printf '{\"imported\": false, \"error\": \"%s %s\", "
			  "\"executable\": \"/usr/bin/python3.11\", \"maps\": "
			  "[\"/usr/bin/python3.11\", \"/lib/libc.so.6\", "
			  "\"relative.so\", \"/lib/libc.so.6\", 7]}' \"$4\" "
			  "\"$5\" >&3\necho noise\necho more >&2\n");

	pyobs_run(py, env, "torch", "backends.cudnn.version", 0, &o);
	assert_true(o.ran);
	assert_false(o.imported);
	assert_string_equal(o.error, "torch backends.cudnn.version");
	assert_string_equal(o.executable, "/usr/bin/python3.11");
	assert_int_equal(o.maps.n, 2);
	assert_string_equal(o.maps.v[1], "/lib/libc.so.6");
	pyobs_release(&o);
	free(py);
}

static void test_pyobs_no_answer_is_said(void **state)
{
	struct pyobs o;
	char *py = python(*state, "exit 0\n");

	pyobs_run(py, env, "torch", NULL, 0, &o);
	assert_false(o.ran);
	assert_string_equal(o.why, "its answer is not what cuenv asked for");
	pyobs_release(&o);
	free(py);
	py = python(*state, "printf '{\"maps\": []}' >&3\n");
	pyobs_run(py, env, "torch", NULL, 0, &o);
	assert_false(o.ran); /* no "imported": not an answer */
	pyobs_release(&o);
	free(py);
	py = python(*state, "printf '{\"imported\": true, \"maps\": []}' "
			    ">&3\nexit 3\n");
	pyobs_run(py, env, "torch", NULL, 0, &o);
	assert_false(o.ran);
	assert_string_equal(o.why, "it exited with status 3");
	pyobs_release(&o);
	free(py);
}

static void test_pyobs_deadline_kills(void **state)
{
	struct pyobs o;
	char *py = python(*state, "exec sleep 30\n");

	pyobs_run(py, env, "torch", NULL, 300, &o);
	assert_false(o.ran);
	assert_string_equal(o.why, "it did not answer within 1 s");
	pyobs_release(&o);
	free(py);
}

static void test_pyobs_crash_is_the_import_failing(void **state)
{
	struct pyobs o;
	char *py = python(*state, "kill -SEGV $$\n");

	pyobs_run(py, env, "torch", NULL, 0, &o);
	assert_true(o.ran);
	assert_false(o.imported);
	assert_string_equal(o.error,
			    "the import killed the interpreter (signal 11)");
	pyobs_release(&o);
	free(py);
}

static void test_pyobs_parse_rejects_what_is_not_an_answer(void **state)
{
	static const char *const bad[] = {"", "[]",
					  "{\"imported\": 1, \"maps\": []}",
					  "{\"imported\": true, \"maps\": {}}",
					  "{\"imported\": true, \"maps\": ["};
	struct pyobs o;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		memset(&o, 0, sizeof(o));
		assert_false(pyobs_parse(bad[i], strlen(bad[i]), &o));
		assert_false(o.ran);
		assert_non_null(o.why);
		pyobs_release(&o);
	}
}

/* The machine's python3, for real: what it maps, a module it lacks. */
static void test_pyobs_real_python(void **state)
{
	const char *py = "/usr/bin/python3";
	struct pyobs o;
	bool libc = false;

	(void)state;
	if (access(py, X_OK))
		skip();
	pyobs_run(py, env, "json", NULL, 0, &o);
	assert_true(o.ran);
	assert_true(o.imported);
	assert_non_null(o.executable);
	assert_true(strv_find(&o.maps, o.executable) >= 0);
	for (size_t i = 0; i < o.maps.n; i++)
		libc |= strstr(o.maps.v[i], "/libc.so.6") != NULL;
	assert_true(libc);
	pyobs_release(&o);
	pyobs_run(py, env, "cuenv_no_such_module", "?preload", 0, &o);
	assert_true(o.ran);
	assert_false(o.imported);
	assert_non_null(strstr(o.error, "ModuleNotFoundError"));
	pyobs_release(&o);
	/* an optional call the module lacks is skipped; a required one fails */
	pyobs_run(py, env, "json", "?preload_dlls,dumps", 0, &o);
	assert_false(o.imported); /* dumps() without its argument */
	assert_non_null(strstr(o.error, "TypeError"));
	pyobs_release(&o);
	pyobs_run(py, env, "json", "?preload_dlls", 0, &o);
	assert_true(o.imported);
	pyobs_release(&o);
	pyobs_run(py, env, "json", "preload_dlls", 0, &o);
	assert_false(o.imported);
	assert_non_null(strstr(o.error, "AttributeError"));
	pyobs_release(&o);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_pyobs_answer_is_read_once_each),
	    T(test_pyobs_no_answer_is_said),
	    T(test_pyobs_deadline_kills),
	    T(test_pyobs_crash_is_the_import_failing),
	    cmocka_unit_test(test_pyobs_parse_rejects_what_is_not_an_answer),
	    cmocka_unit_test(test_pyobs_real_python),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
