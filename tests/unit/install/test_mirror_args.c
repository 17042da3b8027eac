#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvidia/catalog.h"
#include "install/mirror_args.h"

static void test_mirror_check_dir_missing_or_a_writable_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "m"), *file = fx_path(fx, "f");

	assert_int_equal(mirror_check_dir(dir, &err), CUENV_OK); /* made */
	fx_mkdir(fx, "m");
	assert_int_equal(mirror_check_dir(dir, &err), CUENV_OK);
	assert_int_equal(mirror_check_dir("", &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: DIR must not be empty");
	fx_write(fx, "f", "x\n");
	assert_int_equal(mirror_check_dir(file, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "is not a folder"));
	if (geteuid()) { /* root writes anywhere */
		assert_int_equal(chmod(dir, 0555), 0);
		assert_int_equal(mirror_check_dir(dir, &err), CUENV_E_STORE);
		assert_true(!strncmp(err.msg.data, "cannot write to '", 17));
		assert_int_equal(chmod(dir, 0755), 0);
	}
	err_release(&err);
	free(dir);
	free(file);
}

static void test_mirror_source_redist_runfile_or_pypi(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	int source = -1;

	(void)state;
	assert_int_equal(mirror_source_parse("runfile", &source, &err),
			 CUENV_OK);
	assert_int_equal(source, SRC_RUNFILE);
	assert_int_equal(mirror_source_parse("redist", &source, &err),
			 CUENV_OK);
	assert_int_equal(source, SRC_REDIST);
	assert_int_equal(mirror_source_parse("pypi", &source, &err), CUENV_OK);
	assert_int_equal(source, SRC_PYPI);
	assert_int_equal(mirror_source_parse("conda", &source, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: unknown source 'conda'");
	assert_string_equal(err.hint.data, "sources: redist, runfile, pypi");
	err_release(&err);
	source = SRC_REDIST;
	/* what the user typed is shown escaped */
	assert_int_equal(mirror_source_parse("x\ny", &source, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: unknown source 'x\\x0ay'");
	assert_int_equal(source, SRC_REDIST);
	err_release(&err);
}

static void test_mirror_platforms_known_or_this_machine(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv plats = STRV_INIT;

	(void)state;
	assert_int_equal(mirror_platforms_check(&plats, &err), CUENV_OK);
	assert_int_equal(plats.n, 1);
	assert_string_equal(plats.v[0], catalog_platform());
	strv_release(&plats);
	strv_split(&plats, "linux-sbsa,windows-x86_64", ',');
	assert_int_equal(mirror_platforms_check(&plats, &err), CUENV_OK);
	assert_int_equal(plats.n, 2);
	strv_push(&plats, "linux-mips");
	assert_int_equal(mirror_platforms_check(&plats, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "mirror: unknown platform 'linux-mips'");
	assert_non_null(strstr(err.hint.data, "linux-aarch64"));
	strv_release(&plats);
	err_release(&err);
}

/* Each check in turn: the first failure is the one told. */
static void test_mirror_args_check_order(void **state)
{
	struct fixture *fx = *state;
	struct plan_opts io = {0};
	struct strv comps = STRV_INIT;
	char *specs[] = {"12.x"}, *good[] = {"12.4"};
	struct mirror_asked q = {
	    .fors = STRV_INIT, .plats = STRV_INIT, .source = -1, .io = &io};
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *up = "ftp://x";
	char *dir = fx_path(fx, "m"), *file = fx_path(fx, "f");

	assert_int_equal(mirror_args_check(&q, &up, &fo, "/srv/m", &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "mirror: give at least one SPEC or --for");
	assert_string_equal(err.hint.data,
			    "for example: cuenv mirror /srv/m 12.4 --cudnn 9");
	err_release(&err);
	q.specs = specs;
	q.nspecs = 1;
	strv_push(&q.plats, "linux-mips");
	assert_int_equal(
	    plan_opts_parse("mirror", "cuda_cudart", 1, &comps, &io, &err),
	    CUENV_OK);
	/* --components with --runtime-only, before the platform */
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "mirror: "));
	assert_null(strstr(err.msg.data, "linux-mips"));
	err_release(&err);
	io.runtime_only = 0;
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "mirror: unknown platform 'linux-mips'");
	err_release(&err);
	strv_release(&q.plats);
	strv_push(&q.plats, "linux-sbsa");
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: mirror 'ftp://x' is not "
					  "https://, http:// or file://");
	err_release(&err);
	up = "";
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err),
			 CUENV_E_USAGE);
	assert_null(up); /* empty: NVIDIA's host */
	assert_non_null(strstr(err.msg.data, "12.x"));
	err_release(&err);
	q.specs = good;
	q.cupti = "x";
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "cupti"));
	err_release(&err);
	q.cupti = NULL;
	up = "file:///srv/up";
	fx_write(fx, "f", "x\n");
	assert_int_equal(mirror_args_check(&q, &up, &fo, file, &err),
			 CUENV_E_STORE);
	assert_true(fo.allow_file);
	err_release(&err);
	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err), CUENV_OK);
	assert_string_equal(up, "file:///srv/up");
	strv_release(&q.plats);
	strv_release(&comps);
	free(dir);
	free(file);
}

/* No --platform: this machine's. */
static void test_mirror_args_check_platform_default(void **state)
{
	struct plan_opts io = {0};
	char *specs[] = {"12.4"};
	struct mirror_asked q = {.specs = specs,
				 .nspecs = 1,
				 .fors = STRV_INIT,
				 .plats = STRV_INIT,
				 .source = -1,
				 .io = &io};
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *up = NULL;
	struct fixture *fx = *state;
	char *dir = fx_path(fx, "m");

	assert_int_equal(mirror_args_check(&q, &up, &fo, dir, &err), CUENV_OK);
	assert_int_equal(q.plats.n, 1);
	assert_string_equal(q.plats.v[0], catalog_platform());
	assert_null(up);
	strv_release(&q.plats);
	free(dir);
}

static void test_mirror_args_command_and_cache(void **state)
{
	struct fixture *fx = *state;
	char *argv[] = {"mirror", "/srv/m", "12.4", "--cudnn", "9"};
	struct buf out = BUF_INIT, cache = BUF_INIT, want = BUF_INIT;

	mirror_args_command(5, argv, &out);
	assert_string_equal(out.data, "cuenv mirror /srv/m 12.4 --cudnn 9");
	assert_null(mirror_args_cache(fx->root, 0, &cache));
	fx_mkdir(fx, "cache");
	buf_reset(&cache);
	buf_printf(&want, "%s/cache", fx->root);
	assert_string_equal(mirror_args_cache(fx->root, 0, &cache), want.data);
	buf_reset(&cache);
	assert_null(mirror_args_cache(fx->root, 1, &cache));
	buf_release(&out);
	buf_release(&cache);
	buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_mirror_check_dir_missing_or_a_writable_folder, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_mirror_source_redist_runfile_or_pypi),
	    cmocka_unit_test(test_mirror_platforms_known_or_this_machine),
	    cmocka_unit_test_setup_teardown(test_mirror_args_check_order,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_mirror_args_check_platform_default, fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_mirror_args_command_and_cache,
					    fx_setup, fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
