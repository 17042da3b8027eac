/*
 * The folders a Python searches: its own answer (a shell script stands
 * for python here) and a virtualenv's site-packages.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "artifact/pydirs.h"

/* root/py: a script that runs body. */
static char *python(const struct fixture *fx, const char *body)
{
	return fx_script(fx, "py", body);
}

static char *const env[] = {"PATH=/usr/bin:/bin", NULL};

static void test_pydirs_ask_keeps_absolute_folders_once(void **state)
{
	struct fixture *fx = *state;
	struct strv dirs = STRV_INIT;
	char *py = python(fx, "echo /usr/lib/python3.11\n"
			      "echo relative/dir\n"
			      "echo /home/u/.local/lib/site-packages\n"
			      "echo /usr/lib/python3.11\n");

	strv_push(&dirs, "/home/u/.local/lib/site-packages");
	pydirs_ask(py, env, &dirs);
	assert_int_equal(dirs.n, 2);
	assert_string_equal(dirs.v[1], "/usr/lib/python3.11");
	strv_release(&dirs);
	free(py);
}

static void test_pydirs_ask_failure_adds_nothing(void **state)
{
	struct fixture *fx = *state;
	struct strv dirs = STRV_INIT;
	char *py = python(fx, "echo /usr/lib/python3.11\nexit 1\n");

	pydirs_ask(py, env, &dirs);
	assert_int_equal(dirs.n, 0);
	free(py);
	py = fx_path(fx, "missing-python");
	pydirs_ask(py, env, &dirs);
	assert_int_equal(dirs.n, 0);
	free(py);
}

static void test_pydirs_version_is_major_dot_minor_or_null(void **state)
{
	struct fixture *fx = *state;
	char *py = python(fx, "echo 3.11\n"), *v = pydirs_version(py, env);

	assert_string_equal(v, "3.11");
	free(v);
	free(py);
	py = python(fx, "echo 3.11; exit 1\n");
	assert_null(pydirs_version(py, env));
	free(py);
	py = python(fx, "echo three\n");
	assert_null(pydirs_version(py, env));
	free(py);
}

static void test_pydirs_venv_site_packages(void **state)
{
	struct fixture *fx = *state;
	struct strv dirs = STRV_INIT;
	char *venv = fx_path(fx, "venv");
	struct buf want = BUF_INIT;

	fx_mkdir(fx, "venv/lib/python3.12/site-packages");
	fx_mkdir(fx, "venv/lib/python3.11/site-packages");
	fx_mkdir(fx, "venv/lib/python3.10"); /* no site-packages */
	fx_mkdir(fx, "venv/lib/other");
	fx_mkdir(fx, "venv/Lib/site-packages"); /* a Windows venv's */
	pydirs_venv(venv, &dirs);
	pydirs_venv(venv, &dirs);   /* once */
	pydirs_venv("venv", &dirs); /* not absolute */
	pydirs_venv(NULL, &dirs);
	/* in name order, the Windows layout last */
	assert_int_equal(dirs.n, 3);
	buf_printf(&want, "%s/lib/python3.11/site-packages", venv);
	assert_string_equal(dirs.v[0], want.data);
	buf_reset(&want);
	buf_printf(&want, "%s/lib/python3.12/site-packages", venv);
	assert_string_equal(dirs.v[1], want.data);
	buf_reset(&want);
	buf_printf(&want, "%s/Lib/site-packages", venv);
	assert_string_equal(dirs.v[2], want.data);
	strv_release(&dirs);
	buf_release(&want);
	free(venv);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_pydirs_ask_keeps_absolute_folders_once),
	    T(test_pydirs_ask_failure_adds_nothing),
	    T(test_pydirs_version_is_major_dot_minor_or_null),
	    T(test_pydirs_venv_site_packages),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
