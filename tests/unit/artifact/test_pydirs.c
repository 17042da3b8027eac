/*
 * The folders a Python searches: its own answer (a shell script stands
 * for python here) and a virtualenv's site-packages.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "artifact/pydirs.h"
#include "base/xalloc.h"

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

static void test_pydirs_venv_of_needs_bin_and_pyvenv_cfg(void **state)
{
	struct fixture *fx = *state;
	char *py = fx_path(fx, "venv/bin/python3");
	char *win = fx_path(fx, "wvenv/Scripts/python.exe");
	char *lib = fx_path(fx, "venv/lib/python3");
	char *bare = fx_path(fx, "plain/bin/python3");
	char *want = fx_path(fx, "venv"), *v;

	fx_mkdir(fx, "venv/bin");
	fx_mkdir(fx, "venv/lib");
	fx_mkdir(fx, "wvenv/Scripts");
	fx_mkdir(fx, "plain/bin");
	fx_write(fx, "venv/pyvenv.cfg", "home = /usr/bin\n");
	fx_write(fx, "wvenv/pyvenv.cfg", "home = C:\\Python311\n");
	v = pydirs_venv_of(py);
	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
	v = pydirs_venv_of(win);
	assert_non_null(v);
	free(v);
	/* not in bin/, or no pyvenv.cfg: no venv */
	assert_null(pydirs_venv_of(lib));
	assert_null(pydirs_venv_of(bare));
	assert_null(pydirs_venv_of("python3"));
	FREE_EACH(py, win, lib, bare, want);
}

/* pydirs_dists_of for the one folder top */
static void dists_of(const char *site, const char *top, struct strv *out)
{
	struct strv tops = STRV_INIT;

	strv_push(&tops, top);
	pydirs_dists_of(site, &tops, out);
	strv_release(&tops);
}

static void test_pydirs_dists_of_top_level_then_record(void **state)
{
	struct fixture *fx = *state;
	struct strv out = STRV_INIT;
	char *site = fx_path(fx, "site");
	struct buf want = BUF_INIT;

	/* cupy's distribution names its packages in top_level.txt */
	fx_write(fx, "site/cupy_cuda12x-13.6.0.dist-info/top_level.txt",
		 "cupy\ncupy_backends\ncupyx\n");
	fx_write(fx, "site/cupy_cuda12x-13.6.0.dist-info/METADATA", "x");
	/* a wheel without one: its RECORD lists the files */
	fx_write(fx, "site/jaxp-0.4.31.dist-info/RECORD",
		 "jax_plugins/xla_cuda12/__init__.py,sha256=x,1\r\n"
		 "jaxp-0.4.31.dist-info/METADATA,,\r\n");
	fx_write(fx, "site/jaxp-0.4.31.dist-info/METADATA", "x");
	/* top_level.txt decides: its RECORD naming cupy/ does not count */
	fx_write(fx, "site/other-1.dist-info/top_level.txt", "other\n");
	fx_write(fx, "site/other-1.dist-info/RECORD", "cupy/x.py,,\n");
	/* a name that only begins like top is not top */
	fx_write(fx, "site/cupyish-1.dist-info/top_level.txt", "cupyx2\n");
	dists_of(site, "cupyx", &out);
	assert_int_equal(out.n, 1);
	buf_printf(&want, "%s/cupy_cuda12x-13.6.0.dist-info/METADATA", site);
	assert_string_equal(out.v[0], want.data);
	strv_release(&out);
	dists_of(site, "cupy", &out);
	assert_int_equal(out.n, 1);
	strv_release(&out);
	dists_of(site, "jax_plugins", &out);
	assert_int_equal(out.n, 1);
	buf_reset(&want);
	buf_printf(&want, "%s/jaxp-0.4.31.dist-info/METADATA", site);
	assert_string_equal(out.v[0], want.data);
	strv_release(&out);
	dists_of(site, "jax", &out); /* jax_plugins/ is not jax/ */
	assert_int_equal(out.n, 0);
	dists_of("/nonexistent", "jax", &out);
	assert_int_equal(out.n, 0);
	/* several folders: each distribution once, in name order */
	{
		struct strv tops = STRV_INIT;

		strv_push(&tops, "jax_plugins");
		strv_push(&tops, "cupyx");
		strv_push(&tops, "cupy");
		pydirs_dists_of(site, &tops, &out);
		assert_int_equal(out.n, 2);
		assert_non_null(strstr(out.v[0], "/cupy_cuda12x-13.6.0."));
		assert_string_equal(out.v[1], want.data);
		strv_release(&tops);
		strv_release(&out);
	}
	buf_release(&want);
	free(site);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_pydirs_ask_keeps_absolute_folders_once),
	    T(test_pydirs_ask_failure_adds_nothing),
	    T(test_pydirs_version_is_major_dot_minor_or_null),
	    T(test_pydirs_venv_site_packages),
	    T(test_pydirs_venv_of_needs_bin_and_pyvenv_cfg),
	    T(test_pydirs_dists_of_top_level_then_record),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
