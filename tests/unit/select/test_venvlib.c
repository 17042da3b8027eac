/*
 * The Python environment in use and its NVIDIA wheels' folders: which
 * environment is found (VIRTUAL_ENV, CONDA_PREFIX, PATH's python3), and
 * which of its wheels a selection's library folders would shadow.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "select/venvlib.h"

#define SITE "venv/lib/python3.11/site-packages/nvidia"

/* root/venv: a venv with three wheels, and a folder with no library. */
static void make_venv(const struct fixture *fx)
{
	fx_write(fx, "venv/pyvenv.cfg", "home = /usr/bin\n");
	fx_touch_exec(fx, "venv/bin/python3");
	fx_touch(fx, SITE "/cusparse/lib/libcusparse.so.12");
	fx_touch(fx, SITE "/nvjitlink/lib/libnvJitLink.so.12");
	fx_touch(fx, SITE "/cuda_runtime/lib/libcudart.so.12");
	fx_touch(fx, SITE "/cuda_runtime/lib/__init__.py");
	fx_touch(fx, SITE "/cuda_runtime/include/cuda.h");
	fx_touch(fx, SITE "/nvtx/lib/__init__.py");
}

/* An envmap of the one variable name=root/rel (rel NULL: none). */
static void env_of(const struct fixture *fx, const char *name, const char *rel,
		   struct envmap *env)
{
	struct buf var = BUF_INIT;
	char *p = rel ? fx_path(fx, rel) : NULL;

	if (p) {
		buf_printf(&var, "%s=%s", name, p);
		strv_push(&env->vars, var.data);
	}
	strv_push(&env->vars, "PATH=/usr/bin:/bin");
	free(p);
	buf_release(&var);
}

static void assert_dir(const struct fixture *fx, const char *got,
		       const char *rel)
{
	char *want = fx_path(fx, rel);

	assert_string_equal(got, want);
	free(want);
}

static void test_venvlib_finds_virtual_env_wheel_folders(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;

	make_venv(fx);
	env_of(fx, "VIRTUAL_ENV", "venv", &env);
	venv_libs_find(&env, NULL, &v);
	assert_dir(fx, v.prefix, "venv");
	assert_string_equal(v.from, "VIRTUAL_ENV");
	/* name order; nvtx/lib holds no library */
	assert_int_equal(v.dirs.n, 3);
	assert_dir(fx, v.dirs.v[0], SITE "/cuda_runtime/lib");
	assert_dir(fx, v.dirs.v[1], SITE "/cusparse/lib");
	assert_dir(fx, v.dirs.v[2], SITE "/nvjitlink/lib");
	venv_libs_release(&v);
	envmap_release(&env);
}

/*
 * A venv whose packages live elsewhere, named by a .pth file (issue 31
 * item 6): that folder's wheels count as the venv's own.
 */
static void test_venvlib_pth_folder_wheels_count(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;
	char *pkgs = fx_path(fx, "pkgs");
	struct buf pth = BUF_INIT;

	fx_write(fx, "venv/pyvenv.cfg", "home = /usr/bin\n");
	fx_touch(fx, "pkgs/nvidia/cudnn/lib/libcudnn.so.9");
	fx_touch(fx, "rel/nvidia/nvjitlink/lib/libnvJitLink.so.12");
	buf_printf(&pth,
		   "# a comment\n\nimport os; os.environ\n%s\r\n"
		   "../../../../rel\n/does/not/exist\n",
		   pkgs);
	fx_write(fx, "venv/lib/python3.11/site-packages/b.pth", pth.data);
	env_of(fx, "VIRTUAL_ENV", "venv", &env);
	venv_libs_find(&env, NULL, &v);
	assert_int_equal(v.dirs.n, 2);
	assert_dir(fx, v.dirs.v[0], "pkgs/nvidia/cudnn/lib");
	assert_non_null(strstr(v.dirs.v[1], "/rel/nvidia/nvjitlink/lib"));
	venv_libs_release(&v);
	envmap_release(&env);
	buf_release(&pth);
	free(pkgs);
}

static void test_venvlib_conda_prefix_counts_too(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;

	make_venv(fx);
	env_of(fx, "CONDA_PREFIX", "venv", &env);
	venv_libs_find(&env, NULL, &v);
	assert_string_equal(v.from, "CONDA_PREFIX");
	assert_int_equal(v.dirs.n, 3);
	venv_libs_release(&v);
	envmap_release(&env);
}

