/*
 * cuenv update's decisions (which manifests a listing names, which the
 * catalogue already has, the pinned sha256 of each, the newest wheel of
 * each minor release on the package index), then its fetching and
 * writing, from mirrors and indexes on disk (file://): which manifests
 * are added, what a refused one leaves, and the framework table when the
 * index has nothing to read.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/update.h"

#define SHA_ABC                                                                \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define SHA_0 "0000000000000000000000000000000000000000000000000000000000000000"

static void test_update_listed_names_each_manifest_once(void **state)
{
	/* NVIDIA's HTML index (each name twice: link and text), a checksum
	 * file beside one, names that are no manifest of a version */
	static const char html[] =
	    "<a href=\"redistrib_12.4.1.json\">redistrib_12.4.1.json</a>\n"
	    "<a href=\"redistrib_12.3.0.json\">redistrib_12.3.0.json</a>\n"
	    "<a href=\"redistrib_12.4.1.json.sha256\">x</a>\n"
	    "<a href=\"redistrib_.json\">redistrib_latest.json</a>\n"
	    "<a href=\"redistrib_12..4.json\">notes.txt</a>\n";
	struct strv v = STRV_INIT;

	(void)state;
	update_listed(html, &v);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0], "12.4.1");
	assert_string_equal(v.v[1], "12.3.0");
	/* a mirror folder's names, one a line */
	update_listed("redistrib_11.8.0.json\n.\n..\nredistrib_12.3.0.json\n",
		      &v);
	assert_int_equal(v.n, 3);
	assert_string_equal(v.v[2], "11.8.0");
	strv_release(&v);
}

static void test_update_known_by_kind_and_file_name(void **state)
{
	static const char json[] =
	    "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\","
	    " \"cuda_cudart\": {\"version\": \"12.4.127\","
	    "  \"linux-x86_64\": {\"relative_path\": \"c/a.tar.xz\","
	    "   \"sha256\": \"" SHA_ABC "\", \"size\": \"10\"}}}";
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(catalog_parse_redist(
			     &cat, "/m/cuda/redistrib_12.4.1.json", json,
			     strlen(json), "linux-x86_64", NULL, NULL, &err),
			 CUENV_OK);
	assert_true(update_known(&cat, KIT_CUDA, "12.4.1"));
	assert_false(update_known(&cat, KIT_CUDNN, "12.4.1"));
	assert_false(update_known(&cat, KIT_CUDA, "2.4.1"));
	assert_false(update_known(&cat, KIT_CUDA, "12.4"));
	catalog_release(&cat);
}

static void test_update_pin_reads_the_pin_list(void **state)
{
	static const char pins[] =
	    "product\tversion\turl\tsha256\n"
	    "cuda\t12.4.1\thttps://h/cuda/redistrib_12.4.1.json\t" SHA_ABC "\n"
	    "cudnn\t9.1.0\thttps://h/cudnn/redistrib_9.1.0.json\tNOTHEX\n";
	char *pin;

	(void)state;
	pin = update_pin(pins, "cuda", "12.4.1");
	assert_non_null(pin);
	assert_string_equal(pin, SHA_ABC);
	free(pin);
	assert_null(update_pin(pins, "cuda", "12.4"));
	assert_null(update_pin(pins, "cudnn", "12.4.1"));
	assert_null(update_pin(pins, "cudnn", "9.1.0"));
}

static void test_update_check_pin_compares_sha256(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(update_check_pin(NULL, "u", "abc", 3, &err), CUENV_OK);
	assert_int_equal(update_check_pin(SHA_ABC, "u", "abc", 3, &err),
			 CUENV_OK);
	assert_int_equal(
	    update_check_pin(SHA_0, "https://h/r.json", "abc", 3, &err),
	    CUENV_E_INTEGRITY);
	assert_string_equal(
	    err.msg.data,
	    "sha256 mismatch for 'https://h/r.json': expected " SHA_0
	    ", got " SHA_ABC);
	err_release(&err);
}

/* A CUDA manifest whose release_label is label. */
#define MANIFEST(label)                                                        \
	"{\"release_label\": \"" label "\", \"release_product\": \"cuda\","    \
	" \"cuda_cudart\": {\"version\": \"12.4.127\","                        \
	"  \"linux-x86_64\": {\"relative_path\": \"c/a.tar.xz\","              \
	"   \"sha256\": \"" SHA_ABC "\", \"size\": \"10\"}}}"

