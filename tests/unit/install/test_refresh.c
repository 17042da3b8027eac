/*
 * cuenv update's decisions: which manifests a listing names, which the
 * catalogue already has, the pinned sha256 of each, and the newest wheel
 * of each minor release on the package index.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/refresh.h"

#define SHA_ABC                                                                \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define SHA_0 "0000000000000000000000000000000000000000000000000000000000000000"

static void test_refresh_listed_names_each_manifest_once(void **state)
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
	refresh_listed(html, &v);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0], "12.4.1");
	assert_string_equal(v.v[1], "12.3.0");
	/* a mirror folder's names, one a line */
	refresh_listed("redistrib_11.8.0.json\n.\n..\nredistrib_12.3.0.json\n",
		       &v);
	assert_int_equal(v.n, 3);
	assert_string_equal(v.v[2], "11.8.0");
	strv_release(&v);
}

static void test_refresh_known_by_kind_and_file_name(void **state)
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
	assert_true(refresh_known(&cat, KIT_CUDA, "12.4.1"));
	assert_false(refresh_known(&cat, KIT_CUDNN, "12.4.1"));
	assert_false(refresh_known(&cat, KIT_CUDA, "2.4.1"));
	assert_false(refresh_known(&cat, KIT_CUDA, "12.4"));
	catalog_release(&cat);
}

static void test_refresh_pin_reads_the_pin_list(void **state)
{
	static const char pins[] =
	    "product\tversion\turl\tsha256\n"
	    "cuda\t12.4.1\thttps://h/cuda/redistrib_12.4.1.json\t" SHA_ABC "\n"
	    "cudnn\t9.1.0\thttps://h/cudnn/redistrib_9.1.0.json\tNOTHEX\n";
	char *pin;

	(void)state;
	pin = refresh_pin(pins, "cuda", "12.4.1");
	assert_non_null(pin);
	assert_string_equal(pin, SHA_ABC);
	free(pin);
	assert_null(refresh_pin(pins, "cuda", "12.4"));
	assert_null(refresh_pin(pins, "cudnn", "12.4.1"));
	assert_null(refresh_pin(pins, "cudnn", "9.1.0"));
}

static void test_refresh_check_pin_compares_sha256(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(refresh_check_pin(NULL, "u", "abc", 3, &err),
			 CUENV_OK);
	assert_int_equal(refresh_check_pin(SHA_ABC, "u", "abc", 3, &err),
			 CUENV_OK);
	assert_int_equal(
	    refresh_check_pin(SHA_0, "https://h/r.json", "abc", 3, &err),
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

static void test_refresh_accept_pin_parse_and_text(void **state)
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
	assert_int_equal(refresh_accept(NULL, "https://h/r.json", json,
					strlen(json), "linux-x86_64", KIT_CUDA,
					"12.4.1", &err),
			 CUENV_OK);
	assert_int_equal(refresh_accept(pins, "https://h/r.json", json0,
					strlen(json0), "linux-x86_64", KIT_CUDA,
					"12.4.0", &err),
			 CUENV_OK);
	/* pinned to another sha256 */
	assert_int_equal(refresh_accept(pins, "https://h/r.json", json,
					strlen(json), "linux-x86_64", KIT_CUDA,
					"12.4.1", &err),
			 CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data, "https://h/r.json"));
	err_release(&err);
	/* the pin matches ("abc"), but it is no manifest */
	assert_int_equal(refresh_accept(pins, "https://h/a.json", "abc", 3,
					"linux-x86_64", KIT_CUDA, "12.3.0",
					&err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	/* a NUL byte after the JSON text: refused, naming the url */
	assert_int_equal(refresh_accept(NULL, "https://h/n.json", nul,
					sizeof(nul) - 1, "linux-x86_64",
					KIT_CUDA, "12.3.0", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "'https://h/n.json'"));
	err_release(&err);
}

/* A mirror's redistrib_12.4.json that says release_label 12.4.99 (so
 * that `install 12.4` would pick it where no pin exists): refused,
 * naming the URL and both versions. */
static void test_refresh_accept_refuses_a_label_not_the_file_name(void **state)
{
	static const char json[] = MANIFEST("12.4.99");
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(refresh_accept(NULL, "file:///m/redistrib_12.4.json",
					json, strlen(json), "linux-x86_64",
					KIT_CUDA, "12.4", &err),
			 CUENV_E_MANIFEST);
	assert_string_equal(
	    err.msg.data, "bad catalogue file 'file:///m/redistrib_12.4.json': "
			  "release_label '12.4.99' is not 12.4, as the file "
			  "name says");
	err_release(&err);
}

static void test_refresh_minor_keeps_two_parts(void **state)
{
	char *m;

	(void)state;
	m = refresh_minor("2.14.1");
	assert_string_equal(m, "2.14");
	free(m);
	m = refresh_minor("2.14");
	assert_string_equal(m, "2.14");
	free(m);
	m = refresh_minor("3");
	assert_string_equal(m, "3");
	free(m);
}

static void test_refresh_newest_linux_wheel_per_minor(void **state)
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
	refresh_newest_per_minor(f, sizeof(f) / sizeof(*f), "2.0", &out);
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0], "2.1.2");
	assert_string_equal(out.v[1], "2.3.0");
	assert_string_equal(out.v[2], "2.0.0");
	strv_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refresh_listed_names_each_manifest_once),
	    cmocka_unit_test(test_refresh_known_by_kind_and_file_name),
	    cmocka_unit_test(test_refresh_pin_reads_the_pin_list),
	    cmocka_unit_test(test_refresh_check_pin_compares_sha256),
	    cmocka_unit_test(test_refresh_accept_pin_parse_and_text),
	    cmocka_unit_test(
		test_refresh_accept_refuses_a_label_not_the_file_name),
	    cmocka_unit_test(test_refresh_minor_keeps_two_parts),
	    cmocka_unit_test(test_refresh_newest_linux_wheel_per_minor),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
