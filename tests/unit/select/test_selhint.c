#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "select/select.h"
#include "select/selhint.h"

static void test_selhint_spec_only_for_the_install_hint(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf spec = BUF_INIT;

	(void)state;
	assert_false(selhint_spec(&err, &spec));
	cuenv_hint(&err, "see: cuenv versions");
	assert_false(selhint_spec(&err, &spec));
	buf_reset(&err.hint);
	cuenv_hint(&err, SELECT_HINT_INSTALL "12.4, or choose another");
	assert_true(selhint_spec(&err, NULL));
	assert_true(selhint_spec(&err, &spec));
	assert_string_equal(spec.data, "12.4");
	buf_reset(&err.hint);
	cuenv_hint(&err, SELECT_HINT_INSTALL "11.8 --cudnn 8");
	assert_true(selhint_spec(&err, &spec));
	assert_string_equal(spec.data, "11.8");
	buf_release(&spec);
	err_release(&err);
}

static void test_selhint_skipped_names_the_folder_in_the_store(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "root");
	struct buf want = BUF_INIT;

	cuenv_hint(&err, SELECT_HINT_INSTALL "12.4");
	assert_false(selhint_skipped(root, &err)); /* no store */
	fx_mkdir(fx, "root/versions/cuda/12.40.1");
	fx_mkdir(fx, "root/versions/cuda/12.3.2");
	assert_false(selhint_skipped(root, &err)); /* 12.4 is not 12.40 */
	assert_string_equal(err.hint.data, SELECT_HINT_INSTALL "12.4");
	assert_false(selhint_skipped(NULL, &err));
	fx_mkdir(fx, "root/versions/cuda/12.4.1");
	assert_true(selhint_skipped(root, &err));
	buf_printf(&want,
		   "cuda 12.4.1 is in the store (%s/versions/cuda/12.4.1), "
		   "but cannot be used; see: cuenv versions",
		   root);
	assert_string_equal(err.hint.data, want.data);
	assert_false(selhint_skipped(root, &err)); /* said once */
	buf_release(&want);
	free(root);
	err_release(&err);
}

static void test_selhint_installable_only_when_the_catalogue_lacks_it(void **s)
{
	struct fixture *fx = *s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog cat = {0};
	char *dir = fx_path(fx, "m");

	fx_write(fx, "m/cuda-runfiles.tsv",
		 "cuda_version\tplatform\turl\tsha256\tsource\tcross_check\n"
		 "11.2.2\tlinux-x86_64\thttps://developer.download.nvidia.com/"
		 "x.run\t5f79488b57fe6936bc95a56f9b7e2838ab2f2ee3313b1008942206"
		 "eebe06352d\ttest\t-\n");
	assert_int_equal(catalog_load(&cat, dir, "linux-x86_64", &err),
			 CUENV_OK);
	cuenv_hint(&err, SELECT_HINT_INSTALL "11.2");
	assert_false(selhint_installable(&cat, &err)); /* it can */
	assert_string_equal(err.hint.data, SELECT_HINT_INSTALL "11.2");
	buf_reset(&err.hint);
	cuenv_hint(&err, SELECT_HINT_INSTALL "10.1");
	assert_true(selhint_installable(&cat, &err));
	assert_true(!strncmp(err.hint.data,
			     "cuda 10.1 is not in cuenv's catalogue (cuenv "
			     "list-remote cuda lists what it can install)",
			     80));
	assert_non_null(strstr(err.hint.data, "cuenv add cuda PATH"));
	catalog_release(&cat);
	err_release(&err);
	free(dir);
}

static void test_selhint_not_installed_skipped_then_catalogue(void **s)
{
	struct fixture *fx = *s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf only = BUF_INIT, bad = BUF_INIT;
	char *root = fx_path(fx, "root"), *m = fx_path(fx, "m");
	char *envp[] = {"CUENV_PLATFORM=linux-x86_64", NULL, NULL};
	const char *lacks = "cuda 10.1 is not in cuenv's catalogue";

	fx_write(fx, "m/cuda-runfiles.tsv",
		 "cuda_version\tplatform\turl\tsha256\tsource\tcross_check\n"
		 "11.2.2\tlinux-x86_64\thttps://developer.download.nvidia.com/"
		 "x.run\t5f79488b57fe6936bc95a56f9b7e2838ab2f2ee3313b1008942206"
		 "eebe06352d\ttest\t-\n");
	fx_mkdir(fx, "root");
	buf_printf(&only, "CUENV_MANIFESTS=%s", m);
	envp[1] = only.data;
	/* the catalogue read as envp says */
	cuenv_hint(&err, SELECT_HINT_INSTALL "10.1");
	selhint_not_installed(envp, root, NULL, 0, &err);
	assert_true(!strncmp(err.hint.data, lacks, strlen(lacks)));
	/* not for the prompt hook, nor without a store */
	buf_reset(&err.hint);
	cuenv_hint(&err, SELECT_HINT_INSTALL "10.1");
	selhint_not_installed(envp, root, NULL, 1, &err);
	assert_string_equal(err.hint.data, SELECT_HINT_INSTALL "10.1");
	selhint_not_installed(envp, NULL, NULL, 0, &err);
	assert_string_equal(err.hint.data, SELECT_HINT_INSTALL "10.1");
	/* a catalogue that cannot be read changes nothing */
	buf_printf(&bad, "CUENV_MANIFESTS=%s/none", m);
	envp[1] = bad.data;
	selhint_not_installed(envp, root, NULL, 0, &err);
	assert_string_equal(err.hint.data, SELECT_HINT_INSTALL "10.1");
	/* skipped in the store: said so, quick or not, and nothing more */
	envp[1] = only.data;
	fx_mkdir(fx, "root/versions/cuda/10.1.2");
	selhint_not_installed(envp, root, NULL, 1, &err);
	assert_true(!strncmp(err.hint.data, "cuda 10.1.2 is in the store", 27));
	buf_reset(&err.hint);
	cuenv_hint(&err, SELECT_HINT_INSTALL "10.1");
	selhint_not_installed(envp, root, NULL, 0, &err);
	assert_true(!strncmp(err.hint.data, "cuda 10.1.2 is in the store", 27));
	buf_release(&only);
	buf_release(&bad);
	err_release(&err);
	free(root);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_selhint_spec_only_for_the_install_hint),
	    cmocka_unit_test_setup_teardown(
		test_selhint_skipped_names_the_folder_in_the_store, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selhint_installable_only_when_the_catalogue_lacks_it,
		fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selhint_not_installed_skipped_then_catalogue, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