static void test_update_accept_pin_parse_and_text(void **state)
{
	static const char json[] = MANIFEST("12.4.1");
	static const char json0[] = MANIFEST("12.4.0");
	static const char pins[] =
	    "product\tversion\turl\tsha256\n"
	    "cuda\t12.4.1\thttps://h/cuda/redistrib_12.4.1.json\t" SHA_0 "\n"
	    "cuda\t12.3.0\thttps://h/cuda/redistrib_12.3.0.json\t" SHA_ABC "\n";
	static const char nul[] = "{\"release_label\": \"12.3.0\"}\0";
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	/* no pin list, or none for this version: parsed and kept */
	assert_int_equal(update_accept(NULL, "https://h/r.json", json,
				       strlen(json), "linux-x86_64", KIT_CUDA,
				       "12.4.1", &err),
			 CUENV_OK);
	assert_int_equal(update_accept(pins, "https://h/r.json", json0,
				       strlen(json0), "linux-x86_64", KIT_CUDA,
				       "12.4.0", &err),
			 CUENV_OK);
	/* pinned to another sha256 */
	assert_int_equal(update_accept(pins, "https://h/r.json", json,
				       strlen(json), "linux-x86_64", KIT_CUDA,
				       "12.4.1", &err),
			 CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data, "https://h/r.json"));
	err_release(&err);
	/* the pin matches ("abc"), but it is no manifest */
	assert_int_equal(update_accept(pins, "https://h/a.json", "abc", 3,
				       "linux-x86_64", KIT_CUDA, "12.3.0",
				       &err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	/* a NUL byte after the JSON text: refused, naming the url */
	assert_int_equal(update_accept(NULL, "https://h/n.json", nul,
				       sizeof(nul) - 1, "linux-x86_64",
				       KIT_CUDA, "12.3.0", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "'https://h/n.json'"));
	err_release(&err);
}

/* A mirror's redistrib_12.4.json that says release_label 12.4.99 (so
 * that `install 12.4` would pick it where no pin exists): refused,
 * naming the URL and both versions. */
static void test_update_accept_refuses_a_label_not_the_file_name(void **state)
{
	static const char json[] = MANIFEST("12.4.99");
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(update_accept(NULL, "file:///m/redistrib_12.4.json",
				       json, strlen(json), "linux-x86_64",
				       KIT_CUDA, "12.4", &err),
			 CUENV_E_MANIFEST);
	assert_string_equal(
	    err.msg.data, "bad catalogue file 'file:///m/redistrib_12.4.json': "
			  "release_label '12.4.99' is not 12.4, as the file "
			  "name says");
	err_release(&err);
}

static void test_update_minor_keeps_two_parts(void **state)
{
	char *m;

	(void)state;
	m = update_minor("2.14.1");
	assert_string_equal(m, "2.14");
	free(m);
	m = update_minor("2.14");
	assert_string_equal(m, "2.14");
	free(m);
	m = update_minor("3");
	assert_string_equal(m, "3");
	free(m);
}

static void test_update_newest_linux_wheel_per_minor(void **state)
{
	struct index_file f[] = {
	    {.name = "torch-2.1.0-cp310-cp310-manylinux1_x86_64.whl"},
	    {.name = "torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl"},
	    {.name = "torch-2.0.1-cp310-none-macosx_11_0_arm64.whl"},
	    {.name = "torch-1.13.1-cp310-cp310-manylinux1_x86_64.whl"},
	    {.name = "torch-2.2.0-cp310-cp310-win_amd64.whl"},
	    {.name = "torch-2.3.0-cp310-cp310-manylinux_2_28_x86_64.whl"},
	    {.name = "torch-2.1.1-cp310-cp310-manylinux1_x86_64.whl"},
	    {.name = "torch-2.0.0-cp38-cp38-manylinux1_x86_64.whl"},
	    {.name = "torch-2.4.0-cp310-cp310-manylinux_2_28_aarch64.whl"},
	};
	struct strv out = STRV_INIT;

	(void)state;
	update_newest_per_minor(f, sizeof(f) / sizeof(*f), "2.0", &out);
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0], "2.1.2");
	assert_string_equal(out.v[1], "2.3.0");
	assert_string_equal(out.v[2], "2.0.0");
	strv_release(&out);
}

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
	    cmocka_unit_test(test_update_listed_names_each_manifest_once),
	    cmocka_unit_test(test_update_known_by_kind_and_file_name),
	    cmocka_unit_test(test_update_pin_reads_the_pin_list),
	    cmocka_unit_test(test_update_check_pin_compares_sha256),
	    cmocka_unit_test(test_update_accept_pin_parse_and_text),
	    cmocka_unit_test(
		test_update_accept_refuses_a_label_not_the_file_name),
	    cmocka_unit_test(test_update_minor_keeps_two_parts),
	    cmocka_unit_test(test_update_newest_linux_wheel_per_minor),
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