static void test_venvlib_python3_first_on_path_of_a_venv(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;
	struct buf path = BUF_INIT;
	char *bin = fx_path(fx, "venv/bin");
	char *cfg = fx_path(fx, "venv/pyvenv.cfg");

	make_venv(fx);
	buf_printf(&path, "PATH=%s:/usr/bin:/bin", bin);
	strv_push(&env.vars, path.data);
	venv_libs_find(&env, NULL, &v);
	assert_dir(fx, v.prefix, "venv");
	assert_string_equal(v.from, "PATH");
	assert_int_equal(v.dirs.n, 3);
	venv_libs_release(&v);
	/* without pyvenv.cfg it is no venv */
	assert_int_equal(remove(cfg), 0);
	venv_libs_find(&env, NULL, &v);
	assert_null(v.prefix);
	assert_int_equal(v.dirs.n, 0);
	venv_libs_release(&v);
	envmap_release(&env);
	buf_release(&path);
	free(bin);
	free(cfg);
}

static void test_venvlib_no_environment_finds_nothing(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;

	make_venv(fx);
	env_of(fx, "VIRTUAL_ENV", NULL, &env);
	strv_push(&env.vars, "CONDA_PREFIX=relative/env");
	venv_libs_find(&env, NULL, &v);
	assert_null(v.prefix);
	assert_int_equal(v.dirs.n, 0);
	envmap_release(&env);
}

static void test_venvlib_shadowed_names_the_shared_sonames(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;
	struct strv sel = STRV_INIT, first = STRV_INIT, names = STRV_INIT;
	char *lib = fx_path(fx, "cuda-12.0/lib64");

	make_venv(fx);
	/* the selection ships nvJitLink and cudart, not cuSPARSE */
	fx_touch(fx, "cuda-12.0/lib64/libnvJitLink.so.12");
	fx_touch(fx, "cuda-12.0/lib64/libcudart.so.12");
	fx_touch(fx, "cuda-12.0/lib64/libcufft.so.11");
	strv_push(&sel, lib);
	env_of(fx, "VIRTUAL_ENV", "venv", &env);
	venv_libs_find(&env, NULL, &v);
	assert_int_equal(venv_libs_shadowed(&v, &sel, &first, &names), 2);
	assert_int_equal(first.n, 2);
	assert_dir(fx, first.v[0], SITE "/cuda_runtime/lib");
	assert_dir(fx, first.v[1], SITE "/nvjitlink/lib");
	assert_int_equal(names.n, 2);
	assert_string_equal(names.v[0], "libcudart.so.12");
	assert_string_equal(names.v[1], "libnvJitLink.so.12");
	strv_release(&first);
	strv_release(&names);
	venv_libs_release(&v);
	envmap_release(&env);
	strv_release(&sel);
	free(lib);
}

static void test_venvlib_selection_of_the_wheels_shadows_nothing(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct venv_libs v = VENV_LIBS_INIT;
	struct strv sel = STRV_INIT, first = STRV_INIT, names = STRV_INIT;

	make_venv(fx);
	env_of(fx, "VIRTUAL_ENV", "venv", &env);
	venv_libs_find(&env, NULL, &v);
	/* registered from the venv itself: its folders are the selection's */
	for (size_t i = 0; i < v.dirs.n; i++)
		strv_push(&sel, v.dirs.v[i]);
	assert_int_equal(venv_libs_shadowed(&v, &sel, &first, &names), 0);
	assert_int_equal(first.n, 0);
	strv_release(&first);
	strv_release(&names);
	venv_libs_release(&v);
	envmap_release(&env);
	strv_release(&sel);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_venvlib_finds_virtual_env_wheel_folders),
	    T(test_venvlib_conda_prefix_counts_too),
	    T(test_venvlib_pth_folder_wheels_count),
	    T(test_venvlib_python3_first_on_path_of_a_venv),
	    T(test_venvlib_no_environment_finds_nothing),
	    T(test_venvlib_shadowed_names_the_shared_sonames),
	    T(test_venvlib_selection_of_the_wheels_shadows_nothing),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
