#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/manifests.h"

#define RUNFILES_HEAD                                                          \
	"cuda_version\tplatform\turl\tsha256\tsource\tcross_check\n"
#define SHA "5f79488b57fe6936bc95a56f9b7e2838ab2f2ee3313b1008942206eebe06352d"
#define RUNFILE(v)                                                             \
	v "\tlinux-x86_64\thttps://developer.download.nvidia.com/x/cuda_" v    \
	  "_linux.run\t" SHA "\ttest\t-\n"

static void test_manifests_data_dir_beside_the_binary(void **state)
{
	struct fixture *fx = *state;
	struct buf out = BUF_INIT;
	char *exe = fx_path(fx, "p/bin/cuenv");
	char *exe2 = fx_path(fx, "p/libexec/cuenv/cuenv-net");
	char *want = fx_path(fx, "p/bin/../share/cuenv/manifests");
	char *src = fx_path(fx, "p/bin/manifests");

	fx_mkdir(fx, "p/bin");
	assert_int_equal(manifests_data_dir(exe, &out), -1);
	assert_int_equal(out.len, 0);
	fx_mkdir(fx, "p/bin/manifests"); /* the source tree's */
	assert_int_equal(manifests_data_dir(exe, &out), 0);
	assert_string_equal(out.data, src);
	fx_mkdir(fx, "p/share/cuenv/manifests"); /* installed: first */
	assert_int_equal(manifests_data_dir(exe, &out), 0);
	assert_string_equal(out.data, want);
	fx_mkdir(fx, "p/libexec/cuenv");
	assert_int_equal(manifests_data_dir(exe2, &out), 0);
	assert_non_null(strstr(out.data, "/p/libexec/cuenv/../../share/cuenv/"
					 "manifests"));
	assert_int_equal(manifests_data_dir(NULL, &out), -1);
	buf_release(&out);
	free(exe);
	free(exe2);
	free(want);
	free(src);
}

static void test_manifests_platform_set_or_this_machine(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *p = NULL;

	(void)state;
	assert_int_equal(manifests_platform(NULL, &p, &err), CUENV_OK);
	assert_string_equal(p, catalog_platform());
	assert_int_equal(manifests_platform("", &p, &err), CUENV_OK);
	assert_string_equal(p, catalog_platform());
	assert_int_equal(manifests_platform("linux-sbsa", &p, &err), CUENV_OK);
	assert_string_equal(p, "linux-sbsa");
	assert_int_equal(manifests_platform("linux-mips", &p, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "CUENV_PLATFORM: unknown platform 'linux-mips'");
	assert_non_null(strstr(err.hint.data, "windows-x86_64"));
	assert_string_equal(p, "linux-sbsa"); /* untouched */
	err_release(&err);
}

static void test_manifests_catalog_shipped_or_only_then_updated(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog cat = {0};
	char *ship = fx_path(fx, "ship"), *only = fx_path(fx, "only");
	char *root = fx_path(fx, "root"), *file = fx_path(fx, "f");

	assert_int_equal(manifests_catalog(&cat, NULL, NULL, root,
					   "linux-x86_64", "/x/cuenv", &err),
			 CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data,
			    "no catalogue found next to '/x/cuenv'");
	assert_non_null(strstr(err.hint.data, "CUENV_MANIFESTS"));
	fx_write(fx, "f", "x");
	assert_int_equal(manifests_catalog(&cat, file, ship, root,
					   "linux-x86_64", "/x/cuenv", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "' is not a folder"));
	catalog_release(&cat);

	fx_write(fx, "ship/cuda-runfiles.tsv", RUNFILES_HEAD RUNFILE("11.2.2"));
	fx_write(fx, "only/cuda-runfiles.tsv", RUNFILES_HEAD RUNFILE("11.3.1"));
	assert_int_equal(manifests_catalog(&cat, "", ship, root, "linux-x86_64",
					   "/x/cuenv", &err),
			 CUENV_OK);
	assert_non_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	assert_null(catalog_find(&cat, KIT_CUDA, "11.3.1", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	/* CUENV_MANIFESTS instead of the shipped folder */
	assert_int_equal(manifests_catalog(&cat, only, ship, root,
					   "linux-x86_64", "/x/cuenv", &err),
			 CUENV_OK);
	assert_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	assert_non_null(catalog_find(&cat, KIT_CUDA, "11.3.1", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	/* what update fetched counts too, even with nothing shipped */
	fx_write(fx, "root/manifests/cuda-runfiles.tsv",
		 RUNFILES_HEAD RUNFILE("11.2.1"));
	assert_int_equal(manifests_catalog(&cat, NULL, NULL, root,
					   "linux-x86_64", "/x/cuenv", &err),
			 CUENV_OK);
	assert_non_null(catalog_find(&cat, KIT_CUDA, "11.2.1", 0, -1));
	catalog_release(&cat);
	err_release(&err);
	free(ship);
	free(only);
	free(root);
	free(file);
}

static void test_manifests_compat_dir(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *ship = fx_path(fx, "ship"), *only = fx_path(fx, "only");

	assert_int_equal(
	    manifests_compat_dir(NULL, NULL, "/x/cuenv", &out, &err),
	    CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, "no compatibility tables found next "
					  "to '/x/cuenv'");
	assert_int_equal(
	    manifests_compat_dir(NULL, ship, "/x/cuenv", &out, &err),
	    CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "no folder '"));
	assert_non_null(strstr(err.msg.data, "/ship/compat'"));
	fx_mkdir(fx, "ship/compat");
	fx_mkdir(fx, "only/compat");
	assert_int_equal(manifests_compat_dir("", ship, "/x/cuenv", &out, &err),
			 CUENV_OK);
	assert_non_null(strstr(out.data, "/ship/compat"));
	assert_int_equal(
	    manifests_compat_dir(only, ship, "/x/cuenv", &out, &err), CUENV_OK);
	assert_non_null(strstr(out.data, "/only/compat"));
	buf_release(&out);
	err_release(&err);
	free(ship);
	free(only);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_manifests_data_dir_beside_the_binary, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_manifests_platform_set_or_this_machine),
	    cmocka_unit_test_setup_teardown(
		test_manifests_catalog_shipped_or_only_then_updated, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(test_manifests_compat_dir, fx_setup,
					    fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
