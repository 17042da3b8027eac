#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/detect.h"
#include "store/ldsearch.h"

static void test_ldsearch_adds_configured_folders_that_exist(void **state)
{
	struct fixture *fx = *state;
	struct strv defaults = STRV_INIT, out = STRV_INIT;
	struct buf conf = BUF_INIT;
	char *a = fx_path(fx, "a"), *conf_path = fx_path(fx, "ld.so.conf"),
	     *nocache = fx_path(fx, "no-cache"), *real;

	fx_mkdir(fx, "a");
	fx_symlink(fx, "a", "link");
	buf_printf(&conf, "# the loader's own\n%s\n%s/link\n%s/missing\n", a,
		   fx->root, fx->root);
	fx_write(fx, "ld.so.conf", conf.data);
	detect_loader_defaults(&defaults);
	ldsearch_dirs(conf_path, nocache, &out);
	/* the defaults, then a once (its link is the same folder) */
	real = realpath(a, NULL);
	assert_int_equal(out.n, defaults.n + 1);
	assert_string_equal(out.v[out.n - 1], real);
	/* nothing there: only the defaults */
	strv_release(&out);
	ldsearch_dirs(nocache, nocache, &out);
	assert_int_equal(out.n, defaults.n);
	strv_release(&out);
	strv_release(&defaults);
	buf_release(&conf);
	free(real);
	free(a);
	free(conf_path);
	free(nocache);
}

static void test_ldsearch_cache_folders_once_each(void **state)
{
	struct fixture *fx = *state;
	struct strv defaults = STRV_INIT, out = STRV_INIT;
	char *nofile = fx_path(fx, "none");

	if (access("/etc/ld.so.cache", R_OK))
		skip();
	detect_loader_defaults(&defaults);
	ldsearch_dirs(nofile, "/etc/ld.so.cache", &out);
	/* what the cache adds: real folders, none twice, none a default */
	for (size_t i = defaults.n; i < out.n; i++) {
		char *real = realpath(out.v[i], NULL);

		assert_non_null(real);
		assert_string_equal(real, out.v[i]);
		assert_int_equal(strv_find(&defaults, out.v[i]), -1);
		for (size_t k = i + 1; k < out.n; k++)
			assert_string_not_equal(out.v[i], out.v[k]);
		free(real);
	}
	strv_release(&out);
	strv_release(&defaults);
	free(nofile);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_ldsearch_adds_configured_folders_that_exist),
	    T(test_ldsearch_cache_folders_once_each),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
