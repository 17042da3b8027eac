#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/catalog.h"
#include "../../core/mirror_args.h"

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

static void test_mirror_source_redist_or_runfile(void **state)
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
	assert_int_equal(mirror_source_parse("pypi", &source, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: unknown source 'pypi'");
	assert_non_null(strstr(err.hint.data, "PyPI mirror"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_mirror_check_dir_missing_or_a_writable_folder, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_mirror_source_redist_or_runfile),
	    cmocka_unit_test(test_mirror_platforms_known_or_this_machine),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
