#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/manifests.h"

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

/* ---- as the environment says -------------------------------------------- */

/* "NAME=VALUE" for fx's path rel, in b (for an envp). */
static char *var(struct buf *b, const char *name, const struct fixture *fx,
		 const char *rel)
{
	char *path = fx_path(fx, rel);

	buf_reset(b);
	buf_printf(b, "%s=%s", name, path);
	free(path);
	return b->data;
}

static void test_manifests_catalog_env_reads_the_variables(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog cat = {0};
	struct buf only = BUF_INIT;
	char *exe = fx_path(fx, "p/bin/cuenv"), *root = fx_path(fx, "root");
	char *none[] = {NULL};
	char *sbsa[] = {"CUENV_PLATFORM=linux-sbsa", NULL};
	char *mips[] = {"CUENV_PLATFORM=linux-mips", NULL};
	char *instead[] = {NULL, NULL};

	fx_write(fx, "p/bin/manifests/cuda-runfiles.tsv",
		 RUNFILES_HEAD RUNFILE("11.2.2"));
	fx_write(fx, "only/cuda-runfiles.tsv", RUNFILES_HEAD RUNFILE("11.3.1"));
	/* the shipped catalogue beside the binary, for this machine */
	assert_int_equal(
	    manifests_catalog_env(none, root, exe, NULL, &cat, &err), CUENV_OK);
	if (!strcmp(catalog_platform(), "linux-x86_64"))
		assert_non_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	/* CUENV_PLATFORM's, unless a platform is given */
	assert_int_equal(
	    manifests_catalog_env(sbsa, root, exe, NULL, &cat, &err), CUENV_OK);
	assert_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	assert_int_equal(
	    manifests_catalog_env(sbsa, root, exe, "linux-x86_64", &cat, &err),
	    CUENV_OK);
	assert_non_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	assert_int_equal(
	    manifests_catalog_env(mips, root, exe, NULL, &cat, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "CUENV_PLATFORM: unknown platform 'linux-mips'");
	err_release(&err);
	/* CUENV_MANIFESTS instead of the shipped one */
	instead[0] = var(&only, "CUENV_MANIFESTS", fx, "only");
	assert_int_equal(manifests_catalog_env(instead, root, exe,
					       "linux-x86_64", &cat, &err),
			 CUENV_OK);
	assert_null(catalog_find(&cat, KIT_CUDA, "11.2.2", 0, -1));
	assert_non_null(catalog_find(&cat, KIT_CUDA, "11.3.1", 0, -1));
	catalog_release(&cat);
	memset(&cat, 0, sizeof(cat));
	/* no binary to look beside, nothing instead: no catalogue */
	assert_int_equal(
	    manifests_catalog_env(none, root, NULL, "linux-x86_64", &cat, &err),
	    CUENV_E_MANIFEST);
	err_release(&err);
	catalog_release(&cat);
	buf_release(&only);
	free(exe);
	free(root);
}

static void test_manifests_compat_env_reads_the_variables(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, only = BUF_INIT;
	char *exe = fx_path(fx, "p/bin/cuenv");
	char *shipped = fx_path(fx, "p/bin/manifests/compat");
	char *want = fx_path(fx, "only/compat");
	char *none[] = {NULL}, *instead[] = {NULL, NULL};

	fx_mkdir(fx, "p/bin/manifests/compat");
	fx_mkdir(fx, "only/compat");
	assert_int_equal(manifests_compat_env(none, exe, &out, &err), CUENV_OK);
	assert_string_equal(out.data, shipped);
	instead[0] = var(&only, "CUENV_MANIFESTS", fx, "only");
	buf_reset(&out);
	assert_int_equal(manifests_compat_env(instead, exe, &out, &err),
			 CUENV_OK);
	assert_string_equal(out.data, want);
	assert_int_equal(manifests_compat_env(none, NULL, &out, &err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	buf_release(&out);
	buf_release(&only);
	free(exe);
	free(shipped);
	free(want);
}

static void test_manifests_helper_where_it_is_looked_for(void **state)
{
	struct fixture *fx = *state;
	struct buf tried = BUF_INIT, want = BUF_INIT, lx = BUF_INIT;
	char *exe = fx_path(fx, "p/bin/cuenv"), *bin = fx_path(fx, "p/bin");
	char *lxdir = fx_path(fx, "lx");
	char *none[] = {"CUENV_LIBEXEC=", NULL}, *libexec[] = {NULL, NULL};
	char *found;

	/* beside the binary (the build tree) */
	fx_touch_exec(fx, "p/bin/cuenv-probe");
	found = manifests_helper(none, exe, "cuenv-probe", &tried);
	buf_printf(&want, "%s/cuenv-probe", bin);
	assert_string_equal(found, want.data);
	assert_string_equal(tried.data, want.data);
	free(found);
	/* not there, nor in ../libexec/cuenv: each path is named */
	fx_touch(fx, "p/bin/cuenv-net"); /* not executable */
	buf_reset(&tried);
	buf_reset(&want);
	assert_null(manifests_helper(none, exe, "cuenv-net", &tried));
	buf_printf(&want, "%s/cuenv-net, %s/../libexec/cuenv/cuenv-net", bin,
		   bin);
	assert_string_equal(tried.data, want.data);
	/* installed */
	fx_touch_exec(fx, "p/libexec/cuenv/cuenv-net");
	buf_reset(&tried);
	found = manifests_helper(none, exe, "cuenv-net", &tried);
	buf_reset(&want);
	buf_printf(&want, "%s/../libexec/cuenv/cuenv-net", bin);
	assert_string_equal(found, want.data);
	free(found);
	/* CUENV_LIBEXEC first */
	fx_touch_exec(fx, "lx/cuenv-net");
	libexec[0] = var(&lx, "CUENV_LIBEXEC", fx, "lx");
	buf_reset(&tried);
	found = manifests_helper(libexec, exe, "cuenv-net", &tried);
	buf_reset(&want);
	buf_printf(&want, "%s/cuenv-net", lxdir);
	assert_string_equal(found, want.data);
	assert_string_equal(tried.data, want.data);
	free(found);
	/* nowhere to look */
	buf_reset(&tried);
	assert_null(manifests_helper(none, NULL, "cuenv-net", &tried));
	assert_string_equal(tried.data, "");
	buf_release(&tried);
	buf_release(&want);
	buf_release(&lx);
	free(exe);
	free(bin);
	free(lxdir);
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
	    cmocka_unit_test_setup_teardown(
		test_manifests_catalog_env_reads_the_variables, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_manifests_compat_env_reads_the_variables, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_manifests_helper_where_it_is_looked_for, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
