/*
 * cuenv update's fetching and writing, from mirrors and indexes on disk
 * (file://): which manifests are added, what a refused one leaves, and
 * the framework table when the index has nothing to read.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/update.h"

#define SHA_ABC                                                                \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

/* A redist manifest cuenv reads, of CUDA ver, for this machine's platform
 * (make test-aarch64 runs this on aarch64: linux-sbsa). */
static void manifest(const struct fixture *fx, const char *ver)
{
	struct buf rel = BUF_INIT, json = BUF_INIT;

	buf_printf(&rel, "mirror/compute/cuda/redist/redistrib_%s.json", ver);
	buf_printf(&json,
		   "{\"release_label\": \"%s\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"12.4.127\", "
		   "\"%s\": {\"relative_path\": \"c/a.tar.xz\", "
		   "\"sha256\": \"" SHA_ABC "\", \"size\": \"10\"}}}",
		   ver, catalog_platform());
	fx_write(fx, rel.data, json.data);
	buf_release(&rel);
	buf_release(&json);
}

/* update_redist of CUDA from root/mirror into root/store. */
static int redist(const struct fixture *fx, const char *pins,
		  struct strv *added, struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = {0};
	char *mirror = fx_path(fx, "mirror"), *store = fx_path(fx, "store");
	struct buf base = BUF_INIT;
	int rc;

	fo.allow_file = 1;
	buf_printf(&base, "file://%s", mirror);
	fx_mkdir(fx, "store");
	rc = update_redist(store, base.data, &fo, KIT_CUDA, &cat, pins, added,
			   err);
	buf_release(&base);
	free(mirror);
	free(store);
	return rc;
}

static void test_update_redist_adds_what_is_new(void **state)
{
	struct fixture *fx = *state;
	struct strv added = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *text;

	manifest(fx, "12.4.0");
	manifest(fx, "12.4.1");
	fx_write(fx, "mirror/compute/cuda/redist/notes.txt", "not listed\n");
	/* one is there already: not fetched again */
	fx_write(fx, "store/manifests/cuda/redistrib_12.4.1.json", "mine\n");
	assert_int_equal(redist(fx, NULL, &added, &err), CUENV_OK);
	assert_int_equal(added.n, 1);
	assert_string_equal(added.v[0], "12.4.0");
	text = fx_read(fx, "store/manifests/cuda/redistrib_12.4.0.json");
	assert_non_null(strstr(text, "\"release_label\": \"12.4.0\""));
	free(text);
	text = fx_read(fx, "store/manifests/cuda/redistrib_12.4.1.json");
	assert_string_equal(text, "mine\n");
	free(text);
	strv_release(&added);

	/* run again: nothing new */
	assert_int_equal(redist(fx, NULL, &added, &err), CUENV_OK);
	assert_int_equal(added.n, 0);
	strv_release(&added);
	err_release(&err);
}

static void test_update_redist_refused_manifest_is_not_written(void **state)
{
	static const char pins[] =
	    "product\tversion\turl\tsha256\n"
	    "cuda\t12.4.0\thttps://h/redistrib_12.4.0.json\t" SHA_ABC "\n";
	struct fixture *fx = *state;
	struct strv added = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	manifest(fx, "12.4.0");
	assert_int_equal(redist(fx, pins, &added, &err), CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data, "redistrib_12.4.0.json"));
	assert_int_equal(added.n, 0);
	assert_false(
	    fx_exists(fx, "store/manifests/cuda/redistrib_12.4.0.json"));
	strv_release(&added);
	err_release(&err);
}

static void test_update_redist_unreadable_mirror(void **state)
{
	struct fixture *fx = *state;
	struct strv added = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(redist(fx, NULL, &added, &err), CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "cannot read 'file://"));
	assert_non_null(strstr(err.msg.data, "/compute/cuda/redist/'"));
	strv_release(&added);
	err_release(&err);
}

static void test_update_frameworks_empty_index_writes_nothing(void **state)
{
	struct fixture *fx = *state;
	struct update_table t;
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *store = fx_path(fx, "store");
	struct buf index = BUF_INIT, want = BUF_INIT;

	buf_printf(&index, "file://%s/index", store);
	fx_mkdir(fx, "store/index");
	update_table_init(&t);
	assert_int_equal(update_frameworks(store, index.data, &fo, &t, &err),
			 CUENV_E_FETCH);
	buf_printf(&want, "no framework release read from '%s'", index.data);
	assert_string_equal(err.msg.data, want.data);
	/* each project the index cannot list is said, and skipped */
	assert_int_equal(t.skipped.n, 2);
	assert_true(!strncmp(t.skipped.v[0], "torch: ", 7));
	assert_true(!strncmp(t.skipped.v[1], "tensorflow: ", 12));
	assert_int_equal(t.rows, 0);
	assert_false(fx_exists(fx, "store/manifests/compat/frameworks.tsv"));
	update_table_release(&t);
	buf_release(&index);
	buf_release(&want);
	err_release(&err);
	free(store);
}

/* update_all from root/mirror into root/store. */
static int all(const struct fixture *fx, struct buf *said,
	       struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = {0};
	char *mirror = fx_path(fx, "mirror"), *store = fx_path(fx, "store");
	struct buf base = BUF_INIT;
	int rc;

	fo.allow_file = 1;
	buf_printf(&base, "file://%s", mirror);
	fx_mkdir(fx, "store");
	rc = update_all(store, base.data, &fo, &cat, NULL, said, err);
	buf_release(&base);
	free(mirror);
	free(store);
	return rc;
}

/* What was added is said even when cuDNN's folder then cannot be read;
 * the count only when both were. */
static void test_update_all_says_each_added_then_the_count(void **state)
{
	struct fixture *fx = *state;
	struct buf said = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	manifest(fx, "12.4.0");
	assert_int_equal(all(fx, &said, &err), CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "/compute/cudnn/redist/'"));
	assert_string_equal(said.data, "added cuda 12.4.0\n");
	err_release(&err);
	buf_reset(&said);
	fx_mkdir(fx, "mirror/compute/cudnn/redist");
	manifest(fx, "12.5.0");
	assert_int_equal(all(fx, &said, &err), CUENV_OK);
	assert_string_equal(said.data, "added cuda 12.5.0\n1 new manifest\n");
	buf_reset(&said);
	manifest(fx, "12.6.0");
	manifest(fx, "12.6.1");
	assert_int_equal(all(fx, &said, &err), CUENV_OK);
	assert_non_null(strstr(said.data, "added cuda 12.6.0\n"));
	assert_non_null(strstr(said.data, "added cuda 12.6.1\n"));
	assert_non_null(strstr(said.data, "\n2 new manifests\n"));
	buf_reset(&said);
	assert_int_equal(all(fx, &said, &err), CUENV_OK);
	assert_string_equal(said.data, "the catalogue is up to date\n");
	buf_release(&said);
}

static void test_update_base_mirror_or_nvidia(void **state)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct buf base = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(update_base(NULL, &fo, &base, &err), CUENV_OK);
	assert_string_equal(base.data, NVIDIA_BASE);
	buf_reset(&base);
	assert_int_equal(update_base("", &fo, &base, &err), CUENV_OK);
	assert_string_equal(base.data, NVIDIA_BASE);
	buf_reset(&base);
	assert_false(fo.allow_file);
	assert_int_equal(update_base("file:///srv/m//", &fo, &base, &err),
			 CUENV_OK);
	assert_string_equal(base.data, "file:///srv/m");
	assert_true(fo.allow_file);
	assert_false(fo.allow_http);
	buf_reset(&base);
	assert_int_equal(update_base("http://h:8/", &fo, &base, &err),
			 CUENV_OK);
	assert_string_equal(base.data, "http://h:8");
	assert_true(fo.allow_http);
	buf_reset(&base);
	assert_int_equal(update_base("ftp://h/", &fo, &base, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "update: mirror 'ftp://h/' is not "
					  "https://, http:// or file://");
	assert_int_equal(base.len, 0);
	err_release(&err);
	buf_release(&base);
}

/* CUENV_MANIFESTS's own list wins over the shipped one. */
static void test_update_read_pins_from_the_catalogue_in_use(void **state)
{
	struct fixture *fx = *state;
	char *mine = fx_path(fx, "mine"), *shipped = fx_path(fx, "shipped");
	struct buf pins = BUF_INIT;

	fx_write(fx, "mine/redistrib-json-sha256.tsv", "mine\n");
	fx_write(fx, "shipped/redistrib-json-sha256.tsv", "shipped\n");
	assert_int_equal(update_read_pins(mine, shipped, &pins), 1);
	assert_string_equal(pins.data, "mine\n");
	buf_reset(&pins);
	assert_int_equal(update_read_pins("", shipped, &pins), 1);
	assert_string_equal(pins.data, "shipped\n");
	buf_reset(&pins);
	assert_int_equal(update_read_pins(NULL, NULL, &pins), 0);
	fx_mkdir(fx, "empty");
	free(mine);
	mine = fx_path(fx, "empty");
	assert_int_equal(update_read_pins(mine, shipped, &pins), 0);
	buf_release(&pins);
	free(mine);
	free(shipped);
}

static void test_update_table_render_line(void **state)
{
	struct update_table t;
	struct buf out = BUF_INIT;

	(void)state;
	update_table_init(&t);
	t.rows = 12;
	t.bytes = 345678;
	buf_sets(&t.path, "/r/manifests/compat/frameworks.tsv");
	update_table_render(&t, "https://pypi.org/simple", &out);
	assert_string_equal(
	    out.data, "12 framework releases read from "
		      "https://pypi.org/simple (345678 bytes of their "
		      "wheels) into /r/manifests/compat/frameworks.tsv\n");
	update_table_release(&t);
	buf_release(&out);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_update_redist_adds_what_is_new),
	    T(test_update_redist_refused_manifest_is_not_written),
	    T(test_update_redist_unreadable_mirror),
	    T(test_update_frameworks_empty_index_writes_nothing),
	    T(test_update_all_says_each_added_then_the_count),
	    cmocka_unit_test(test_update_base_mirror_or_nvidia),
	    T(test_update_read_pins_from_the_catalogue_in_use),
	    cmocka_unit_test(test_update_table_render_line),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
